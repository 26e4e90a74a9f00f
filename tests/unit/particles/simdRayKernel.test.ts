import { describe, expect, it } from 'vitest';
import { ParticleSystem, Sandbox, buildBVH, loadSimdRays, parseScene, showcaseEffects, type ParticleSystemOptions } from '../../../src/core';

/** Positions, velocities, planes and counters folded into one string: equal strings, equal particles. */
function fingerprint(system: ParticleSystem): string {
  let h = 0;
  for (const array of [system.buffers.positions, system.buffers.velocities, system.buffers.planes]) {
    const words = new Uint32Array(array.buffer, array.byteOffset, array.length);
    for (let i = 0; i < words.length; i++) h = (Math.imul(h, 31) + words[i]!) | 0;
  }
  return `${h}:${system.totals.raycasts}:${system.totals.bounces}:${system.totals.fellThroughLives}`;
}

function run(options: Partial<ParticleSystemOptions>): ParticleSystem {
  const sandbox = new Sandbox(parseScene({ name: 'kernels', seed: 1, terrain: { cells: 48, worldSize: 48, heightScale: 8, kind: 'ridged' } }));
  sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
  const system = new ParticleSystem(showcaseEffects(sandbox.terrain, { particles: 4000, budget: 80 }), { seed: 9, ...options }, false);
  sandbox.addSystem(system);
  for (let frame = 0; frame < 150; frame++) sandbox.step(1 / 60);
  return system;
}

describe('particle raycasts on the WebAssembly SIMD kernel', () => {
  it('give the same particles as the TypeScript walk, on a budget and in the reference mode (seed 9)', async () => {
    // Node 20+ has WebAssembly SIMD; null means the module was not built (npm run build:wasm).
    expect(await loadSimdRays()).not.toBeNull();
    for (const mode of ['budget', 'reference'] as const) {
      const simd = run({ mode, rayKernel: 'wasm-simd' });
      const typescript = run({ mode, rayKernel: 'typescript' });
      expect(simd.totals.raycasts).toBeGreaterThan(1000);
      expect(fingerprint(simd)).toBe(fingerprint(typescript));
    }
  });

  it('rejects an unknown kernel', () => {
    expect(() => new ParticleSystem([], { rayKernel: 'gpu' as never })).toThrow(/rayKernel: expected 'wasm-simd' or 'typescript'/);
  });
});
