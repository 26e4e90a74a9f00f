import * as THREE from 'three';
import { capsuleSolidGeometry, capsuleWireGeometry, poseOnSegment } from './capsuleShapes';

/** What one probe sweep produced, in world coordinates. */
export interface CapsuleProbeShot {
  p0: readonly number[];
  p1: readonly number[];
  radius: number;
  motion: readonly number[];
  /** toi ∈ [0, 1]; 1 with hit false for a miss. */
  toi: number;
  hit: boolean;
  point: readonly number[];
  normal: readonly number[];
}

const GHOSTS = 6;

/**
 * The capsule probe: the start capsule (green outline), the swept volume (ghost outlines along the
 * path and the band swept by the axis), the capsule at the time of impact (red, or grey at the end of
 * a miss), the contact point and normal, and the triangles the sweep looked at, coloured per vertex.
 */
export class CapsuleProbeView {
  readonly group = new THREE.Group();
  private readonly start: THREE.LineSegments;
  private readonly ghosts: THREE.LineSegments[] = [];
  private readonly band: THREE.Mesh<THREE.BufferGeometry, THREE.MeshBasicMaterial>;
  private readonly bandEdges: THREE.LineSegments<THREE.BufferGeometry, THREE.LineBasicMaterial>;
  private readonly impact: THREE.Mesh<THREE.BufferGeometry, THREE.MeshStandardMaterial>;
  private readonly marker: THREE.Mesh;
  private readonly arrow: THREE.ArrowHelper;
  private readonly triangles: THREE.Mesh<THREE.BufferGeometry, THREE.MeshBasicMaterial>;
  private readonly hitOutline: THREE.LineLoop<THREE.BufferGeometry, THREE.LineBasicMaterial>;
  private readonly wireMaterial = new THREE.LineBasicMaterial({ color: 0x44ff88 });
  private readonly ghostMaterial = new THREE.LineBasicMaterial({ color: 0xffffff, transparent: true, opacity: 0.25 });
  private shapeKey = '';
  private trianglePositions = new Float32Array(0);
  private triangleColours = new Float32Array(0);

  constructor() {
    this.group.name = 'capsule-probe';
    this.start = new THREE.LineSegments(new THREE.BufferGeometry(), this.wireMaterial);
    this.group.add(this.start);
    for (let k = 0; k < GHOSTS; k++) {
      const ghost = new THREE.LineSegments(new THREE.BufferGeometry(), this.ghostMaterial);
      this.ghosts.push(ghost);
      this.group.add(ghost);
    }
    this.band = new THREE.Mesh(
      new THREE.BufferGeometry().setAttribute('position', new THREE.BufferAttribute(new Float32Array(18), 3)),
      new THREE.MeshBasicMaterial({ color: 0x88ccff, transparent: true, opacity: 0.18, side: THREE.DoubleSide, depthWrite: false }),
    );
    this.bandEdges = new THREE.LineSegments(
      new THREE.BufferGeometry().setAttribute('position', new THREE.BufferAttribute(new Float32Array(12), 3)),
      new THREE.LineBasicMaterial({ color: 0x88ccff }),
    );
    this.impact = new THREE.Mesh(
      new THREE.BufferGeometry(),
      new THREE.MeshStandardMaterial({ color: 0xff3355, transparent: true, opacity: 0.75, roughness: 0.5 }),
    );
    this.marker = new THREE.Mesh(new THREE.SphereGeometry(1, 12, 6), new THREE.MeshBasicMaterial({ color: 0xffee55, depthTest: false }));
    this.marker.renderOrder = 5;
    this.arrow = new THREE.ArrowHelper(new THREE.Vector3(0, 1, 0), new THREE.Vector3(), 3, 0x33ddff, 0.8, 0.4);
    this.triangles = new THREE.Mesh(
      new THREE.BufferGeometry(),
      new THREE.MeshBasicMaterial({
        vertexColors: true,
        transparent: true,
        opacity: 0.7,
        side: THREE.DoubleSide,
        depthWrite: false,
        polygonOffset: true,
        polygonOffsetFactor: -2,
        polygonOffsetUnits: -2,
      }),
    );
    this.triangles.renderOrder = 3;
    this.hitOutline = new THREE.LineLoop(
      new THREE.BufferGeometry().setAttribute('position', new THREE.BufferAttribute(new Float32Array(9), 3)),
      new THREE.LineBasicMaterial({ color: 0xffffff, depthTest: false }),
    );
    this.hitOutline.renderOrder = 4;
    this.group.add(this.band, this.bandEdges, this.impact, this.marker, this.arrow, this.triangles, this.hitOutline);
    this.group.traverse((object) => (object.frustumCulled = false));
    this.group.visible = false;
  }

  show(shot: CapsuleProbeShot): void {
    this.group.visible = true;
    const { p0, p1, radius, motion, toi, hit } = shot;
    const half = 0.5 * Math.hypot(p1[0]! - p0[0]!, p1[1]! - p0[1]!, p1[2]! - p0[2]!);
    const key = `${radius}/${half}`;
    if (key !== this.shapeKey) {
      this.shapeKey = key;
      const wire = capsuleWireGeometry(radius, half);
      this.start.geometry.dispose();
      this.start.geometry = wire;
      for (const ghost of this.ghosts) ghost.geometry = wire;
      this.impact.geometry.dispose();
      this.impact.geometry = capsuleSolidGeometry(radius, half);
    }
    const at = (t: number, end: readonly number[], k: number): number => end[k]! + t * motion[k]!;
    poseOnSegment(this.start, p0[0]!, p0[1]!, p0[2]!, p1[0]!, p1[1]!, p1[2]!);
    this.ghosts.forEach((ghost, k) => {
      const t = ((k + 1) / (GHOSTS + 1)) * toi;
      poseOnSegment(ghost, at(t, p0, 0), at(t, p0, 1), at(t, p0, 2), at(t, p1, 0), at(t, p1, 1), at(t, p1, 2));
    });
    poseOnSegment(this.impact, at(toi, p0, 0), at(toi, p0, 1), at(toi, p0, 2), at(toi, p1, 0), at(toi, p1, 1), at(toi, p1, 2));
    this.impact.material.color.set(hit ? 0xff3355 : 0x9aa4ad);
    // The band the axis sweeps up to the contact: a parallelogram, and the paths of its two ends.
    const corners = [
      p0[0]!,
      p0[1]!,
      p0[2]!,
      p1[0]!,
      p1[1]!,
      p1[2]!,
      at(toi, p1, 0),
      at(toi, p1, 1),
      at(toi, p1, 2),
      at(toi, p0, 0),
      at(toi, p0, 1),
      at(toi, p0, 2),
    ];
    const band = this.band.geometry.getAttribute('position') as THREE.BufferAttribute;
    for (const [v, c] of [0, 1, 2, 0, 2, 3].entries()) band.setXYZ(v, corners[3 * c]!, corners[3 * c + 1]!, corners[3 * c + 2]!);
    band.needsUpdate = true;
    const edges = this.bandEdges.geometry.getAttribute('position') as THREE.BufferAttribute;
    for (const [v, c] of [0, 3, 1, 2].entries()) edges.setXYZ(v, corners[3 * c]!, corners[3 * c + 1]!, corners[3 * c + 2]!);
    edges.needsUpdate = true;
    this.marker.visible = this.arrow.visible = hit;
    if (hit) {
      this.marker.position.set(shot.point[0]!, shot.point[1]!, shot.point[2]);
      this.marker.scale.setScalar(Math.max(0.08, radius * 0.2));
      this.arrow.position.copy(this.marker.position);
      this.arrow.setDirection(new THREE.Vector3(shot.normal[0], shot.normal[1], shot.normal[2]));
      const size = Math.max(1, 3 * radius);
      this.arrow.setLength(size, size * 0.3, size * 0.15);
    }
  }

  /** The traced triangles: 9 floats of corners and 9 of colour per triangle; the hit one outlined. */
  showTriangles(corners: Float32Array, colours: Float32Array, count: number, hitCorners: Float32Array | null): void {
    if (this.trianglePositions.length < 9 * count) {
      this.trianglePositions = new Float32Array(9 * Math.max(count, 64) * 2);
      this.triangleColours = new Float32Array(this.trianglePositions.length);
      this.triangles.geometry.setAttribute('position', new THREE.BufferAttribute(this.trianglePositions, 3));
      this.triangles.geometry.setAttribute('color', new THREE.BufferAttribute(this.triangleColours, 3));
    }
    this.trianglePositions.set(corners.subarray(0, 9 * count));
    this.triangleColours.set(colours.subarray(0, 9 * count));
    const position = this.triangles.geometry.getAttribute('position') as THREE.BufferAttribute | undefined;
    const colour = this.triangles.geometry.getAttribute('color') as THREE.BufferAttribute | undefined;
    if (position !== undefined) position.needsUpdate = true;
    if (colour !== undefined) colour.needsUpdate = true;
    this.triangles.geometry.setDrawRange(0, 3 * count);
    this.hitOutline.visible = hitCorners !== null;
    if (hitCorners !== null) {
      const outline = this.hitOutline.geometry.getAttribute('position') as THREE.BufferAttribute;
      (outline.array as Float32Array).set(hitCorners);
      outline.needsUpdate = true;
    }
  }

  hide(): void {
    this.group.visible = false;
  }
}
