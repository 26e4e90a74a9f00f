import { bit } from './bit';
import type { ParticleBuffers } from './particleBuffers';
import type { TerrainHeightSampler } from './terrainHeight';

export interface FallThroughCount {
  /** Live particles below the true surface by more than their radius now. */
  below: number;
  /** Of those, the ones found there for the first time in their life. */
  fresh: number;
}

/**
 * Checks the live particles of slots [start, end) against the true surface (not their plane): below it
 * by more than `radius` counts; the first time in a life it is flagged, and painted `highlight` when
 * given. Branch-free for the same reason as the move: the outcome flips from particle to particle.
 */
export function countFallThrough(
  b: ParticleBuffers,
  start: number,
  end: number,
  radius: number,
  sampler: TerrainHeightSampler,
  highlight: readonly number[] | null,
  out: FallThroughCount,
): void {
  const positions = b.positions;
  const lifetimes = b.lifetimes;
  const fellThrough = b.fellThrough;
  let below = 0;
  let fresh = 0;
  for (let i = start; i < end; i++) {
    const i4 = 4 * i;
    const ground = sampler.heightAt(positions[i4]!, positions[i4 + 2]!);
    // NaN ground (off the grid) compares false: not below anything.
    const under = bit(positions[i4 + 1]! < ground - radius) & bit(lifetimes[i]! > 0);
    const first = under & (1 - fellThrough[i]!);
    fellThrough[i] = fellThrough[i]! | under;
    below += under;
    fresh += first;
    if (first !== 0 && highlight !== null) {
      b.colours[i4] = highlight[0]!;
      b.colours[i4 + 1] = highlight[1]!;
      b.colours[i4 + 2] = highlight[2]!;
    }
  }
  out.below += below;
  out.fresh += fresh;
}
