import { cos, sin } from '../../math/trig';
import { InvalidParameterError } from '../../errors';
import { Random } from '../../math/random';
import type { RayBatch } from './rayTypes';

/**
 * Ray emitters for the sandbox and the tests: where a batch of rays comes from.
 *   'fan':   a camera-like grid from one point, looking along yaw/pitch, `spread` degrees wide
 *            (coherent: neighbours in the batch are neighbours in the image);
 *   'spray': random directions from one point, within `spread` degrees of straight down (180: the
 *            whole sphere; incoherent);
 *   'rain':  straight down (direction exactly (0, −1, 0), the axis-parallel case) from random points
 *            of a disc of radius `spread` world units.
 */
export const RAY_EMITTER_KINDS = ['fan', 'spray', 'rain'] as const;
export type RayEmitterKind = (typeof RAY_EMITTER_KINDS)[number];

export interface RayEmitter {
  kind: RayEmitterKind;
  /** Origin (fan, spray) or disc centre (rain). */
  x: number;
  y: number;
  z: number;
  /** Fan: viewing direction, degrees (yaw about +y from +x towards +z, pitch up from horizontal). */
  yaw: number;
  pitch: number;
  /** Fan: field of view in degrees; spray: cone half-angle in degrees around −y; rain: disc radius. */
  spread: number;
  /** 1 to 1,000,000 rays. */
  count: number;
  /** Segment length in direction units (directions are unit length); Infinity for unbounded rays. */
  length: number;
  seed: number;
}

export const MAX_EMITTED_RAYS = 1_000_000;

/** Fills (or allocates, when `into` is too small) a ray batch from the emitter. */
export function emitRays(emitter: RayEmitter, into?: RayBatch): RayBatch {
  const { kind, count, spread, length } = emitter;
  if (!(RAY_EMITTER_KINDS as readonly string[]).includes(kind))
    throw new InvalidParameterError('kind', RAY_EMITTER_KINDS.map((k) => `'${k}'`).join(', '), kind);
  if (!(Number.isInteger(count) && count >= 1 && count <= MAX_EMITTED_RAYS))
    throw new InvalidParameterError('count', `a whole number from 1 to ${MAX_EMITTED_RAYS}`, count);
  for (const field of ['x', 'y', 'z', 'yaw', 'pitch', 'spread'] as const) {
    if (!Number.isFinite(emitter[field])) throw new InvalidParameterError(field, 'a finite number', emitter[field]);
  }
  if (!(length > 0)) throw new InvalidParameterError('length', 'a number > 0 (Infinity for unbounded rays)', length);
  const batch: RayBatch =
    into !== undefined && into.origins.length >= 3 * count && into.directions.length >= 3 * count && into.tMax.length >= count
      ? into
      : { count, origins: new Float32Array(3 * count), directions: new Float32Array(3 * count), tMax: new Float32Array(count) };
  batch.count = count;
  batch.tMax.fill(length, 0, count);
  const random = new Random(emitter.seed);
  const { origins, directions } = batch;
  const setDirection = (i: number, dx: number, dy: number, dz: number): void => {
    const inverse = 1 / Math.hypot(dx, dy, dz);
    directions[3 * i] = dx * inverse;
    directions[3 * i + 1] = dy * inverse;
    directions[3 * i + 2] = dz * inverse;
  };

  if (kind === 'fan') {
    const yaw = (emitter.yaw * Math.PI) / 180;
    const pitch = (emitter.pitch * Math.PI) / 180;
    const forward = [cos(pitch) * cos(yaw), sin(pitch), cos(pitch) * sin(yaw)];
    const right = [-sin(yaw), 0, cos(yaw)];
    const up = [
      right[1]! * forward[2]! - right[2]! * forward[1]!,
      right[2]! * forward[0]! - right[0]! * forward[2]!,
      right[0]! * forward[1]! - right[1]! * forward[0]!,
    ];
    const tanHalf = Math.tan((Math.min(Math.max(spread, 0.01), 170) * Math.PI) / 360);
    const columns = Math.ceil(Math.sqrt(count));
    const rows = Math.ceil(count / columns);
    for (let i = 0; i < count; i++) {
      const row = Math.floor(i / columns);
      const column = i - row * columns;
      const u = (((column + 0.5) / columns) * 2 - 1) * tanHalf;
      const v = (((row + 0.5) / rows) * 2 - 1) * tanHalf * (rows / columns);
      origins[3 * i] = emitter.x;
      origins[3 * i + 1] = emitter.y;
      origins[3 * i + 2] = emitter.z;
      setDirection(i, forward[0]! + u * right[0]! + v * up[0]!, forward[1]! + u * right[1]! + v * up[1]!, forward[2]! + u * right[2]! + v * up[2]!);
    }
  } else if (kind === 'spray') {
    // Uniform over the spherical cap of half-angle `spread` around −y.
    const lowest = cos((Math.min(Math.max(spread, 0), 180) * Math.PI) / 180);
    for (let i = 0; i < count; i++) {
      origins[3 * i] = emitter.x;
      origins[3 * i + 1] = emitter.y;
      origins[3 * i + 2] = emitter.z;
      const down = random.range(lowest, 1);
      const angle = random.range(0, 2 * Math.PI);
      const r = Math.sqrt(Math.max(0, 1 - down * down));
      setDirection(i, r * cos(angle), -down, r * sin(angle));
    }
  } else {
    const radius = Math.max(spread, 0);
    for (let i = 0; i < count; i++) {
      const r = radius * Math.sqrt(random.next());
      const angle = random.range(0, 2 * Math.PI);
      origins[3 * i] = emitter.x + r * cos(angle);
      origins[3 * i + 1] = emitter.y;
      origins[3 * i + 2] = emitter.z + r * sin(angle);
      directions[3 * i] = 0;
      directions[3 * i + 1] = -1;
      directions[3 * i + 2] = 0;
    }
  }
  return batch;
}
