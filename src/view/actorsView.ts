import * as THREE from 'three';
import { SHAPE_BOX, SHAPE_CAPSULE, SHAPE_SPHERE, type ActorBuffers } from '../core';
import { swatches, type Legend } from './legend';

/** Colours per shape kind when awake; sleepers are drawn in a greyed tint of them, lost ones dark red. */
const AWAKE_COLOURS = [new THREE.Color(0xf4a259), new THREE.Color(0x5b8e7d), new THREE.Color(0xbc4b51)];
const SLEEP_TINT = new THREE.Color(0x7d8597);
const LOST_COLOUR = new THREE.Color(0x4a1c1c);

export const ACTORS_LEGEND: Legend = {
  title: 'actors',
  swatches: swatches([
    ['sphere', AWAKE_COLOURS[SHAPE_SPHERE]!],
    ['box', AWAKE_COLOURS[SHAPE_BOX]!],
    ['capsule', AWAKE_COLOURS[SHAPE_CAPSULE]!],
    ['asleep (greyed)', new THREE.Color().copy(AWAKE_COLOURS[SHAPE_SPHERE]!).lerp(SLEEP_TINT, 0.65)],
    ['lost (left the terrain)', LOST_COLOUR],
  ]),
};

/**
 * The actors as three instanced meshes: unit spheres, unit boxes and unit cylinders. A capsule is drawn
 * exactly as a cylinder plus two spheres at its ends (one instanced capsule mesh could not scale its
 * caps and its length independently). Instance matrices are written straight from the actors' arrays.
 */
export class ActorsView {
  readonly group = new THREE.Group();
  private spheres: THREE.InstancedMesh;
  private boxes: THREE.InstancedMesh;
  private cylinders: THREE.InstancedMesh;
  private readonly sphereGeometry = new THREE.SphereGeometry(1, 16, 12);
  private readonly boxGeometry = new THREE.BoxGeometry(2, 2, 2);
  private readonly cylinderGeometry = new THREE.CylinderGeometry(1, 1, 2, 16, 1, true);
  private readonly material = new THREE.MeshStandardMaterial({ roughness: 0.7, metalness: 0.05 });
  private readonly colour = new THREE.Color();

  constructor() {
    this.spheres = this.makeMesh(this.sphereGeometry, 0);
    this.boxes = this.makeMesh(this.boxGeometry, 0);
    this.cylinders = this.makeMesh(this.cylinderGeometry, 0);
    this.group.name = 'actors';
  }

  private makeMesh(geometry: THREE.BufferGeometry, capacity: number): THREE.InstancedMesh {
    const mesh = new THREE.InstancedMesh(geometry, this.material, Math.max(capacity, 1));
    mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    mesh.setColorAt(0, this.colour.set(0xffffff));
    mesh.count = 0;
    mesh.frustumCulled = false;
    mesh.castShadow = true;
    mesh.receiveShadow = true;
    this.group.add(mesh);
    return mesh;
  }

  /** Grows a mesh (replacing it) when the actors no longer fit. */
  private fit(mesh: THREE.InstancedMesh, needed: number): THREE.InstancedMesh {
    if (needed <= mesh.instanceMatrix.count) return mesh;
    this.group.remove(mesh);
    mesh.dispose();
    return this.makeMesh(mesh.geometry, Math.max(needed, 2 * mesh.instanceMatrix.count));
  }

  update(actors: ActorBuffers): void {
    let sphereCount = 0;
    let boxCount = 0;
    let capsuleCount = 0;
    for (let i = 0; i < actors.count; i++) {
      const kind = actors.kind[i]!;
      if (kind === SHAPE_SPHERE) sphereCount++;
      else if (kind === SHAPE_BOX) boxCount++;
      else capsuleCount++;
    }
    this.spheres = this.fit(this.spheres, sphereCount + 2 * capsuleCount);
    this.boxes = this.fit(this.boxes, boxCount);
    this.cylinders = this.fit(this.cylinders, capsuleCount);
    const sphereMatrices = this.spheres.instanceMatrix.array as Float32Array;
    const boxMatrices = this.boxes.instanceMatrix.array as Float32Array;
    const cylinderMatrices = this.cylinders.instanceMatrix.array as Float32Array;
    let s = 0,
      b = 0,
      c = 0;
    const R = actors.rotation;
    const p = actors.position;
    const size = actors.size;
    for (let i = 0; i < actors.count; i++) {
      const kind = actors.kind[i]!;
      this.tint(i, actors);
      const r = 9 * i;
      const x = p[3 * i]!,
        y = p[3 * i + 1]!,
        z = p[3 * i + 2]!;
      const sx = size[3 * i]!,
        sy = size[3 * i + 1]!,
        sz = size[3 * i + 2]!;
      if (kind === SHAPE_SPHERE) {
        writeMatrix(sphereMatrices, 16 * s, R, r, x, y, z, sx, sx, sx);
        this.spheres.setColorAt(s++, this.colour);
      } else if (kind === SHAPE_BOX) {
        writeMatrix(boxMatrices, 16 * b, R, r, x, y, z, sx, sy, sz);
        this.boxes.setColorAt(b++, this.colour);
      } else if (kind === SHAPE_CAPSULE) {
        writeMatrix(cylinderMatrices, 16 * c, R, r, x, y, z, sx, sy, sx);
        this.cylinders.setColorAt(c++, this.colour);
        // The caps: spheres at ±half length along the local y axis (column 1 of R).
        for (let side = -1; side <= 1; side += 2) {
          const ox = R[r + 1]! * sy * side,
            oy = R[r + 4]! * sy * side,
            oz = R[r + 7]! * sy * side;
          writeMatrix(sphereMatrices, 16 * s, R, r, x + ox, y + oy, z + oz, sx, sx, sx);
          this.spheres.setColorAt(s++, this.colour);
        }
      }
    }
    for (const [mesh, count] of [
      [this.spheres, s],
      [this.boxes, b],
      [this.cylinders, c],
    ] as const) {
      mesh.count = count;
      mesh.instanceMatrix.needsUpdate = true;
      if (mesh.instanceColor !== null) mesh.instanceColor.needsUpdate = true;
    }
  }

  private tint(i: number, actors: ActorBuffers): void {
    if (actors.lost[i] !== 0) this.colour.copy(LOST_COLOUR);
    else if (actors.awake[i] !== 0) this.colour.copy(AWAKE_COLOURS[actors.kind[i]!]!);
    else this.colour.copy(AWAKE_COLOURS[actors.kind[i]!]!).lerp(SLEEP_TINT, 0.65);
  }

  dispose(): void {
    for (const mesh of [this.spheres, this.boxes, this.cylinders]) mesh.dispose();
    this.sphereGeometry.dispose();
    this.boxGeometry.dispose();
    this.cylinderGeometry.dispose();
    this.material.dispose();
  }
}

/** Column-major 4×4 of rotation R (row-major 3×3 at r) · scale, translated to (x, y, z). */
function writeMatrix(
  out: Float32Array,
  o: number,
  R: Float64Array,
  r: number,
  x: number,
  y: number,
  z: number,
  sx: number,
  sy: number,
  sz: number,
): void {
  out[o] = R[r]! * sx;
  out[o + 1] = R[r + 3]! * sx;
  out[o + 2] = R[r + 6]! * sx;
  out[o + 3] = 0;
  out[o + 4] = R[r + 1]! * sy;
  out[o + 5] = R[r + 4]! * sy;
  out[o + 6] = R[r + 7]! * sy;
  out[o + 7] = 0;
  out[o + 8] = R[r + 2]! * sz;
  out[o + 9] = R[r + 5]! * sz;
  out[o + 10] = R[r + 8]! * sz;
  out[o + 11] = 0;
  out[o + 12] = x;
  out[o + 13] = y;
  out[o + 14] = z;
  out[o + 15] = 1;
}
