import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** Unit test files whose subject is a module's state as first loaded (a kernel not yet loaded, its memory not yet grown). */
const FRESH_MODULES = ['tests/unit/bvh/wasmBuilderFallback.test.ts', 'tests/unit/capsule/simdCapsules.test.ts', 'tests/unit/field/simd-wind.test.ts'];

export default defineConfig({
  test: {
    // At least two workers, also on a 2-core machine (where the default is one): the browser project runs
    // one file at a time, so the second worker runs the unit files beside it. Measured on a quiet 2-core
    // machine, fresh clone: 722 s → 581 s, every file passing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          exclude: FRESH_MODULES,
          environment: 'node',
          testTimeout: 60_000,
          // Files share their worker's modules: importing the core once per file cost a third of the
          // project's time. Files about a module's first-load state run apart, below.
          isolate: false,
        },
      },
      {
        test: {
          name: 'unit-fresh',
          include: FRESH_MODULES,
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          // Most files test the built site: it is built once, before them.
          globalSetup: ['tests/browser/buildSite.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // One Chromium at a time: the machine has two cores and SwiftShader renders on the CPU.
          fileParallelism: false,
        },
      },
    ],
  },
});
