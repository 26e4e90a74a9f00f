import { describe, expect, it } from 'vitest';
import { runCharacterModel } from '../../fuzz/characterModel';

/** Minimal cases the character fuzzer found, replayed as they were shrunk. */
describe('capsule character regressions', () => {
  it('standing still near the edge, it slides out down the slope and is pulled back onto the ground, not into it', () => {
    const stand = { op: 'walk', wishX: 0, wishZ: 0, jump: false, fast: false } as const;
    const frames = runCharacterModel({
      terrainSeed: 2,
      start: [0, 19],
      ops: [
        { ...stand, dt: 1 / 60, frames: 5 },
        { ...stand, dt: 0.1, frames: 9 },
      ],
    });
    expect(frames).toBe(14);
  });
});
