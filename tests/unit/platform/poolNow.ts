import { vi } from 'vitest';

/**
 * Runs a pool's `…Now` call (castNow, sweepNow) once the pool takes it. Such a call declines with null,
 * doing nothing, while a worker that woke late for the previous job is still leaving it (its busy word
 * set for a moment after the caller finished every chunk): the page then runs the batch on its own
 * thread, a test asks again.
 */
export async function whenPoolTakes<Run>(call: () => Run | null): Promise<Run> {
  return vi.waitFor(
    () => {
      const run = call();
      if (run === null) throw new Error('the pool still has a worker inside the previous job');
      return run;
    },
    { timeout: 30_000, interval: 1 },
  );
}
