import * as THREE from 'three';

/** Twelve box edges as pairs of corner indices; corner k takes the + side of axis j when bit j is set. */
const EDGES = [0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7];

/**
 * The box probe on the stage: the box (oriented or not) as twelve lines, and the triangles it reported
 * as a coloured overlay just above the terrain, one colour per vertex from the caller. Buffers grow and
 * are reused.
 */
export class BoxProbeView {
  readonly group = new THREE.Group();
  private readonly outline: THREE.LineSegments<THREE.BufferGeometry, THREE.LineBasicMaterial>;
  private readonly triangles: THREE.Mesh<THREE.BufferGeometry, THREE.MeshBasicMaterial>;
  private positions = new Float32Array(0);
  private colours = new Float32Array(0);

  constructor() {
    this.group.name = 'box-probe';
    this.outline = new THREE.LineSegments(
      new THREE.BufferGeometry().setAttribute('position', new THREE.BufferAttribute(new Float32Array(24 * 3), 3)),
      new THREE.LineBasicMaterial({ color: 0xffffff, depthTest: false, transparent: true, opacity: 0.9 }),
    );
    this.outline.renderOrder = 5;
    this.triangles = new THREE.Mesh(
      new THREE.BufferGeometry(),
      new THREE.MeshBasicMaterial({
        vertexColors: true,
        side: THREE.DoubleSide,
        transparent: true,
        opacity: 0.8,
        polygonOffset: true,
        polygonOffsetFactor: -4,
        polygonOffsetUnits: -4,
      }),
    );
    this.triangles.renderOrder = 4;
    this.outline.frustumCulled = this.triangles.frustumCulled = false;
    this.group.add(this.triangles, this.outline);
    this.group.visible = false;
  }

  /** The box: centre, half-sizes and its axes as rows (nine numbers). */
  setBox(center: ArrayLike<number>, halfSizes: ArrayLike<number>, axes: ArrayLike<number>): void {
    const attribute = this.outline.geometry.getAttribute('position') as THREE.BufferAttribute;
    const array = attribute.array as Float32Array;
    for (let e = 0; e < 24; e++) {
      const corner = EDGES[e]!;
      for (let k = 0; k < 3; k++) {
        let value = center[k]!;
        for (let j = 0; j < 3; j++) value += (corner & (1 << j) ? 1 : -1) * halfSizes[j]! * axes[3 * j + k]!;
        array[3 * e + k] = value;
      }
    }
    attribute.needsUpdate = true;
  }

  /** Room for `count` triangles; returns the arrays to fill (nine coordinates and nine colour channels each). */
  triangleBuffers(count: number): { positions: Float32Array; colours: Float32Array } {
    if (this.positions.length < 9 * count) {
      this.positions = new Float32Array(Math.max(9 * count, 2 * this.positions.length, 9 * 256));
      this.colours = new Float32Array(this.positions.length);
      const geometry = this.triangles.geometry;
      geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
      geometry.setAttribute('color', new THREE.BufferAttribute(this.colours, 3));
    }
    return { positions: this.positions, colours: this.colours };
  }

  /** The first `count` triangles of the buffers were filled. */
  showTriangles(count: number): void {
    const geometry = this.triangles.geometry;
    const position = geometry.getAttribute('position') as THREE.BufferAttribute | undefined;
    const colour = geometry.getAttribute('color') as THREE.BufferAttribute | undefined;
    if (position !== undefined && colour !== undefined) {
      position.needsUpdate = true;
      colour.needsUpdate = true;
    }
    geometry.setDrawRange(0, 3 * count);
    this.triangles.visible = count > 0;
  }

  set visible(on: boolean) {
    this.group.visible = on;
  }

  get visible(): boolean {
    return this.group.visible;
  }

  dispose(): void {
    this.outline.geometry.dispose();
    this.outline.material.dispose();
    this.triangles.geometry.dispose();
    this.triangles.material.dispose();
  }
}
