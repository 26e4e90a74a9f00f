import fc from 'fast-check';
import { buildBVH } from '../../src/bvh/buildBVH';
import { Sandbox } from '../../src/sim/sandbox';
import { installSceneSystems, parseScene } from '../../src/systems';
import { readField } from '../../tools/sceneFiles';

/**
 * Model-based fuzzing of the step-back history: one small world with every rewindable system on
 * (everything but particles), stepped, stepped back and restarted in random order. Stepping back N then
 * forward N must equal never going back: after every operation the world's hash (each system's part)
 * equals the hash a straight run had at that frame, and stepBack succeeds exactly while the model's
 * history (one state per step, at most `capacity`, emptied by restart) is not empty.
 */
export type HistoryOp = 'step' | 'back' | 'restart';

export const HISTORY_CAPACITY = 5;
/** Steps beyond this are skipped: the straight run's hashes are recorded up to here. */
export const HISTORY_MAX_FRAME = 24;
const DT = 1 / 60;

/** Small counts: the property is about the bookkeeping, not about load. */
export function historyWorld(): Sandbox {
  const scene = parseScene(
    {
      name: 'history-fuzz',
      seed: 3,
      terrain: { cells: 16, worldSize: 64, heightScale: 12 },
      systems: {
        wind: { tracers: 20 },
        broadphase: { count: 60, movingPercent: 30 },
        actors: { count: 6, size: 0.8 },
        capsules: { probe: {}, character: { start: [0, 0] }, crowd: { count: 6 } },
        boxProbe: {},
        rayEmitters: { rays: 30 },
        cracks: { rays: 30 },
      },
    },
    'history-fuzz',
  );
  const sandbox = new Sandbox(scene, undefined, 120, HISTORY_CAPACITY);
  sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
  installSceneSystems(sandbox, scene, { world: sandbox, readField });
  return sandbox;
}

/** The per-system hashes of a straight run, frame 0 .. HISTORY_MAX_FRAME; leaves the world restarted at frame 0. */
export function straightRun(sandbox: Sandbox): Record<string, string>[] {
  const hashes = [sandbox.hashes()];
  for (let frame = 0; frame < HISTORY_MAX_FRAME; frame++) {
    sandbox.step(DT);
    hashes.push(sandbox.hashes());
  }
  if (!sandbox.restart()) throw new Error('restart refused after a straight run');
  return hashes;
}

export const historyOpsArbitrary: fc.Arbitrary<HistoryOp[]> = fc.array(
  fc.oneof(
    { arbitrary: fc.constant<HistoryOp>('step'), weight: 5 },
    { arbitrary: fc.constant<HistoryOp>('back'), weight: 4 },
    { arbitrary: fc.constant<HistoryOp>('restart'), weight: 1 },
  ),
  { maxLength: 24, size: 'max' },
);

/** Replays `ops` from a restart of `sandbox`; throws naming the first operation whose outcome differs from the model. */
export function runHistoryModel(sandbox: Sandbox, straight: readonly Record<string, string>[], ops: readonly HistoryOp[]): number {
  const check = (index: number, expectedFrame: number): void => {
    const where = `after op #${index} of [${ops.slice(0, index + 1).join(', ')}]`;
    if (sandbox.frame !== expectedFrame) throw new Error(`frame ${sandbox.frame}, expected ${expectedFrame} ${where}`);
    const got = sandbox.hashes();
    const want = straight[expectedFrame]!;
    const differing = Object.keys(want).filter((part) => got[part] !== want[part]);
    if (differing.length > 0) throw new Error(`frame ${expectedFrame}: ${differing.join(', ')} differ from the straight run ${where}`);
  };
  if (!sandbox.restart()) throw new Error('restart refused');
  check(-1, 0);
  let frame = 0;
  let history = 0;
  let steps = 0;
  for (let index = 0; index < ops.length; index++) {
    switch (ops[index]!) {
      case 'step':
        if (frame === HISTORY_MAX_FRAME) continue;
        sandbox.step(DT);
        frame++;
        steps++;
        history = Math.min(HISTORY_CAPACITY, history + 1);
        break;
      case 'back': {
        const went = sandbox.stepBack();
        if (went !== history > 0) throw new Error(`stepBack gave ${went} with ${history} states in the model's history after op #${index}`);
        if (went) {
          frame--;
          history--;
        }
        break;
      }
      case 'restart':
        if (!sandbox.restart()) throw new Error(`restart refused after op #${index}`);
        frame = 0;
        history = 0;
        break;
    }
    check(index, frame);
  }
  return steps;
}
