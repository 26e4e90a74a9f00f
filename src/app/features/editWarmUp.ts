import { applyTerrainEdit, buildBVH, generateTerrain, prepareRefit, refitBVH, terrainMaterialInput, TERRAIN_BUILDER } from '../../core';

/** Craters the warm-up blasts, one per idle moment, and the side of its terrain in cells. */
const WARM_UP_CRATERS = 24;
const WARM_UP_CELLS = 48;

/**
 * The first craters after the page loads run the edit and the partial refit cold: on 524k triangles the
 * first four took 30, 16, 11 and 9 ms of CPU in Node where warm ones take 1–3 ms. So once a terrain is
 * on screen, the page blasts craters into a small terrain of its own (never shown, never recorded)
 * while it is idle, one per idle callback, so the user's first blast runs optimised code.
 */
export function warmUpTerrainEditsWhenIdle(): void {
  let state: { terrain: ReturnType<typeof generateTerrain>; bvh: ReturnType<typeof buildBVH> } | null = null;
  let left = WARM_UP_CRATERS;
  const next = (): void => {
    if (left-- <= 0) return;
    if (state === null) {
      const terrain = generateTerrain({ cells: WARM_UP_CELLS, seed: 7 });
      const bvh = buildBVH(terrain.positions, terrain.indices, { builder: TERRAIN_BUILDER }, terrainMaterialInput(terrain));
      prepareRefit(bvh);
      state = { terrain, bvh };
    }
    const { terrain, bvh } = state;
    const size = terrain.params.worldSize;
    // Spread over the terrain and alternately deep, so refits both stay inside their boxes and widen them.
    const at: [number, number] = [(((left * 7) % 10) / 10 - 0.45) * size, (((left * 3) % 10) / 10 - 0.45) * size];
    const applied = applyTerrainEdit(terrain, {
      frame: 0,
      kind: left % 3 === 0 ? 'raise' : 'crater',
      at,
      radius: size / 12,
      amount: (1 + (left % 4)) * 2,
    });
    if (applied !== null) refitBVH(bvh, applied.triangles, applied.triangles.length);
    whenIdle(next);
  };
  whenIdle(next);
}

function whenIdle(callback: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(callback, { timeout: 2000 });
  else setTimeout(callback, 50);
}
