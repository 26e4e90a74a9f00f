import * as THREE from 'three';
import { swatches, type Legend } from './legend';

const DYNAMIC = new THREE.Color(0x5f7fa8);
const STATIC = new THREE.Color(0x6d6a58);
const DYNAMIC_OVERLAP = new THREE.Color(0xff7a2e);
const STATIC_OVERLAP = new THREE.Color(0xe8c040);
export const BROAD_PHASE_LEGEND: Legend = {
  title: 'broad-phase boxes',
  swatches: swatches([
    ['moving box', DYNAMIC],
    ['static box', STATIC],
    ['moving, in an overlapping pair', DYNAMIC_OVERLAP],
    ['static, in an overlapping pair', STATIC_OVERLAP],
  ]),
};

/** Kind code of static boxes in the broad-phase (KIND_STATIC). */
const KIND_STATIC = 1;

/**
 * The broad-phase scene's boxes in one instanced draw: a unit cube scaled and moved per box, coloured by
 * kind, and brighter when the box overlaps another. Instance buffers grow as needed and are written in
 * place every frame (a scale-and-translate matrix per box, no per-box objects).
 */
export class BroadPhaseBoxes {
  readonly group = new THREE.Group();
  private mesh: THREE.InstancedMesh<THREE.BoxGeometry, THREE.MeshLambertMaterial> | null = null;
  private readonly geometry = new THREE.BoxGeometry(1, 1, 1);
  private readonly material = new THREE.MeshLambertMaterial({ color: 0xffffff });
  private capacity = 0;

  constructor() {
    this.group.name = 'broadphase-boxes';
  }

  /**
   * `boxes`: min xyz, max xyz per box; `kinds` per box; `overlapping` per box or null (no highlight);
   * everything drawn shifted by `offset`.
   */
  update(boxes: Float64Array, kinds: Uint8Array, overlapping: Uint8Array | null, count: number, offset: readonly [number, number, number]): void {
    const mesh = this.ensure(count);
    const m = mesh.instanceMatrix.array as Float32Array;
    const c = mesh.instanceColor!.array as Float32Array;
    const [ox, oy, oz] = offset;
    for (let i = 0; i < count; i++) {
      const b = 6 * i;
      const o = 16 * i;
      m[o] = boxes[b + 3]! - boxes[b]!;
      m[o + 5] = boxes[b + 4]! - boxes[b + 1]!;
      m[o + 10] = boxes[b + 5]! - boxes[b + 2]!;
      m[o + 12] = 0.5 * (boxes[b]! + boxes[b + 3]!) + ox;
      m[o + 13] = 0.5 * (boxes[b + 1]! + boxes[b + 4]!) + oy;
      m[o + 14] = 0.5 * (boxes[b + 2]! + boxes[b + 5]!) + oz;
      const isStatic = kinds[i] === KIND_STATIC;
      const hit = overlapping !== null && overlapping[i] === 1;
      const colour = isStatic ? (hit ? STATIC_OVERLAP : STATIC) : hit ? DYNAMIC_OVERLAP : DYNAMIC;
      c[3 * i] = colour.r;
      c[3 * i + 1] = colour.g;
      c[3 * i + 2] = colour.b;
    }
    mesh.count = count;
    mesh.instanceMatrix.needsUpdate = true;
    mesh.instanceColor!.needsUpdate = true;
  }

  set visible(on: boolean) {
    this.group.visible = on;
  }

  get visible(): boolean {
    return this.group.visible;
  }

  dispose(): void {
    this.mesh?.dispose();
    this.geometry.dispose();
    this.material.dispose();
  }

  private ensure(count: number): THREE.InstancedMesh<THREE.BoxGeometry, THREE.MeshLambertMaterial> {
    if (this.mesh !== null && count <= this.capacity) return this.mesh;
    if (this.mesh !== null) {
      this.group.remove(this.mesh);
      this.mesh.dispose();
    }
    const capacity = Math.max(1024, 2 ** Math.ceil(Math.log2(Math.max(count, 1))));
    const mesh = new THREE.InstancedMesh(this.geometry, this.material, capacity);
    mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    mesh.instanceColor = new THREE.InstancedBufferAttribute(new Float32Array(3 * capacity), 3);
    mesh.instanceColor.setUsage(THREE.DynamicDrawUsage);
    // Identity rotation part of every matrix, written once; update() rewrites scale and translation only.
    const m = mesh.instanceMatrix.array as Float32Array;
    for (let i = 0; i < capacity; i++) m[16 * i + 15] = 1;
    mesh.frustumCulled = false;
    this.group.add(mesh);
    this.mesh = mesh;
    this.capacity = capacity;
    return mesh;
  }
}
