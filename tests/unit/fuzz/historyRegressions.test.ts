import { describe, expect, it } from 'vitest';
import { buildBVH } from '../../../src/bvh/buildBVH';
import { Sandbox } from '../../../src/sim/sandbox';
import { installSceneSystems, parseScene } from '../../../src/systems';
import { readField } from '../../../tools/sceneFiles';

/** Minimal sequences the step-back fuzzer found: after going back, each system must hash as it did at that frame. */
function world(systems: Record<string, unknown>, historyFrames: number): Sandbox {
  const scene = parseScene({ name: 'history-regression', seed: 3, terrain: { cells: 16, worldSize: 64, heightScale: 12 }, systems });
  const sandbox = new Sandbox(scene, undefined, 120, historyFrames);
  sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
  installSceneSystems(sandbox, scene, { world: sandbox, readField });
  return sandbox;
}

describe('step-back history regressions', () => {
  it('a restarted world hashes as it did before its first step (the box probe queries once the BVH is there)', () => {
    const sandbox = world({ boxProbe: {} }, 0);
    const atStart = sandbox.hashes();
    sandbox.step(1 / 60);
    expect(sandbox.restart()).toBe(true);
    expect(sandbox.hashes()).toEqual(atStart);
  });

  it("stepping back shows the broad-phase's created and deleted counts of that frame, not a rebuild's", () => {
    const sandbox = world({ broadphase: { count: 60, movingPercent: 30 } }, 4);
    sandbox.step(1 / 60);
    const atFrame1 = sandbox.hashes();
    sandbox.step(1 / 60);
    expect(sandbox.stepBack()).toBe(true);
    expect(sandbox.hashes()).toEqual(atFrame1);
  });
});
