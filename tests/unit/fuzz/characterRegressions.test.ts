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

  it('on a long frame near the edge it cannot fall past the edge and walk back in under the ground (clamped every sub-step)', () => {
    const frames = runCharacterModel({
      terrainSeed: 2,
      start: [0, 19],
      ops: [{ op: 'walk', wishX: 0, wishZ: -0.19729201058163953, jump: false, fast: true, dt: 0.5, frames: 5 }],
    });
    expect(frames).toBe(5);
  });

  it('grown wider on a slope, it is settled on the slope instead of left inside it', () => {
    const stand = { op: 'walk', wishX: 0, wishZ: 0, jump: false, fast: false } as const;
    const frames = runCharacterModel({
      terrainSeed: 2,
      start: [-16, 0],
      ops: [
        { op: 'reshape', radius: 0.2, halfHeight: 0.9, stepHeight: 0, maxSlopeDegrees: 0, speed: 1 },
        { op: 'walk', wishX: 0, wishZ: -1, jump: false, fast: true, dt: 0.5, frames: 2 },
        { ...stand, dt: 1 / 30, frames: 9 },
        { op: 'reshape', radius: 1.5, halfHeight: 0, stepHeight: 0, maxSlopeDegrees: 0, speed: 1 },
        { ...stand, dt: 1 / 60, frames: 4 },
      ],
    });
    expect(frames).toBe(15);
  });
});
