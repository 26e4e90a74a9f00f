import { describe, expect, it } from 'vitest';
import {
  ParticleSystem,
  Sandbox,
  buildBVH,
  loadSimdParticles,
  loadSimdRays,
  parseScene,
  showcaseEffects,
  simdParticleKernel,
  terrainMaterialInput,
  type ParticleSystemOptions,
} from '../../../src/core';

/** Positions, velocities, planes and counters folded into one string: equal strings, equal particles. */
function fingerprint(system: ParticleSystem): string {
  let h = 0;
  for (const array of [system.buffers.positions, system.buffers.velocities, system.buffers.planes]) {
    const words = new Uint32Array(array.buffer, array.byteOffset, array.length);
    for (let i = 0; i < words.length; i++) h = (Math.imul(h, 31) + words[i]!) | 0;
  }
  return `${h}:${system.totals.raycasts}:${system.totals.bounces}:${system.totals.fellThroughLives}`;
}

/**
 * 150 frames of the showcase; `switchAt` flips the kernel option once, at that frame. With `materials`
 * the BVH carries the terrain's materials, and `eachFrame` sees the system after every step.
 */
function run(
  options: Partial<ParticleSystemOptions>,
  switchAt = -1,
  materials = false,
  eachFrame?: (system: ParticleSystem, sandbox: Sandbox) => void,
): ParticleSystem {
  const sandbox = new Sandbox(
    parseScene({ name: 'kernels', seed: 1, terrain: { cells: 48, worldSize: 48, heightScale: 8, kind: 'ridged', waterLevel: 0.3, snowLevel: 0.6 } }),
  );
  const { positions, indices } = sandbox.terrain;
  sandbox.setBvh(buildBVH(positions, indices, {}, materials ? terrainMaterialInput(sandbox.terrain) : undefined));
  const system = new ParticleSystem(showcaseEffects(sandbox.terrain, { particles: 4000, budget: 80 }), { seed: 9, ...options }, false);
  sandbox.addSystem(system);
  for (let frame = 0; frame < 150; frame++) {
    if (frame === switchAt) system.options.kernel = system.options.kernel === 'typescript' ? 'wasm-simd' : 'typescript';
    sandbox.step(1 / 60);
    eachFrame?.(system, sandbox);
  }
  return system;
}

describe('particles on the WebAssembly kernels (move, cache lookups and rays)', () => {
  it('give the same particles as TypeScript, on a budget and in the reference mode (seed 9)', async () => {
    // Node 20+ has WebAssembly SIMD; null means the modules were not built (npm run build:wasm).
    expect(await loadSimdRays()).not.toBeNull();
    expect(await loadSimdParticles()).not.toBeNull();
    for (const mode of ['budget', 'reference'] as const) {
      const simd = run({ mode, kernel: 'wasm-simd' });
      const typescript = run({ mode, kernel: 'typescript' });
      expect(simd.simdInUse()).toEqual({ move: true, cache: true, rays: true });
      expect(typescript.simdInUse()).toEqual({ move: false, cache: false, rays: false });
      expect(simdParticleKernel()!.holds(simd.buffers)).toBe(true);
      expect(simd.totals.raycasts).toBeGreaterThan(1000);
      expect(fingerprint(simd)).toBe(fingerprint(typescript));
    }
  });

  it('with a collision filter: the same particles as TypeScript, and planes only from triangles the filter keeps (seed 9)', async () => {
    expect(await loadSimdRays()).not.toBeNull();
    expect(await loadSimdParticles()).not.toBeNull();
    const unfiltered = run({ kernel: 'typescript' }, -1, true);
    const everything = run({ kernel: 'typescript', filter: 0xffffffff }, -1, true);
    expect(fingerprint(everything)).toBe(fingerprint(unfiltered));
    for (const filter of [0, 0b0110, 0x9e3779b1]) {
      let masked = 0;
      const check = (system: ParticleSystem, sandbox: Sandbox): void => {
        const { hits, rays } = system.raycaster;
        const bvh = sandbox.bvh!;
        masked += system.raycaster.counters.subtreesMasked + system.raycaster.counters.trianglesMasked;
        for (let r = 0; r < rays.count; r++) {
          const t = hits.triangle[r]!;
          if (t >= 0) expect((bvh.masks.materialMasks[bvh.masks.materialIds[t]!]! & filter) !== 0).toBe(true);
        }
      };
      const simd = run({ kernel: 'wasm-simd', filter }, -1, true, check);
      const typescript = run({ kernel: 'typescript', filter }, -1, true);
      expect(simd.simdInUse().move).toBe(true);
      expect(fingerprint(simd)).toBe(fingerprint(typescript));
      expect(simd.metrics().filter).toBe(filter);
      if (filter === 0) expect(simd.totals.bounces).toBe(0);
      expect(masked).toBeGreaterThan(0);
      expect(fingerprint(simd)).not.toBe(fingerprint(unfiltered));
    }
  });

  it('rejects a filter that is not a 32-bit unsigned integer', () => {
    for (const filter of [-1, 1.5, 2 ** 32, NaN]) expect(() => new ParticleSystem([], { filter })).toThrow(/filter/);
    expect(() => parseScene({ systems: { particles: { filter: -2 } } }, 'p.json')).toThrow(/systems\.particles\.filter/);
  });

  it('switch live either way without a jump: particles move into the kernel\u2019s memory and fly on', async () => {
    await loadSimdParticles();
    const typescript = run({ kernel: 'typescript' });
    const toSimd = run({ kernel: 'typescript' }, 70);
    const toTypescript = run({ kernel: 'wasm-simd' }, 70);
    expect(toSimd.simdInUse()).toEqual({ move: true, cache: true, rays: true });
    expect(toTypescript.simdInUse().move).toBe(false);
    expect(fingerprint(toSimd)).toBe(fingerprint(typescript));
    expect(fingerprint(toTypescript)).toBe(fingerprint(typescript));
  });

  it('move a new cache (another cache size) into the kernel’s memory with the particles, which fly on', async () => {
    await loadSimdParticles();
    const changed = (kernel: 'wasm-simd' | 'typescript'): ParticleSystem => {
      const sandbox = new Sandbox(parseScene({ name: 'kernels', seed: 1, terrain: { cells: 48, worldSize: 48, heightScale: 8, kind: 'ridged' } }));
      sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
      const system = new ParticleSystem(showcaseEffects(sandbox.terrain, { particles: 4000, budget: 80 }), { seed: 9, kernel }, false);
      sandbox.addSystem(system);
      for (let frame = 0; frame < 120; frame++) {
        if (frame === 60) system.updateEffect(0, { cacheSize: 2048 });
        if (frame === 61 && kernel === 'wasm-simd') expect(system.simdInUse()).toEqual({ move: true, cache: true, rays: true });
        sandbox.step(1 / 60);
      }
      return system;
    };
    const simd = changed('wasm-simd');
    expect(simd.effects[0]!.cache.maxSize).toBe(2048);
    expect(simdParticleKernel()!.holdsCache(simd.buffers, simd.effects[0]!.cache)).toBe(true);
    expect(fingerprint(simd)).toBe(fingerprint(changed('typescript')));
  });

  it('rejects an unknown kernel', () => {
    expect(() => new ParticleSystem([], { kernel: 'gpu' as never })).toThrow(/kernel: expected 'wasm-simd' or 'typescript'/);
  });

  it('keep moving in TypeScript, saying why, when the engine refuses the kernel its memory', async () => {
    const kernel = (await loadSimdParticles())!;
    const createResident = kernel.createResident.bind(kernel);
    kernel.createResident = () => {
      throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
    };
    try {
      const refused = run({ kernel: 'wasm-simd' });
      expect(refused.simdInUse().move).toBe(false);
      expect(refused.simdRefusal()).toMatch(/no WebAssembly memory for [\d,]+ particles \(WebAssembly.Memory.grow/);
      expect(fingerprint(refused)).toBe(fingerprint(run({ kernel: 'typescript' })));
    } finally {
      kernel.createResident = createResident;
    }
    // New effects ask again.
    const system = run({ kernel: 'wasm-simd' });
    expect(system.simdInUse().move).toBe(true);
    expect(system.simdRefusal()).toBe('');
  });
});
