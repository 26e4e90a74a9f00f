import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  InvalidParameterError,
  PLANE_NONE,
  Sandbox,
  applyTerrainEdit,
  buildBVH,
  castRays,
  castRaysBruteForce,
  createHeadlessSandbox,
  currentScene,
  generateTerrain,
  loadWasmBuilder,
  loadWasmRefit,
  parseScene,
  type ParticleSystem,
  type RayHits,
  type SceneDefinition,
  type TerrainEdit,
} from '../../../src/core';
import { installSceneSystems } from '../../../src/systems';
import { meshBounds, randomRays } from '../rays/raySets';

const readField = (name: string): string => readFileSync(new URL(`../../../scenes/fields/${name}.vf`, import.meta.url), 'utf8');

const EDITS: TerrainEdit[] = [
  { frame: 0, kind: 'crater', at: [10, -6], radius: 14, amount: 9 },
  { frame: 3, kind: 'raise', at: [-20, 20], radius: 12, amount: 6 },
  { frame: 5, kind: 'smooth', at: [0, 0], radius: 30, amount: 0.7 },
  { frame: 5, kind: 'lower', at: [-40, -40], radius: 20, amount: 25 }, // a corner, far below the terrain's lowest point
];

const sceneWith = (edits: readonly TerrainEdit[], systems: object = {}): SceneDefinition =>
  parseScene({ name: 'blast', seed: 3, terrain: { cells: 32, worldSize: 96, heightScale: 20, edits }, systems }, 'blast.json');

const headless = (scene: SceneDefinition): Sandbox => createHeadlessSandbox(scene, { readField });

/** As headless, keeping `frames` states to step back through. */
function rewindable(scene: SceneDefinition, frames: number): Sandbox {
  const sandbox = new Sandbox(scene, undefined, 120, frames);
  sandbox.setBvh(buildBVH(sandbox.terrain.positions, sandbox.terrain.indices));
  installSceneSystems(sandbox, scene, { world: sandbox, readField });
  return sandbox;
}

/** Rays through the terrain's box: the BVH's closest hits must be brute force's. */
function expectBvhMatchesMesh(sandbox: Sandbox, seed: number): void {
  const { positions, indices } = sandbox.terrain;
  const rays = randomRays(seed, 400, meshBounds(positions));
  const viaTree: RayHits = { t: new Float32Array(rays.count), triangle: new Int32Array(rays.count) };
  const brute: RayHits = { t: new Float32Array(rays.count), triangle: new Int32Array(rays.count) };
  castRays(sandbox.bvh!, rays, viaTree);
  castRaysBruteForce(positions, indices, rays, brute);
  for (let i = 0; i < rays.count; i++) {
    expect(viaTree.triangle[i]! >= 0, `ray ${i}`).toBe(brute.triangle[i]! >= 0);
    if (brute.triangle[i]! >= 0) expect(Math.abs(viaTree.t[i]! - brute.t[i]!), `ray ${i}`).toBeLessThanOrEqual(1e-4 * Math.max(1, brute.t[i]!));
  }
}

beforeAll(async () => {
  await Promise.all([loadWasmBuilder(), loadWasmRefit()]);
});

describe('terrain edits in the sandbox', () => {
  it('applies a scene’s edits at their frames: the terrain is the edits applied in order, and the BVH follows it', () => {
    const sandbox = headless(sceneWith(EDITS));
    const expected = generateTerrain(sandbox.terrain.params);
    const original = expected.heights.slice();
    sandbox.step(1 / 60); // frame 0's crater, before the step
    for (const e of EDITS.slice(0, 1)) applyTerrainEdit(expected, e);
    expect(sandbox.terrain.heights).toEqual(expected.heights);
    expectBvhMatchesMesh(sandbox, 1);
    for (let f = 1; f < 8; f++) sandbox.step(1 / 60);
    for (const e of EDITS.slice(1)) applyTerrainEdit(expected, e);
    expect(sandbox.terrain.heights).toEqual(expected.heights);
    expect(sandbox.terrain.positions).toEqual(expected.positions);
    expect(sandbox.terrain.normals).toEqual(expected.normals);
    expect(sandbox.terrainEdits.appliedCount).toBe(EDITS.length);
    expect(sandbox.lastRefit).not.toBeNull();
    expectBvhMatchesMesh(sandbox, 2);
    expect(sandbox.report().metrics.terrain!.edits).toBe(EDITS.length);
    // Restart goes back to frame 0 with frame 0's crater on, the others undone.
    expect(sandbox.restart()).toBe(true);
    const atStart = generateTerrain(sandbox.terrain.params);
    applyTerrainEdit(atStart, EDITS[0]!);
    expect(sandbox.terrain.heights).toEqual(atStart.heights);
    expect(sandbox.terrain.heights).not.toEqual(original);
    expectBvhMatchesMesh(sandbox, 3);
  });

  it('stepping back past edits then forward again reaches the hash of never going back', () => {
    const systems = { actors: { count: 20 }, boxProbe: { center: [0, 0] } };
    const straight = rewindable(sceneWith(EDITS, systems), 20);
    for (let f = 0; f < 9; f++) straight.step(1 / 60);
    const rewound = rewindable(sceneWith(EDITS, systems), 20);
    for (let f = 0; f < 9; f++) rewound.step(1 / 60);
    for (let back = 0; back < 6; back++) expect(rewound.stepBack()).toBe(true);
    expect(rewound.terrainEdits.appliedCount).toBe(2);
    for (let f = 0; f < 6; f++) rewound.step(1 / 60);
    expect(rewound.hashes()).toEqual(straight.hashes());
  });

  it('an edit made on the frame on screen is recorded: the saved scene replays it to the same hash', () => {
    const systems = { particles: { particles: 3000, budget: 100 } };
    const live = headless(sceneWith([], systems));
    for (let f = 0; f < 4; f++) live.step(1 / 60);
    const before = live.hash();
    const applied = live.deformTerrain({ kind: 'crater', at: [5, 5], radius: 18, amount: 12 })!;
    expect(live.hash()).not.toBe(before);
    // The particles over the crater forgot their planes, and their caches hold nothing of its columns.
    const particles = live.system('particles') as ParticleSystem;
    const { positions, planeSources, lifetimes } = particles.buffers;
    const [minX, minZ, maxX, maxZ] = Array.from(applied.area);
    let over = 0;
    for (let i = 0; i < particles.capacity; i++) {
      const [x, z] = [positions[4 * i]!, positions[4 * i + 2]!];
      if (lifetimes[i] === 0 || x < minX! || x > maxX! || z < minZ! || z > maxZ!) continue;
      over++;
      expect(planeSources[i]).toBe(PLANE_NONE);
    }
    expect(over).toBeGreaterThan(0);
    for (const effect of particles.effects) {
      const cache = effect.cache;
      cache.forEachEntry((slot) => {
        const [ix, , iz] = cache.cellAt(slot);
        const inside = ix >= cache.cellX(minX!) && ix <= cache.cellX(maxX!) && iz >= cache.cellX(minZ!) && iz <= cache.cellX(maxZ!);
        expect(inside).toBe(false);
      });
    }
    expect(live.terrainEdits.edits).toEqual([{ frame: 4, kind: 'crater', at: [5, 5], radius: 18, amount: 12 }]);
    for (let f = 0; f < 4; f++) live.step(1 / 60);
    const saved = currentScene(live, live.scene.camera);
    const replay = headless(parseScene(JSON.parse(JSON.stringify(saved)), 'saved.json'));
    for (let f = 0; f < 8; f++) replay.step(1 / 60);
    expect(replay.hashes()).toEqual(live.hashes());
    expectBvhMatchesMesh(replay, 4);
  });

  it.each([
    [{ radius: 0 }, 'edit.radius'],
    [{ radius: NaN }, 'edit.radius'],
    [{ radius: -4 }, 'edit.radius'],
    [{ at: [1e6, 0] as const }, 'edit.at'],
    [{ amount: Infinity }, 'edit.amount'],
  ])('a bad edit %o is refused naming %s, and changes nothing', (change, field) => {
    const sandbox = headless(sceneWith([]));
    sandbox.step(1 / 60);
    const hash = sandbox.hash();
    const edit = { kind: 'crater' as const, at: [0, 0] as const, radius: 10, amount: 5, ...change };
    expect(() => sandbox.deformTerrain(edit)).toThrow(InvalidParameterError);
    expect(() => sandbox.deformTerrain(edit)).toThrow(field);
    expect(sandbox.hash()).toBe(hash);
    expect(sandbox.terrainEdits.edits).toEqual([]);
    expectBvhMatchesMesh(sandbox, 5);
  });

  it('asks for a rebuild once, when refits degrade the tree past the threshold; the runner swaps a fresh tree in', () => {
    const asking = headless(sceneWith([]));
    let asked = 0;
    asking.onBvhDegraded = () => asked++;
    // Narrow spikes stretch the leaves that hold them; the threshold is lowered so a few suffice.
    asking.rebuildDegradation = 1.01;
    const spikes = [-30, -10, 10, 30].flatMap((x) => [-30, 0, 30].map((z) => [x, z] as const));
    for (const at of spikes) asking.deformTerrain({ kind: 'raise', at, radius: 4, amount: 20 });
    expect(asking.lastRefit!.degradation).toBeGreaterThan(1.01);
    expect(asked).toBe(1);

    const runner = headless(sceneWith([]));
    runner.rebuildDegradation = 1.01;
    const built = runner.bvh;
    for (const at of spikes) runner.deformTerrain({ kind: 'raise', at, radius: 4, amount: 20 });
    expect(runner.bvh).not.toBe(built);
    expect(runner.bvh!.positions).toBe(runner.terrain.positions);
    expectBvhMatchesMesh(runner, 6);
  });
});
