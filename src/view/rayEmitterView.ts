import * as THREE from 'three';
import { swatches, type Legend } from './legend';

const HIT_COLOUR = new THREE.Color(0xffd23f);
const MISS_COLOUR = new THREE.Color(0x7fb2ff);
const HIT_DOT = 0xff5a36;
const MARKER = 0xff2f92;

export const RAY_EMITTER_LEGEND: Legend = {
  title: 'emitted rays',
  swatches: swatches([
    ['ray up to its hit', HIT_COLOUR],
    ['ray that missed', MISS_COLOUR],
    ['hit point', HIT_DOT],
    ['emitter', MARKER],
  ]),
};

/**
 * A ray emitter's rays: a segment from each origin to its hit (yellow) or, for a miss, to where the
 * segment ends or a fixed reach (faint blue), a dot at each hit, and a marker at the emitter. One draw
 * call each; buffers grow and are reused.
 */
export class RayEmitterView {
  readonly group = new THREE.Group();
  private readonly segments: THREE.LineSegments<THREE.BufferGeometry, THREE.LineBasicMaterial>;
  private readonly dots: THREE.Points<THREE.BufferGeometry, THREE.PointsMaterial>;
  private readonly marker: THREE.Mesh<THREE.SphereGeometry, THREE.MeshBasicMaterial>;
  private linePositions = new Float32Array(0);
  private lineColours = new Float32Array(0);
  private dotPositions = new Float32Array(0);

  constructor() {
    this.group.name = 'ray-emitters';
    this.segments = new THREE.LineSegments(
      new THREE.BufferGeometry(),
      new THREE.LineBasicMaterial({ vertexColors: true, transparent: true, opacity: 0.55, depthWrite: false }),
    );
    this.dots = new THREE.Points(new THREE.BufferGeometry(), new THREE.PointsMaterial({ color: HIT_DOT, size: 3, sizeAttenuation: false }));
    this.marker = new THREE.Mesh(new THREE.SphereGeometry(1, 16, 8), new THREE.MeshBasicMaterial({ color: MARKER }));
    for (const object of [this.segments, this.dots, this.marker]) object.frustumCulled = false;
    this.group.add(this.segments, this.dots, this.marker);
    this.group.visible = false;
  }

  set visible(value: boolean) {
    this.group.visible = value;
  }

  /** The emitter's position and size of its marker. */
  placeMarker(x: number, y: number, z: number, size: number): void {
    this.marker.position.set(x, y, z);
    this.marker.scale.setScalar(size);
  }

  /**
   * Rays 0 .. count: origin + t·direction up to t = hits t (hit) or `missLength` (miss, or the ray's
   * own tMax when shorter). At most `limit` rays are drawn (evenly picked).
   */
  setRays(
    origins: Float32Array,
    directions: Float32Array,
    tMax: Float32Array,
    hitT: Float32Array,
    hitTriangle: Int32Array,
    count: number,
    missLength: number,
    limit: number,
  ): void {
    const drawn = Math.min(count, limit);
    const stride = count / Math.max(drawn, 1);
    if (this.linePositions.length < 6 * drawn) {
      this.linePositions = new Float32Array(6 * Math.max(drawn, 1024));
      this.lineColours = new Float32Array(this.linePositions.length);
      this.dotPositions = new Float32Array(this.linePositions.length / 2);
      this.segments.geometry.setAttribute('position', new THREE.BufferAttribute(this.linePositions, 3));
      this.segments.geometry.setAttribute('color', new THREE.BufferAttribute(this.lineColours, 3));
      this.dots.geometry.setAttribute('position', new THREE.BufferAttribute(this.dotPositions, 3));
    }
    const lines = this.linePositions;
    const colours = this.lineColours;
    const dots = this.dotPositions;
    let dotCount = 0;
    for (let k = 0; k < drawn; k++) {
      const i = Math.floor(k * stride);
      const hit = hitTriangle[i]! >= 0;
      const t = hit ? hitT[i]! : Math.min(tMax[i]!, missLength);
      const o = 6 * k;
      const ox = origins[3 * i]!,
        oy = origins[3 * i + 1]!,
        oz = origins[3 * i + 2]!;
      const ex = ox + t * directions[3 * i]!,
        ey = oy + t * directions[3 * i + 1]!,
        ez = oz + t * directions[3 * i + 2]!;
      lines[o] = ox;
      lines[o + 1] = oy;
      lines[o + 2] = oz;
      lines[o + 3] = ex;
      lines[o + 4] = ey;
      lines[o + 5] = ez;
      const colour = hit ? HIT_COLOUR : MISS_COLOUR;
      const fade = hit ? 1 : 0.35;
      for (let v = 0; v < 2; v++) {
        colours[o + 3 * v] = colour.r * fade;
        colours[o + 3 * v + 1] = colour.g * fade;
        colours[o + 3 * v + 2] = colour.b * fade;
      }
      if (hit) {
        dots[3 * dotCount] = ex;
        dots[3 * dotCount + 1] = ey;
        dots[3 * dotCount + 2] = ez;
        dotCount++;
      }
    }
    const position = this.segments.geometry.getAttribute('position') as THREE.BufferAttribute | undefined;
    if (position !== undefined) {
      position.needsUpdate = true;
      (this.segments.geometry.getAttribute('color') as THREE.BufferAttribute).needsUpdate = true;
      (this.dots.geometry.getAttribute('position') as THREE.BufferAttribute).needsUpdate = true;
    }
    this.segments.geometry.setDrawRange(0, 2 * drawn);
    this.dots.geometry.setDrawRange(0, dotCount);
  }
}
