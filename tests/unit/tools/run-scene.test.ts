import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SYSTEM_NAMES } from '../../../src/systems';

const ROOT = new URL('../../../', import.meta.url).pathname;
const TSX = join(ROOT, 'node_modules/.bin/tsx');

function runScene(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(TSX, ['tools/run-scene.ts', ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('headless runner (npm run scene)', () => {
  it('runs a scene for N frames and prints per-phase timings and metrics as JSON', () => {
    const output = execFileSync(TSX, ['tools/run-scene.ts', 'scenes/rolling-hills.json', '--frames', '12', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const report = JSON.parse(output) as {
      frames: number;
      frame: number;
      phases: Record<string, { median: number; min: number; max: number; samples: number }>;
      metrics: { terrain: { triangles: number; generationMs: number } };
    };
    expect(report.frames).toBe(12);
    expect(report.frame).toBe(12);
    expect(report.phases.step!.samples).toBe(12);
    expect(report.phases['terrain.generate']!.median).toBeGreaterThan(0);
    expect(report.phases.step!.min).toBeLessThanOrEqual(report.phases.step!.median);
    expect(report.phases.step!.median).toBeLessThanOrEqual(report.phases.step!.max);
    expect(report.metrics.terrain.triangles).toBe(2 * 256 * 256);
  });

  it('runs and reports the systems a scene file asks for', () => {
    const dir = mkdtempSync(join(tmpdir(), 'colliderscope-'));
    const file = join(dir, 'systems.json');
    writeFileSync(
      file,
      JSON.stringify({
        seed: 3,
        terrain: { cells: 32 },
        // Every system of the catalog, small.
        systems: {
          wind: { tracers: 500 },
          broadphase: { strategy: 'sap', count: 256 },
          actors: { count: 12 },
          particles: { particles: 2000, budget: 20, wind: true },
          capsules: { probe: {}, character: {}, crowd: { count: 20 } },
          boxProbe: { halfSize: [6, 4, 6] },
          rayEmitters: { rays: 300, ab: true, a: { tree: '4-way' } },
          cracks: { rays: 1000 },
        },
      }),
    );
    const output = execFileSync(TSX, ['tools/run-scene.ts', file, '--frames', '20', '--json'], { cwd: ROOT, encoding: 'utf8' });
    const report = JSON.parse(output) as { phases: Record<string, unknown>; metrics: Record<string, Record<string, number | string>>; hash: string };
    for (const system of SYSTEM_NAMES) expect(Object.keys(report.metrics)).toContain(system);
    // Each reports the kernel that ran (the wind's back end, the particles' three phases, the emitters' per strategy).
    expect(report.metrics.wind!.kernel).toMatch(/JIT|interpreter/);
    expect(report.metrics.particles!.moveKernel).toBe('wasm-simd');
    expect(report.metrics.capsules!.kernel).toBe('WebAssembly SIMD');
    expect(report.metrics.boxProbe!.kernel).toBe('WebAssembly SIMD');
    expect(report.metrics.rayEmitters!.kernelA).toMatch(/WebAssembly SIMD/);
    expect(report.hash).toMatch(/^[0-9a-f]{16}$/);
    const { stdout } = runScene(file, '--frames', '20', '--hash');
    expect(stdout.trim().split('\n').at(-1)).toBe(`hash ${report.hash}`);
    expect(report.metrics.broadphase!.strategy).toBe('sap');
    expect(report.metrics.broadphase!.boxes).toBe(256);
    expect(report.metrics.particles!.alive).toBeGreaterThan(0);
    expect(report.metrics.particles!.raycasts).toBeLessThanOrEqual(21);
    expect(report.metrics.actors!.actors).toBe(12);
    for (const phase of ['step.broadphase', 'particles.rays', 'step.actors', 'step.capsules', 'step.rayEmitters'])
      expect(Object.keys(report.phases)).toContain(phase);
  });

  it('prints a readable table without --json', () => {
    const { status, stdout } = runScene('scenes/default.json', '--frames', '3');
    expect(status).toBe(0);
    expect(stdout).toMatch(/phase\s+median ms\s+min ms\s+max ms/);
    expect(stdout).toMatch(/terrain: cells=256/);
  });

  it('exits non-zero with the file, field and expectation for an invalid scene', () => {
    const dir = mkdtempSync(join(tmpdir(), 'colliderscope-'));
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ terrain: { cells: 3 } }));
    const { status, stderr } = runScene(file, '--frames', '2');
    expect(status).toBe(2);
    expect(stderr).toContain(`${file}: terrain.cells: expected an integer in [16, 2048], got 3`);
  });

  it('exits non-zero for a missing file and for bad options', () => {
    expect(runScene('scenes/nope.json').stderr).toMatch(/cannot read the scene file/);
    expect(runScene('scenes/default.json', '--frames', '0').status).toBe(2);
    expect(runScene().stderr).toMatch(/no scene file given/);
  });
});
