/**
 * The headless runner: loads a scene file, runs the core for N fixed steps without rendering and prints
 * per-phase timings and every subsystem's metrics. The same report serves users, benchmarks and CI.
 *
 *   npm run scene -- scenes/default.json --frames 120 [--dt 0.016666] [--json]
 */
import { ColliderscopeError, createHeadlessSandbox, summarize, loadAllKernels } from '../src/core';
import { registerThreeMeshBVHCaster } from '../src/adapters/three/threeMeshBvhCaster';
import { dirname, resolve } from 'node:path';
import { loadMeshFile, loadSceneFile, readField } from './sceneFiles';

interface RunnerOptions {
  scenePath: string;
  frames: number;
  dt: number;
  json: boolean;
  hash: boolean;
}

const USAGE = 'usage: npm run scene -- <scene.json> [--frames N] [--dt SECONDS] [--json] [--hash]';

function parseArguments(argv: string[]): RunnerOptions {
  let scenePath: string | undefined;
  let frames = 120;
  let dt = 1 / 60;
  let json = false;
  let hash = false;
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i]!;
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined) throw new ColliderscopeError(`${argument} needs a value\n${USAGE}`);
      return next;
    };
    if (argument === '--frames') {
      frames = Number(value());
      if (!Number.isInteger(frames) || frames < 1) throw new ColliderscopeError(`--frames must be a positive integer\n${USAGE}`);
    } else if (argument === '--dt') {
      dt = Number(value());
      if (!(dt > 0 && dt <= 1)) throw new ColliderscopeError(`--dt must be a number of seconds in (0, 1]\n${USAGE}`);
    } else if (argument === '--json') {
      json = true;
    } else if (argument === '--hash') {
      hash = true;
    } else if (argument === '--help' || argument === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (argument.startsWith('--')) {
      throw new ColliderscopeError(`unknown option ${argument}\n${USAGE}`);
    } else if (scenePath === undefined) {
      scenePath = argument;
    } else {
      throw new ColliderscopeError(`one scene at a time (got ${scenePath} and ${argument})\n${USAGE}`);
    }
  }
  if (scenePath === undefined) throw new ColliderscopeError(`no scene file given\n${USAGE}`);
  return { scenePath, frames, dt, json, hash };
}

function run(options: RunnerOptions): void {
  const scene = loadSceneFile(options.scenePath);
  // A scene's terrain.mesh is relative to the scene file's folder.
  const readMesh = (file: string) => loadMeshFile(resolve(dirname(options.scenePath), file));
  const sandbox = createHeadlessSandbox(scene, { readField, readMesh, timingWindow: options.frames });
  for (let frame = 0; frame < options.frames; frame++) sandbox.step(options.dt);

  const phases: Record<string, { median: number; min: number; max: number; mean: number; samples: number }> = {};
  for (const phase of sandbox.timings.phases) {
    const samples = sandbox.timings.window(phase);
    phases[phase] = { ...mapValues(summarize(samples), (v) => round(v, 4)), samples: samples.length };
  }
  const report = {
    scene: scene.name,
    file: options.scenePath,
    frames: options.frames,
    dt: options.dt,
    seed: scene.seed,
    node: process.version,
    phases,
    ...sandbox.report(),
  };
  const hash = sandbox.hash();
  if (options.json) {
    console.log(JSON.stringify({ ...report, hash }, null, 2));
    return;
  }

  console.log(`scene ${scene.name} (${options.scenePath}), ${options.frames} frames of ${round(options.dt * 1000, 3)} ms`);
  console.log('');
  console.log(`${'phase'.padEnd(28)}${'median ms'.padStart(12)}${'min ms'.padStart(12)}${'max ms'.padStart(12)}${'samples'.padStart(9)}`);
  for (const [name, s] of Object.entries(phases)) {
    console.log(
      `${name.padEnd(28)}${s.median.toFixed(3).padStart(12)}${s.min.toFixed(3).padStart(12)}${s.max.toFixed(3).padStart(12)}${String(s.samples).padStart(9)}`,
    );
  }
  console.log('');
  for (const [system, metrics] of Object.entries(report.metrics)) {
    console.log(
      `${system}: ${Object.entries(metrics)
        .map(([k, v]) => `${k}=${v}`)
        .join('  ')}`,
    );
  }
  // Alone on the last line, so scripts can read it: the state after the frames, for the determinism check.
  if (options.hash) console.log(`\nhash ${hash}`);
}

function mapValues<T extends Record<string, number>>(object: T, f: (v: number) => number): T {
  const result = { ...object };
  for (const key of Object.keys(result) as (keyof T)[]) result[key] = f(result[key] as number) as T[keyof T];
  return result;
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

try {
  const options = parseArguments(process.argv.slice(2));
  // As in the page: the WebAssembly SIMD kernels where they load (the systems fall back to TypeScript, and report which ran).
  // As in the page: three-mesh-bvh is there for a ray emitters' strategy B that names it (`"external"`).
  registerThreeMeshBVHCaster();
  await loadAllKernels();
  run(options);
} catch (error) {
  if (error instanceof ColliderscopeError) {
    console.error(`error: ${error.message}`);
    process.exit(2);
  }
  throw error;
}
