/**
 * Ray sets shared by the ray benchmarks, the same definitions as bvh-rays.ts: incoherent rays (origins
 * above the terrain, random downward directions), a pinhole camera grid looking across the terrain,
 * and 20-unit segments starting just above the surface in uniform directions. Seeded.
 */
import { Random } from '../../src/math/random';
import type { RayBatch } from '../../src/query/rays/index';
import { sampleTerrainHeight, type TerrainMesh } from '../../src/terrain/index';

export function emptyRayBatch(count: number): RayBatch {
  return { count, origins: new Float32Array(3 * count), directions: new Float32Array(3 * count), tMax: new Float32Array(count).fill(Infinity) };
}

function setUnitDirection(batch: RayBatch, i: number, x: number, y: number, z: number): void {
  const length = Math.hypot(x, y, z);
  batch.directions[3 * i] = x / length;
  batch.directions[3 * i + 1] = y / length;
  batch.directions[3 * i + 2] = z / length;
}

export function incoherentRays(mesh: TerrainMesh, count: number, random: Random): RayBatch {
  const half = mesh.params.worldSize / 2;
  const batch = emptyRayBatch(count);
  for (let i = 0; i < count; i++) {
    batch.origins.set([random.range(-half, half), mesh.maxHeight + random.range(1, 40), random.range(-half, half)], 3 * i);
    setUnitDirection(batch, i, random.range(-1, 1), -random.range(0.05, 1), random.range(-1, 1));
  }
  return batch;
}

/** side × side rays from one eye, row by row. */
export function cameraGridRays(mesh: TerrainMesh, side: number): RayBatch {
  const half = mesh.params.worldSize / 2;
  const batch = emptyRayBatch(side * side);
  const eye = [-half * 0.9, mesh.maxHeight + 30, -half * 0.9];
  const target = [half * 0.2, mesh.minHeight, half * 0.2];
  const forward = [target[0]! - eye[0]!, target[1]! - eye[1]!, target[2]! - eye[2]!];
  const fl = Math.hypot(forward[0]!, forward[1]!, forward[2]!);
  for (let k = 0; k < 3; k++) forward[k]! /= fl;
  const right = [-forward[2]!, 0, forward[0]!];
  const rl = Math.hypot(right[0]!, right[2]!);
  right[0]! /= rl;
  right[2]! /= rl;
  const up = [
    right[1]! * forward[2]! - right[2]! * forward[1]!,
    right[2]! * forward[0]! - right[0]! * forward[2]!,
    right[0]! * forward[1]! - right[1]! * forward[0]!,
  ];
  const tanHalf = Math.tan((60 * Math.PI) / 360);
  for (let row = 0; row < side; row++) {
    for (let col = 0; col < side; col++) {
      const i = row * side + col;
      const u = ((col + 0.5) / side) * 2 - 1;
      const v = ((row + 0.5) / side) * 2 - 1;
      batch.origins.set(eye, 3 * i);
      setUnitDirection(
        batch,
        i,
        forward[0]! + tanHalf * (u * right[0]! + v * up[0]!),
        forward[1]! + tanHalf * (u * right[1]! + v * up[1]!),
        forward[2]! + tanHalf * (u * right[2]! + v * up[2]!),
      );
    }
  }
  return batch;
}

export function surfaceSegments(mesh: TerrainMesh, count: number, random: Random, length = 20): RayBatch {
  const half = mesh.params.worldSize / 2;
  const batch = emptyRayBatch(count);
  for (let i = 0; i < count; i++) {
    const x = random.range(-half * 0.95, half * 0.95);
    const z = random.range(-half * 0.95, half * 0.95);
    batch.origins.set([x, sampleTerrainHeight(mesh, x, z) + 0.5, z], 3 * i);
    // Uniform directions on the sphere: half of the segments start away from the surface.
    const y = random.range(-1, 1);
    const angle = random.range(0, 2 * Math.PI);
    const r = Math.sqrt(1 - y * y);
    setUnitDirection(batch, i, r * Math.cos(angle), y, r * Math.sin(angle));
    batch.tMax[i] = length;
  }
  return batch;
}
