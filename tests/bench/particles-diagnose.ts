/**
 * Why particles fall through the planes: runs one terrain of the fall-through grid (particles-grid.ts)
 * with the planes alone (the heightfield net off) and, for
 * every life found below the true surface for the first time, records what its plane was at that
 * moment. Prints the shares by effect, plane source and shape of the failure:
 *   planeless      the particle had no plane at all
 *   V / crease     its plane faces away from the ground under it (normals' horizontal parts opposed):
 *                  it slid or flew off its plane's face onto a face the plane passes under
 *   other plane    its plane is below the ground under it, facing the same way: a plane of another
 *                  part of the terrain, extrapolated to where the particle is
 *   through        its plane is above the ground where it is, yet it ended below the ground: it went
 *                  through in this step (the plane was met too late, or the ground rose within a step)
 * and the step length in terrain cells (tunnelling needs steps longer than a cell).
 *
 * Rows go to bench-results/particles-diagnose.json (_report.ts).
 *
 *   npx tsx tests/bench/particles-diagnose.ts [--kind hetero --seed 1337 --height 150 --size 128 --cells 1024]
 *   npx tsx tests/bench/particles-diagnose.ts --quick    smoke run (128 cells, 10k particles, 60 frames)
 */
import { loadSimdParticles, loadSimdRays, type TerrainKind } from '../../src/core';
import { TerrainHeightSampler } from '../../src/particles/terrainHeight';
import { BUDGET, DT, PARTICLES, option, particleWorld, quick } from './_particleBench';
import { BenchReport } from './_report';

const kind = option('kind', 'hetero') as TerrainKind;
const seed = Number(option('seed', '1337'));
const heightScale = Number(option('height', '150'));
const worldSize = Number(option('size', '128'));
const cells = Number(option('cells', quick ? '128' : '1024'));
const SETTLE = Number(option('settle', quick ? '30' : '240'));
const FRAMES = Number(option('frames', quick ? '30' : '360'));
const SOURCES = ['none', 'ray', 'cache', 'contact', 'far'];

async function main(): Promise<void> {
  await loadSimdRays();
  await loadSimdParticles();
  const { sandbox, system } = particleWorld('diagnose', { kind, seed, heightScale, worldSize, cells }, { heightfieldNet: false });
  const terrain = sandbox.terrain;
  const sampler = new TerrainHeightSampler(terrain);
  const spacing = worldSize / cells;
  const heights = terrain.heights;
  const side = cells + 1;
  const half = worldSize / 2;
  // The ground's unnormalized upward normal (−∂h/∂x, 1, −∂h/∂z) at x, z.
  const slope = (x: number, z: number): [number, number] => {
    const gx = (x + half) / spacing,
      gz = (z + half) / spacing;
    const col = Math.min(Math.floor(gx), cells - 1),
      row = Math.min(Math.floor(gz), cells - 1);
    const u = gx - col,
      v = gz - row;
    const i = row * side + col;
    const ha = heights[i]!,
      hb = heights[i + 1]!,
      hc = heights[i + side]!,
      hd = heights[i + side + 1]!;
    return u + v <= 1 ? [(hb - ha) / spacing, (hc - ha) / spacing] : [(hd - hc) / spacing, (hd - hb) / spacing];
  };
  for (let frame = 0; frame < SETTLE; frame++) sandbox.step(DT);
  system.resetTotals();
  const capacity = system.capacity;
  const before = new Float32Array(4 * capacity);
  const fellBefore = new Uint8Array(capacity);
  const sourceBefore = new Uint8Array(capacity);
  const touchingBefore = new Uint8Array(capacity);
  const counts = new Map<string, number>();
  const add = (key: string): void => void counts.set(key, (counts.get(key) ?? 0) + 1);
  const stepCells: number[] = [];
  const planeErrors: number[] = [];
  let events = 0;
  for (let frame = 0; frame < FRAMES; frame++) {
    let b = system.buffers;
    before.set(b.positions);
    fellBefore.set(b.fellThrough);
    sourceBefore.set(b.planeSources);
    touchingBefore.set(b.touching);
    sandbox.step(DT);
    b = system.buffers;
    for (const effect of system.effects) {
      const end = effect.start + effect.capacity;
      for (let i = effect.start; i < end; i++) {
        if (b.fellThrough[i] !== 1 || fellBefore[i] === 1 || b.lifetimes[i] === 0) continue;
        events++;
        const i4 = 4 * i;
        const x = b.positions[i4]!,
          y = b.positions[i4 + 1]!,
          z = b.positions[i4 + 2]!;
        const step = Math.hypot(x - before[i4]!, z - before[i4 + 2]!) / spacing;
        stepCells.push(step);
        const ground = sampler.heightAt(x, z);
        const [sx, sz] = slope(x, z);
        const nx = b.planes[i4]!,
          ny = b.planes[i4 + 1]!,
          nz = b.planes[i4 + 2]!,
          d = b.planes[i4 + 3]!;
        const source = SOURCES[sourceBefore[i]!]!;
        let shape: string;
        if (sourceBefore[i] === 0 || ny <= 0) shape = 'planeless';
        else {
          const planeY = (d - nx * x - nz * z) / ny;
          planeErrors.push(ground - planeY);
          // Ground normal's horizontal part is (−sx, −sz); the plane's is (nx, nz).
          const opposed = -sx * nx - sz * nz < 0 && Math.hypot(nx, nz) > 0.05 && Math.hypot(sx, sz) > 0.05;
          shape = planeY >= ground - 1e-3 ? 'through' : opposed ? 'V / crease' : 'other plane';
        }
        add(`effect ${effect.params.kind}`);
        add(`source ${source}`);
        add(`shape ${shape}`);
        add(`shape ${shape} · ${touchingBefore[i] ? 'was touching' : 'in flight'}`);
        add(`steps ${step > 1 ? '> 1 cell' : '≤ 1 cell'}`);
        void y;
      }
    }
  }
  const t = system.totals;
  console.log(
    `${kind} seed ${seed} h${heightScale} w${worldSize} c${cells} (cell ${spacing.toFixed(3)} m): ${t.lives} lives, ${t.fellThroughLives} fell (${((100 * t.fellThroughLives) / t.lives).toFixed(2)}%), ${events} events seen`,
  );
  for (const [key, n] of [...counts].sort()) console.log(`  ${key.padEnd(36)} ${String(n).padStart(7)}  ${((100 * n) / events).toFixed(1)}%`);
  const q = (values: number[], p: number): number => [...values].sort((a, b) => a - b)[Math.floor(p * (values.length - 1))] ?? NaN;
  console.log(`  step length, cells: median ${q(stepCells, 0.5).toFixed(2)}, p90 ${q(stepCells, 0.9).toFixed(2)}, max ${q(stepCells, 1).toFixed(2)}`);
  console.log(`  ground − plane at the particle, m: median ${q(planeErrors, 0.5).toFixed(3)}, p90 ${q(planeErrors, 0.9).toFixed(3)}`);
  const report = new BenchReport(import.meta.url, {
    kind,
    seed,
    heightScale,
    worldSize,
    cells,
    particles: PARTICLES,
    budget: BUDGET,
    settle: SETTLE,
    frames: FRAMES,
  });
  report.addQuality({
    name: `${kind} seed ${seed} h${heightScale} ${worldSize} m ${cells} cells`,
    lives: t.lives,
    fell: t.fellThroughLives / t.lives,
    events,
    shares: Object.fromEntries([...counts].map(([key, n]) => [key, n / events])),
    stepCellsMedian: q(stepCells, 0.5),
    planeErrorMedian: q(planeErrors, 0.5),
  });
  report.finish();
}

void main();
