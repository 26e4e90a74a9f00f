/**
 * The capsule benchmarks' sweeps (capsule.ts, pool-capsules.ts): capsules of random orientation (radius
 * 0.5, half-height 1), centre 5 above the surface, moved 20 units in a direction uniform on the sphere,
 * over the middle of the terrain (the whole motion stays over it).
 */
import type { Random } from '../../src/math/random';
import { createCapsuleBatch, type CapsuleBatch } from '../../src/query/capsule/index';
import { sampleTerrainHeight, type TerrainMesh } from '../../src/terrain/index';

export const CAPSULE_RADIUS = 0.5;
export const CAPSULE_HALF_HEIGHT = 1;
export const CAPSULE_MOTION = 20;
export const CAPSULE_LIFT = 5;

export function unitVector(random: Random): [number, number, number] {
  const y = random.range(-1, 1);
  const angle = random.range(0, 2 * Math.PI);
  const r = Math.sqrt(1 - y * y);
  return [r * Math.cos(angle), y, r * Math.sin(angle)];
}

/** `count` sweeps over `mesh`, drawn from `random`. */
export function benchSweeps(mesh: TerrainMesh, count: number, random: Random): CapsuleBatch {
  const batch = createCapsuleBatch(count);
  const half = mesh.params.worldSize / 2 - CAPSULE_MOTION - 2;
  for (let i = 0; i < count; i++) {
    const x = random.range(-half, half),
      z = random.range(-half, half);
    const y = sampleTerrainHeight(mesh, x, z) + CAPSULE_LIFT;
    const [ax, ay, az] = unitVector(random);
    batch.start.set([x - ax * CAPSULE_HALF_HEIGHT, y - ay * CAPSULE_HALF_HEIGHT, z - az * CAPSULE_HALF_HEIGHT], 3 * i);
    batch.end.set([x + ax * CAPSULE_HALF_HEIGHT, y + ay * CAPSULE_HALF_HEIGHT, z + az * CAPSULE_HALF_HEIGHT], 3 * i);
    batch.radius[i] = CAPSULE_RADIUS;
    const [mx, my, mz] = unitVector(random);
    batch.motion.set([mx * CAPSULE_MOTION, my * CAPSULE_MOTION, mz * CAPSULE_MOTION], 3 * i);
  }
  return batch;
}
