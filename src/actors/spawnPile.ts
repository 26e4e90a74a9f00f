import { cos, sin } from '../math/trig';
import { InvalidParameterError } from '../errors';
import { Random } from '../math/random';
import type { ActorWorld } from './actorWorld';
import type { ActorShape } from './shapes';

export interface PileSpec {
  count: number;
  /** Centre of the pile's footprint, x and z. */
  center: [number, number];
  /** Relative weights of the three shapes (need not sum to 1). */
  mix: { sphere: number; box: number; capsule: number };
  /** Typical actor size (m): a sphere's radius, a box's half extent, a capsule's half length. */
  size: number;
  /** kg/m³; light actors (foam, cardboard) are the ones the wind can carry. */
  density: number;
  seed: number;
  /** Collision-filter group bits of every actor of the pile. */
  group: number;
}

export const DEFAULT_PILE: Readonly<PileSpec> = Object.freeze({
  count: 200,
  center: [0, 0] as [number, number],
  mix: { sphere: 1, box: 1, capsule: 1 },
  size: 0.6,
  density: 25,
  seed: 1,
  group: 1,
});

/**
 * Drops a pile: actors on a square grid of columns around `center`, stacked in layers above the highest
 * ground under the footprint, with random shapes (by `mix`), sizes (0.6–1.2 × size) and orientations,
 * all from `seed`. Spacing leaves every actor clear of its neighbours, so the pile starts without
 * overlap and settles under gravity. `groundHeight(x, z)` gives the terrain's height.
 */
export function spawnPile(world: ActorWorld, input: Partial<PileSpec>, groundHeight: (x: number, z: number) => number): void {
  const spec: PileSpec = { ...DEFAULT_PILE, ...input, mix: { ...DEFAULT_PILE.mix, ...input.mix } };
  if (!Number.isInteger(spec.count) || spec.count < 0 || spec.count > 100000)
    throw new InvalidParameterError('pile.count', 'an integer in [0, 100000]', spec.count);
  if (!(spec.size > 0) || !(spec.size <= 100)) throw new InvalidParameterError('pile.size', 'a number in (0, 100]', spec.size);
  const weights = [spec.mix.sphere, spec.mix.box, spec.mix.capsule];
  if (!weights.every((w) => w >= 0 && Number.isFinite(w)) || !(weights[0]! + weights[1]! + weights[2]! > 0)) {
    throw new InvalidParameterError('pile.mix', 'three finite weights ≥ 0, not all 0', weights.join(', '));
  }
  if (!Number.isFinite(spec.center[0]) || !Number.isFinite(spec.center[1]))
    throw new InvalidParameterError('pile.center', 'two finite numbers', spec.center.join(', '));
  const random = new Random(spec.seed);
  const total = weights[0]! + weights[1]! + weights[2]!;
  // The largest actor: a box of 1.2·size half extents has a bounding radius of 1.2·√3·size.
  const spacing = 2.2 * 1.2 * Math.sqrt(3) * spec.size;
  const side = Math.max(1, Math.ceil(Math.sqrt(spec.count / 4)));
  const start0 = spec.center[0] - ((side - 1) * spacing) / 2;
  const start1 = spec.center[1] - ((side - 1) * spacing) / 2;
  let base = -Infinity;
  for (let i = 0; i <= 4 * side; i++) {
    for (let j = 0; j <= 4 * side; j++) {
      base = Math.max(
        base,
        groundHeight(start0 - spacing + (i * (side + 1) * spacing) / (4 * side), start1 - spacing + (j * (side + 1) * spacing) / (4 * side)),
      );
    }
  }
  if (!Number.isFinite(base)) base = 0;
  for (let n = 0; n < spec.count; n++) {
    const layer = Math.floor(n / (side * side));
    const cell = n - layer * side * side;
    const x = start0 + (cell % side) * spacing + random.range(-0.1, 0.1) * spacing;
    const z = start1 + Math.floor(cell / side) * spacing + random.range(-0.1, 0.1) * spacing;
    const y = base + spacing * (layer + 0.75);
    const scale = spec.size * random.range(0.6, 1.2);
    let pick = random.next() * total;
    let kind = 0;
    while (kind < 2 && pick >= weights[kind]!) pick -= weights[kind++]!;
    let shape: ActorShape;
    if (kind === 0) shape = { kind: 'sphere', radius: scale };
    else if (kind === 1)
      shape = { kind: 'box', halfExtents: [scale * random.range(0.5, 1), scale * random.range(0.5, 1), scale * random.range(0.5, 1)] };
    else shape = { kind: 'capsule', radius: scale * random.range(0.35, 0.55), halfLength: scale * random.range(0.5, 1) };
    world.addActor(shape, [x, y, z], randomRotation(random), spec.density, spec.group);
  }
}

/** A uniformly distributed rotation (Shoemake's method), as a quaternion x, y, z, w. */
function randomRotation(random: Random): [number, number, number, number] {
  const u1 = random.next(),
    u2 = random.next(),
    u3 = random.next();
  const a = Math.sqrt(1 - u1),
    b = Math.sqrt(u1);
  return [a * sin(2 * Math.PI * u2), a * cos(2 * Math.PI * u2), b * sin(2 * Math.PI * u3), b * cos(2 * Math.PI * u3)];
}
