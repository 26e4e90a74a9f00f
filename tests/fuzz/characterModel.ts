import fc from 'fast-check';
import { buildBVH } from '../../src/bvh/buildBVH';
import type { CapsuleSystem } from '../../src/capsules/capsuleSystem';
import { Sandbox } from '../../src/sim/sandbox';
import { enableSystem, parseScene } from '../../src/systems';
import { sampleTerrainHeight } from '../../src/terrain/heightfield';
import { readField } from '../../tools/sceneFiles';

/**
 * Fuzzing the capsule character through the capsule system (its sub-steps and footprint clamp included):
 * random walks, runs, jumps, frame lengths (zero and longer than a sub-step) and reshapes on a small,
 * steep terrain. After every step the capsule must not end below the terrain: the surface under its
 * axis is no higher than the bottom of its lower sphere (a capsule resting on a slope stays above it
 * there, one sunk into the ground does not), and its position is finite.
 */
export type CharacterOp =
  | {
      readonly op: 'walk';
      readonly wishX: number;
      readonly wishZ: number;
      readonly jump: boolean;
      readonly fast: boolean;
      readonly dt: number;
      readonly frames: number;
    }
  | {
      readonly op: 'reshape';
      readonly radius: number;
      readonly halfHeight: number;
      readonly stepHeight: number;
      readonly maxSlopeDegrees: number;
      readonly speed: number;
    };

export interface CharacterCase {
  readonly terrainSeed: number;
  readonly start: readonly [number, number];
  readonly ops: readonly CharacterOp[];
}

/** Half the terrain's width: starts are drawn beyond it too (the system clamps them). */
const HALF_WORLD = 24;
/** How far the foot may sink below the surface: rounding, far below the skin the controller keeps. */
export const SINK_TOLERANCE = 1e-3;

const direction = fc.oneof(fc.constantFrom(0, 1, -1, 0.7071067811865476), fc.double({ min: -1.5, max: 1.5, noNaN: true }));

const walk = fc.record({
  op: fc.constant('walk' as const),
  wishX: direction,
  wishZ: direction,
  jump: fc.boolean(),
  fast: fc.boolean(),
  dt: fc.constantFrom(1 / 60, 1 / 60, 1 / 30, 1 / 240, 0, 0.1, 0.5),
  frames: fc.integer({ min: 1, max: 20 }),
});

const reshape = fc.record({
  op: fc.constant('reshape' as const),
  radius: fc.constantFrom(0.2, 0.6, 1.5),
  halfHeight: fc.constantFrom(0, 0.9, 2),
  stepHeight: fc.constantFrom(0, 0.6, 2),
  maxSlopeDegrees: fc.constantFrom(0, 30, 50, 89),
  speed: fc.constantFrom(1, 9, 40),
});

export function characterCaseArbitrary(maxLength: number): fc.Arbitrary<CharacterCase> {
  return fc.record({
    terrainSeed: fc.integer({ min: 1, max: 3 }),
    start: fc.tuple(fc.integer({ min: -HALF_WORLD - 4, max: HALF_WORLD + 4 }), fc.integer({ min: -HALF_WORLD - 4, max: HALF_WORLD + 4 })),
    ops: fc.array(fc.oneof({ arbitrary: walk, weight: 6 }, { arbitrary: reshape, weight: 1 }), { maxLength, size: 'max' }),
  });
}

const worlds = new Map<number, Sandbox>();

/** One world per terrain seed, kept between cases (the BVH costs more than a walk); a fresh capsule system per case. */
function characterWorld(terrainSeed: number, start: readonly [number, number]): { sandbox: Sandbox; capsules: CapsuleSystem } {
  let sandbox = worlds.get(terrainSeed);
  if (sandbox === undefined) {
    const scene = parseScene({
      name: 'character-fuzz',
      seed: terrainSeed,
      terrain: { seed: terrainSeed, kind: 'ridged', cells: 16, worldSize: 2 * HALF_WORLD, heightScale: 18 },
    });
    sandbox = new Sandbox(scene, undefined, 120, 0);
    sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
    worlds.set(terrainSeed, sandbox);
  }
  const capsules = enableSystem(sandbox, 'capsules', { character: { start: [start[0], start[1]] } }, { world: sandbox, readField }) as CapsuleSystem;
  return { sandbox, capsules };
}

/** Replays a case; returns the frames stepped, throws on the first frame that ends below the terrain. */
export function runCharacterModel(test: CharacterCase): number {
  const { sandbox, capsules } = characterWorld(test.terrainSeed, test.start);
  let frames = 0;
  let shape = { radius: 0.6, halfHeight: 0.9 };
  for (let index = 0; index < test.ops.length; index++) {
    const op = test.ops[index]!;
    if (op.op === 'reshape') {
      const { radius, halfHeight, stepHeight, maxSlopeDegrees, speed } = op;
      capsules.update({ character: { start: [test.start[0], test.start[1]], radius, halfHeight, stepHeight, maxSlopeDegrees, speed } });
      shape = { radius, halfHeight };
      continue;
    }
    Object.assign(capsules.input, { wishX: op.wishX, wishZ: op.wishZ, jump: op.jump, fast: op.fast });
    for (let frame = 0; frame < op.frames; frame++) {
      sandbox.step(op.dt);
      frames++;
      const character = capsules.character!;
      const [x, y, z] = character.position;
      const foot = y! - shape.halfHeight - shape.radius;
      const ground = sampleTerrainHeight(sandbox.terrain, x!, z!);
      if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)) || foot < ground - SINK_TOLERANCE) {
        throw new Error(
          `character at (${x}, ${y}, ${z}) has its foot ${ground - foot} below the terrain after frame ${frame} of op #${index} ` +
            `(terrain seed ${test.terrainSeed}, start ${test.start.join(', ')})\n  ${JSON.stringify(test.ops.slice(0, index + 1))}`,
        );
      }
    }
  }
  return frames;
}
