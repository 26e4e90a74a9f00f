import { beforeAll, describe, expect, it } from 'vitest';
import {
  CapsuleSystem,
  ColliderscopeError,
  createCapsuleBatch,
  createCapsuleHits,
  createHeadlessSandbox,
  createSystem,
  loadSimdCapsules,
  parseScene,
  runFixedSteps,
  sampleTerrainHeight,
  sweepCapsules,
  type Sandbox,
  type SceneCapsules,
} from '../../../src/core';
import { readField } from '../../../tools/sceneFiles';

/** A small terrain (fast to build) with every part of the capsules on. */
function sandboxWith(capsules: SceneCapsules): Sandbox {
  const scene = parseScene(
    {
      name: 'capsules-test',
      seed: 17,
      terrain: { seed: 5, kind: 'hybrid', octaves: 5, heightScale: 20, worldSize: 128, cells: 48 },
      systems: { capsules: capsules },
    },
    'capsules-test.json',
  );
  return createHeadlessSandbox(scene, { readField });
}

const SECTION: SceneCapsules = {
  probe: { x: 10, z: -6, lift: 8, yaw: 40, pitch: 20, radius: 1.2, halfHeight: 2, motionYaw: 15, motionPitch: -30, distance: 50 },
  character: { start: [-20, 15] },
  crowd: { count: 150, speed: 20, radius: 0.8, halfHeight: 1.2 },
};

const capsulesOf = (sandbox: Sandbox): CapsuleSystem => {
  const system = sandbox.system('capsules');
  if (!(system instanceof CapsuleSystem)) throw new Error('no capsule system running');
  return system;
};

beforeAll(async () => {
  // As the runner and the page do; Node has WebAssembly SIMD, so the kernel is there.
  expect(await loadSimdCapsules()).not.toBeNull();
});

describe('capsule system', () => {
  it('sweeps the probe exactly as a direct sweepCapsules call, from the scene section', () => {
    const sandbox = sandboxWith({ ...SECTION, kernel: 'typescript' });
    runFixedSteps(sandbox, 3);
    const probe = capsulesOf(sandbox).probe!;
    expect(probe.hit).toBe(true);
    // The same capsule, built here from the section's numbers.
    const s = SECTION.probe!;
    const rad = Math.PI / 180;
    const centre = [s.x!, sampleTerrainHeight(sandbox.terrain, s.x!, s.z!) + s.lift!, s.z!];
    const axis = [Math.cos(s.pitch! * rad) * Math.cos(s.yaw! * rad), Math.sin(s.pitch! * rad), Math.cos(s.pitch! * rad) * Math.sin(s.yaw! * rad)];
    const motion = [
      Math.cos(s.motionPitch! * rad) * Math.cos(s.motionYaw! * rad) * s.distance!,
      Math.sin(s.motionPitch! * rad) * s.distance!,
      Math.cos(s.motionPitch! * rad) * Math.sin(s.motionYaw! * rad) * s.distance!,
    ];
    const batch = createCapsuleBatch(1);
    batch.start.set(centre.map((c, k) => c - axis[k]! * s.halfHeight!));
    batch.end.set(centre.map((c, k) => c + axis[k]! * s.halfHeight!));
    batch.motion.set(motion);
    batch.radius[0] = s.radius!;
    const hits = createCapsuleHits(1);
    const counters = sweepCapsules(sandbox.bvh!, batch, hits);
    expect(probe.hits).toEqual(hits);
    expect(probe.counters.nodesVisited).toBe(counters.nodesVisited);
    expect(probe.trace.count).toBeGreaterThan(0);
    const metrics = sandbox.report().metrics.capsules!;
    expect(metrics.probeContact).toBe(`toi ${hits.toi[0]!.toFixed(4)} on triangle ${hits.triangle[0]}`);
    expect(metrics.kernel).toBe('TypeScript');
  });

  it('sweeps the whole crowd each step, and the character stands on the ground without input', () => {
    const sandbox = sandboxWith({ ...SECTION, kernel: 'typescript' });
    runFixedSteps(sandbox, 90);
    const system = capsulesOf(sandbox);
    const metrics = system.metrics();
    expect(system.crowd!.count).toBe(150);
    // The probe (1), the crowd (150) and the character's few sweeps.
    expect(metrics.sweeps).toBeGreaterThanOrEqual(151 + 1);
    expect(metrics.nodes as number).toBeGreaterThan(0);
    expect(metrics.pairsPossible as number).toBeGreaterThanOrEqual(metrics.pairsKept as number);
    expect(metrics.crowd).toBe(150);
    expect(metrics.crowdContacts as number).toBeGreaterThan(0);
    const character = system.character!;
    expect(character.grounded).toBe(true);
    // Landing on a slope may slide it a little, no more.
    expect(Math.abs(character.position[0]! + 20)).toBeLessThan(0.1);
    expect(character.footY).toBeGreaterThan(sampleTerrainHeight(sandbox.terrain, -20, 15) - 0.5);
    expect(sandbox.timings.phases).toEqual(expect.arrayContaining(['capsules.probe', 'capsules.character', 'capsules.crowd']));
  });

  it('gives the same contacts and the same hash in TypeScript and WebAssembly SIMD, and says which ran', () => {
    const typescript = sandboxWith({ ...SECTION, kernel: 'typescript' });
    const simd = sandboxWith({ ...SECTION, kernel: 'wasm-simd' });
    const a = runFixedSteps(typescript, 30);
    const b = runFixedSteps(simd, 30);
    expect(capsulesOf(simd).probe!.hits).toEqual(capsulesOf(typescript).probe!.hits);
    expect(capsulesOf(simd).crowd!.centres).toEqual(capsulesOf(typescript).crowd!.centres);
    expect(b).toBe(a);
    expect(simd.report().metrics.capsules!.kernel).toBe('WebAssembly SIMD');
    expect(typescript.report().metrics.capsules!.kernel).toBe('TypeScript');
    // The same scene again gives the same hash; another seed does not.
    expect(runFixedSteps(sandboxWith({ ...SECTION, kernel: 'typescript' }), 30)).toBe(a);
  });

  it('moves the character with the input, steps back, and returns its section', () => {
    const sandbox = sandboxWith({ character: { start: [0, 0], speed: 6 } });
    runFixedSteps(sandbox, 30);
    const system = capsulesOf(sandbox);
    const before = system.character!.position[0]!;
    system.input.wishX = 1;
    runFixedSteps(sandbox, 30);
    expect(system.character!.position[0]! - before).toBeGreaterThan(1);
    const saved = sandbox.saveState();
    const x = system.character!.position[0]!;
    sandbox.step(1 / 60);
    expect(system.character!.position[0]).not.toBe(x);
    expect(sandbox.loadState(saved)).toBe(true);
    expect(system.character!.position[0]).toBe(x);
    expect(system.section()).toEqual({
      character: { radius: 0.6, halfHeight: 0.9, speed: 6, jumpSpeed: 9, stepHeight: 0.6, maxSlopeDegrees: 50, start: [0, 0] },
      kernel: 'wasm-simd',
    });
  });

  it('changes settings live: a crowd resize keeps its capsules; a bad value throws naming the field and changes nothing', () => {
    const sandbox = sandboxWith({ ...SECTION, kernel: 'typescript' });
    runFixedSteps(sandbox, 5);
    const system = capsulesOf(sandbox);
    const crowd = system.crowd!;
    const first = crowd.centres.slice(0, 3);
    system.update({ ...system.section(), crowd: { ...SECTION.crowd, count: 200 } });
    expect(system.crowd).toBe(crowd);
    expect(crowd.count).toBe(200);
    expect(crowd.centres.slice(0, 3)).toEqual(first);
    const section = system.section();
    expect(() => system.update({ ...section, crowd: { count: -1 } })).toThrow(/systems\.capsules\.crowd\.count/);
    expect(() => system.update({ ...section, probe: { radius: Number.NaN } })).toThrow(/systems\.capsules\.probe\.radius/);
    expect(system.section()).toEqual(section);
  });

  it('rejects bad sections with the field named, in scene files and through the catalog', () => {
    const bad: [unknown, RegExp][] = [
      [{ probe: { radius: -1 } }, /capsules\.probe\.radius/],
      [{ probe: { enabled: 'yes' } }, /capsules\.probe\.enabled/],
      [{ probe: { size: 3 } }, /unknown field "size"/],
      [{ character: { maxSlopeDegrees: 90 } }, /capsules\.character\.maxSlopeDegrees/],
      [{ character: { start: [1] } }, /capsules\.character\.start/],
      [{ crowd: { count: 2.5 } }, /capsules\.crowd\.count/],
      [{ crowd: { radius: Number.NaN } }, /capsules\.crowd\.radius/],
      [{ kernel: 'gpu' }, /capsules\.kernel/],
      [{ walkers: {} }, /unknown field "walkers"/],
    ];
    const sandbox = sandboxWith({});
    for (const [section, field] of bad) {
      expect(() => parseScene({ name: 'bad', terrain: { cells: 16 }, systems: { capsules: section } }, 'bad.json')).toThrow(field);
      expect(() => createSystem('capsules', section, { world: sandbox, readField })).toThrow(ColliderscopeError);
    }
  });
});

describe('capsule collision filters', () => {
  it('a bad filter in any part throws naming the field and changes nothing; a good one applies live and round-trips', () => {
    const sandbox = sandboxWith({ ...SECTION, kernel: 'typescript' });
    runFixedSteps(sandbox, 3);
    const system = capsulesOf(sandbox);
    const section = system.section();
    const character = system.character!;
    const crowd = system.crowd!;
    const position = character.position.slice();
    for (const bad of [-1, 2 ** 32, 1.5, '8', null, Number.NaN]) {
      for (const part of ['probe', 'character', 'crowd'] as const) {
        expect(() => system.update({ ...section, [part]: { ...section[part], filter: bad } })).toThrow(
          new RegExp(`systems\\.capsules\\.${part}\\.filter`),
        );
      }
    }
    expect(system.section()).toEqual(section);
    expect(system.character).toBe(character);
    expect(system.crowd).toBe(crowd);
    expect(character.position).toEqual(position);
    expect(character.filter).toBe(0xffffffff);

    const noWater = (0xffffffff & ~8) >>> 0;
    system.update({ ...section, character: { ...section.character, filter: noWater }, crowd: { ...section.crowd, filter: 0 } });
    // A filter is no reshape: the same character and crowd, now filtered.
    expect(system.character).toBe(character);
    expect(system.crowd).toBe(crowd);
    expect(character.filter).toBe(noWater);
    expect(crowd.filter).toBe(0);
    expect(system.section().character!.filter).toBe(noWater);
    expect(parseScene({ name: 'f', seed: 1, systems: { capsules: system.section() } }, 'f.json').systems.capsules).toEqual(system.section());
    // Filter 0: the crowd falls through everything, its masked subtrees counted.
    runFixedSteps(sandbox, 2);
    expect(crowd.lastCounters!.hits).toBe(0);
    expect(crowd.lastCounters!.subtreesMasked).toBe(crowd.count);
  });

  it('the character wades: without the bit of the ground it stands on it sinks through it, and starts again when far below', () => {
    const start: [number, number] = [-20, 15];
    const standing = sandboxWith({ character: { start }, kernel: 'typescript' });
    runFixedSteps(standing, 60);
    const ground = capsulesOf(standing).character!;
    expect(ground.grounded).toBe(true);
    // The material under the character, from a sphere dropped there.
    const bvh = standing.bvh!;
    const probe = createCapsuleBatch(1);
    const y = sampleTerrainHeight(standing.terrain, start[0], start[1]);
    probe.start.set([start[0], y + 5, start[1]]);
    probe.end.set([start[0], y + 5, start[1]]);
    probe.radius[0] = 0.1;
    probe.motion.set([0, -10, 0]);
    const hit = createCapsuleHits(1);
    sweepCapsules(bvh, probe, hit);
    const material = bvh.masks.materialIds[hit.triangle[0]!]!;
    const filter = (bvh.masks.materialMasks[material]! ^ 0xffffffff) >>> 0;
    for (const kernel of ['typescript', 'wasm-simd'] as const) {
      const wading = sandboxWith({ character: { start, filter }, kernel });
      const character = capsulesOf(wading).character!;
      let lowest = Infinity;
      for (let step = 0; step < 120; step++) {
        runFixedSteps(wading, 1);
        lowest = Math.min(lowest, character.position[1]!);
      }
      expect(lowest).toBeLessThan(y - 5);
      expect(character.position[1]).toBeGreaterThan(y - 100 - 10);
    }
  });
});
