import { forEachNodeBox, type BVH } from '../../../src/bvh/index';
import { Random } from '../../../src/math/random';
import type { RayBatch, RayHits } from '../../../src/query/rays/index';

/** Ray batches for the tests: random, coherent, and the adversarial families of the issue. */
export class RayBuilder {
  private origins: number[] = [];
  private directions: number[] = [];
  private limits: number[] = [];

  add(origin: ArrayLike<number>, direction: ArrayLike<number>, tMax = Infinity): this {
    this.origins.push(origin[0]!, origin[1]!, origin[2]!);
    this.directions.push(direction[0]!, direction[1]!, direction[2]!);
    this.limits.push(tMax);
    return this;
  }

  /** A ray from `from` through `to`, so the target sits at t = 1; extended by `beyond`. */
  through(from: ArrayLike<number>, to: ArrayLike<number>, beyond = Infinity): this {
    return this.add(from, [to[0]! - from[0]!, to[1]! - from[1]!, to[2]! - from[2]!], beyond);
  }

  build(): RayBatch {
    return {
      count: this.limits.length,
      origins: Float32Array.from(this.origins),
      directions: Float32Array.from(this.directions),
      tMax: Float32Array.from(this.limits),
    };
  }
}

/** Hit buffers for n rays. */
export const emptyHits = (n: number): RayHits => ({ t: new Float32Array(n), triangle: new Int32Array(n) });

/**
 * Eleven rays down onto a mesh around the origin: the first and last valid, the nine between invalid
 * (NaN or ∞ origin, NaN or ∞ direction, zero and negative-zero direction, tMax 0, −1 and NaN).
 */
export function invalidRayBatch(): RayBatch {
  const good = [0, 100, 0];
  const down = [0.1, -1, 0.2];
  return new RayBuilder()
    .add(good, down)
    .add([NaN, 100, 0], down)
    .add([Infinity, 100, 0], down)
    .add(good, [0, NaN, 0])
    .add(good, [0, -Infinity, 0])
    .add(good, [0, 0, 0])
    .add(good, [-0, -0, -0])
    .add(good, down, 0)
    .add(good, down, -1)
    .add(good, down, NaN)
    .add(good, down)
    .build();
}

export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

export function meshBounds(positions: Float32Array): Bounds {
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, positions[i + k]!);
      max[k] = Math.max(max[k]!, positions[i + k]!);
    }
  }
  return { min, max };
}

/** Origins anywhere around the mesh (a margin outside its box too), directions uniform on the sphere. */
export function randomRays(seed: number, count: number, bounds: Bounds, segmentLength = Infinity): RayBatch {
  const random = new Random(seed);
  const rays = new RayBuilder();
  for (let i = 0; i < count; i++) {
    const origin = [0, 1, 2].map((k) => {
      const span = bounds.max[k]! - bounds.min[k]!;
      return random.range(bounds.min[k]! - 0.2 * span, bounds.max[k]! + 0.2 * span);
    });
    const y = random.range(-1, 1);
    const a = random.range(0, 2 * Math.PI);
    const r = Math.sqrt(1 - y * y);
    rays.add(origin, [r * Math.cos(a), y, r * Math.sin(a)], segmentLength);
  }
  return rays.build();
}

/** A pinhole camera grid above one corner looking across (coherent rays). */
export function cameraRays(side: number, bounds: Bounds): RayBatch {
  const rays = new RayBuilder();
  const eye = [bounds.min[0] - 5, bounds.max[1] + 10, bounds.min[2] - 5];
  for (let row = 0; row < side; row++) {
    for (let col = 0; col < side; col++) {
      const target = [
        bounds.min[0] + ((col + 0.5) / side) * (bounds.max[0] - bounds.min[0]),
        bounds.min[1],
        bounds.min[2] + ((row + 0.5) / side) * (bounds.max[2] - bounds.min[2]),
      ];
      rays.through(eye, target);
    }
  }
  return rays.build();
}

/** What nodeBoxRays casts at each target (a node box's corner or a point on one of its edges). */
export interface NodeBoxRayKinds {
  /** Axis-parallel rays through the target: along z only, or along z, −y and −x. */
  axes: 1 | 3;
  /** Also a ray starting at the target itself, in a random downward direction. */
  fromTarget: boolean;
  /** Nearly horizontal rays skimming just above the highest vertex, after the boxes. */
  skimming: number;
}

/**
 * Adversarial rays for a BVH: for about 30% of its node boxes, rays from above aimed exactly at a
 * corner and at a point of a top edge, axis-parallel rays through those points (running along box
 * edges and faces), and grazing rays over the whole mesh.
 */
export function nodeBoxRays(bvh: BVH, positions: Float32Array, random: Random, kinds: NodeBoxRayKinds): RayBuilder {
  const rays = new RayBuilder();
  const bounds = meshBounds(positions);
  forEachNodeBox(bvh, (x0, y0, z0, x1, y1, z1) => {
    if (random.next() > 0.3) return;
    const corner = [random.next() < 0.5 ? x0 : x1, random.next() < 0.5 ? y0 : y1, random.next() < 0.5 ? z0 : z1];
    const edgePoint = [x0 + random.next() * (x1 - x0), y1, z0];
    for (const target of [corner, edgePoint]) {
      rays.through(
        [random.range(bounds.min[0], bounds.max[0]), bounds.max[1] + random.range(1, 30), random.range(bounds.min[2], bounds.max[2])],
        target,
      );
      rays.add([target[0]!, target[1]!, bounds.min[2] - 1], [0, 0, 1]);
      if (kinds.axes === 3) {
        rays.add([target[0]!, bounds.max[1] + 1, target[2]!], [0, -1, 0]);
        rays.add([bounds.max[0] + 1, target[1]!, target[2]!], [-1, 0, -0]);
      }
      if (kinds.fromTarget) rays.add([target[0]!, target[1]!, target[2]!], [random.range(-1, 1), -0.5, random.range(-1, 1)]);
    }
  });
  for (let i = 0; i < kinds.skimming; i++) {
    rays.add(
      [bounds.min[0] - 1, bounds.max[1] + random.range(-0.5, 0.01), random.range(bounds.min[2], bounds.max[2])],
      [1, random.range(-0.01, 0.0), random.range(-0.2, 0.2)],
    );
  }
  return rays;
}
