import { beforeAll, describe, expect, it } from 'vitest';
import {
  BoxProbeSystem,
  ColliderscopeError,
  Sandbox,
  buildBVH,
  createBoxOverlapList,
  createHeadlessSandbox,
  createSystem,
  currentScene,
  isOverlapExit,
  loadSimdBoxTriangles,
  overlapBoxes,
  overlapBoxesBruteForce,
  parseScene,
  runFixedSteps,
  sampleTerrainHeight,
  type BoxOverlapList,
  type SceneBoxProbe,
} from '../../../src/core';
import { readField } from '../../../tools/sceneFiles';

const TERRAIN = { seed: 11, kind: 'fbm', cells: 40, worldSize: 160, heightScale: 18 };

function sandboxWith(boxProbe: SceneBoxProbe, seed = 5): Sandbox {
  return createHeadlessSandbox(parseScene({ name: 'box probe', seed, terrain: TERRAIN, systems: { boxProbe } }), { readField });
}

function probeOf(sandbox: Sandbox): BoxProbeSystem {
  const system = sandbox.system('boxProbe');
  if (!(system instanceof BoxProbeSystem)) throw new Error('no box probe running');
  return system;
}

/** The overlapping triangle ids of a list, ascending. */
function overlapIds(list: BoxOverlapList): number[] {
  const ids: number[] = [];
  for (let i = 0; i < list.count; i++) if (isOverlapExit(list.exit[i]!)) ids.push(list.triangle[i]!);
  return ids.sort((a, b) => a - b);
}

const probed = (probe: BoxProbeSystem): number[] => [...probe.overlapping.subarray(0, probe.overlapCount)];

/** Axis-aligned, yawed, tilted, above the ground, half buried, flat: each named by what it tries. */
const BOXES: [string, SceneBoxProbe][] = [
  ['axis-aligned at the centre', { kernel: 'typescript' }],
  ['yawed 30° and tilted 12°, off centre', { center: [21.5, -14], lift: 3, halfSize: [18, 5, 9], yaw: 30, tilt: 12, kernel: 'typescript' }],
  ['large, yawed -70°, v1', { center: [-40, 30], halfSize: [35, 20, 12], yaw: -70, test: 'v1', kernel: 'typescript' }],
  ['flat (half-size y 0), v2', { center: [5, 5], halfSize: [10, 0, 10], test: 'v2', kernel: 'typescript' }],
  ['at the edge of the world, rejected kept', { center: [80, -80], halfSize: [6, 30, 6], includeRejected: true, kernel: 'typescript' }],
];

beforeAll(async () => {
  expect(await loadSimdBoxTriangles()).not.toBeNull();
});

describe('the box probe system', () => {
  it.each(BOXES)('%s (scene seed 5, terrain seed 11): the same triangles as a direct query and a brute force', (_name, section) => {
    const sandbox = sandboxWith(section);
    const probe = probeOf(sandbox);
    sandbox.step(1 / 60);
    const s = probe.settings;
    // Placed on the ground under its centre, plus the lift.
    expect(probe.boxes.centers[1]).toBeCloseTo(sampleTerrainHeight(sandbox.terrain, s.center[0], s.center[1]) + s.lift, 4);
    expect(probe.counters?.invalid).toBe(0);

    const direct = createBoxOverlapList(1 << 16);
    overlapBoxes(sandbox.bvh!, probe.boxes, direct, { test: s.test });
    const brute = createBoxOverlapList(1 << 16);
    const { positions, indices } = sandbox.terrain;
    overlapBoxesBruteForce(positions, indices, probe.boxes, brute, { test: s.test });
    expect(probed(probe)).toEqual(overlapIds(direct));
    expect(probed(probe)).toEqual(overlapIds(brute));
    expect(probe.metrics()).toMatchObject({ kernel: 'TypeScript', test: s.test, overlaps: probe.overlapCount });
    if (s.includeRejected) expect(probe.list.count).toBeGreaterThan(probe.overlapCount);
  });

  it('finds triangles at all: the default box on the ground overlaps some and not all', () => {
    const sandbox = sandboxWith({});
    sandbox.step(1 / 60);
    const probe = probeOf(sandbox);
    expect(probe.overlapCount).toBeGreaterThan(10);
    expect(probe.overlapCount).toBeLessThan(sandbox.terrain.indices.length / 3);
  });

  it.each(BOXES)('%s: typescript and wasm-simd give the same triangles and the same hash', (_name, section) => {
    const typescript = sandboxWith({ ...section, kernel: 'typescript' });
    const simd = sandboxWith({ ...section, kernel: 'wasm-simd' });
    const hashes = [runFixedSteps(typescript, 3), runFixedSteps(simd, 3)];
    expect(probed(probeOf(simd))).toEqual(probed(probeOf(typescript)));
    expect(hashes[1]).toBe(hashes[0]);
    expect(probeOf(simd).metrics()).toMatchObject({ kernel: 'WebAssembly SIMD', test: 'wasm-simd' });
    expect(probeOf(typescript).metrics()).toMatchObject({ kernel: 'TypeScript' });
  });

  it('the kernel defaults to wasm-simd, and a moved box changes the hash', () => {
    const first = sandboxWith({ center: [10, 10] });
    const hash = runFixedSteps(first, 2);
    expect(probeOf(first).section().kernel).toBe('wasm-simd');
    expect(probeOf(first).ran).toBe('wasm-simd');
    expect(runFixedSteps(sandboxWith({ center: [10, 10] }), 2)).toBe(hash);
    expect(runFixedSteps(sandboxWith({ center: [10, 10.5] }), 2)).not.toBe(hash);
  });

  it('queries again only when its settings change', () => {
    const sandbox = sandboxWith({ kernel: 'typescript' });
    const probe = probeOf(sandbox);
    for (let i = 0; i < 5; i++) sandbox.step(1 / 60);
    expect(probe.queries).toBe(1);
    const before = probed(probe);
    probe.configure({ halfSize: [30, 8, 30] });
    expect(probe.update(sandbox)).toBe(true);
    expect(probe.update(sandbox)).toBe(false);
    sandbox.step(1 / 60);
    expect(probe.queries).toBe(2);
    expect(probe.overlapCount).toBeGreaterThan(before.length);
  });

  it('a filter keeps only the triangles whose material it names; 0 keeps none', () => {
    const sandbox = sandboxWith({ kernel: 'typescript', halfSize: [60, 30, 60] });
    const probe = probeOf(sandbox);
    sandbox.step(1 / 60);
    const all = probed(probe);
    const masks = sandbox.bvh!.masks;
    const materialsSeen = new Set(all.map((t) => masks.materialIds[t]!));
    expect(materialsSeen.size).toBeGreaterThan(1);
    const one = [...materialsSeen][0]!;
    probe.configure({ filter: masks.materialMasks[one]! });
    probe.update(sandbox);
    expect(probed(probe)).toEqual(all.filter((t) => (masks.materialMasks[masks.materialIds[t]!]! & masks.materialMasks[one]!) !== 0));
    expect(probe.metrics()).toMatchObject({ filter: masks.materialMasks[one] });
    probe.configure({ filter: 0 });
    probe.update(sandbox);
    expect(probe.overlapCount).toBe(0);
    expect(probe.counters?.subtreesMasked).toBe(1);
  });

  it('waits for the BVH, then queries', () => {
    const scene = parseScene({ name: 'no bvh', seed: 5, terrain: TERRAIN });
    const sandbox = new Sandbox(scene);
    const probe = createSystem('boxProbe', { kernel: 'typescript' }, { world: sandbox, readField });
    if (!(probe instanceof BoxProbeSystem)) throw new Error('not a box probe');
    sandbox.addSystem(probe);
    sandbox.step(1 / 60);
    expect(probe.counters).toBeNull();
    const reference = sandboxWith({ kernel: 'typescript' });
    reference.step(1 / 60);
    sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
    sandbox.step(1 / 60);
    expect(probed(probe)).toEqual(probed(probeOf(reference)));
  });

  it('saves its section, and the saved scene reproduces the hash', () => {
    const section: SceneBoxProbe = {
      center: [-12, 7],
      lift: -2,
      halfSize: [9, 4, 14],
      yaw: 15,
      tilt: -20,
      test: 'v1',
      kernel: 'typescript',
      includeRejected: true,
      filter: 0x7,
    };
    const sandbox = sandboxWith(section);
    const hash = runFixedSteps(sandbox, 4);
    expect(probeOf(sandbox).section()).toEqual(section);
    const saved = currentScene(sandbox, { position: [0, 100, 100], target: [0, 0, 0], fov: 50 });
    expect(runFixedSteps(createHeadlessSandbox(parseScene(JSON.parse(JSON.stringify(saved))), { readField }), 4)).toBe(hash);
  });

  it.each([
    [{ halfSize: [1, -1, 1] }, 'systems.boxProbe.halfSize[1]'],
    [{ halfSize: [1, 1] }, 'systems.boxProbe.halfSize'],
    [{ center: [0, Number.NaN] }, 'systems.boxProbe.center[1]'],
    [{ yaw: 400 }, 'systems.boxProbe.yaw'],
    [{ test: 'wasm-simd' }, 'systems.boxProbe.test'],
    [{ kernel: 'simd' }, 'systems.boxProbe.kernel'],
    [{ includeRejected: 'yes' }, 'systems.boxProbe.includeRejected'],
    [{ filter: -1 }, 'systems.boxProbe.filter'],
    [{ filter: 1.5 }, 'systems.boxProbe.filter'],
    [{ filter: 2 ** 32 }, 'systems.boxProbe.filter'],
    [{ size: 3 }, 'systems.boxProbe.size'],
  ])('rejects %j naming %s', (section, field) => {
    expect(() => parseScene({ terrain: TERRAIN, systems: { boxProbe: section } }, 'probe.json')).toThrow(
      new RegExp(`^probe\\.json: ${field.replace(/[.[\]]/g, '\\$&')}: `),
    );
    const sandbox = sandboxWith({ kernel: 'typescript' });
    expect(() => createSystem('boxProbe', section, { world: sandbox, readField })).toThrow(ColliderscopeError);
    // A bad change leaves the running probe as it was.
    const probe = probeOf(sandbox);
    const before = probe.section();
    expect(() => probe.configure(section as SceneBoxProbe)).toThrow(field);
    expect(probe.section()).toEqual(before);
  });
});
