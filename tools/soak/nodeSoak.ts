import {
  KERNELS,
  Random,
  createHeadlessSandbox,
  enableSystem,
  parseScene,
  type Sandbox,
  type SceneDefinition,
  type WindSystem,
} from '../../src/core';
import { readField } from '../sceneFiles';
import { firstNaN, judgeSoak, type SoakSample, type SoakVerdict } from './checks';

/**
 * Every system at once on a small terrain, sized so 100,000 frames take minutes rather than hours: the
 * soak is after leaks, NaN creep and drift, which show with any size.
 */
export const SOAK_SCENE = {
  name: 'soak',
  seed: 7,
  terrain: { kind: 'ridged', cells: 64, worldSize: 256, heightScale: 30, seed: 11 },
  systems: {
    wind: { tracers: 2000 },
    broadphase: { scene: 'orbits', count: 1000 },
    actors: { count: 100, center: [0, 0] },
    particles: { particles: 5000, budget: 100 },
    capsules: { probe: { x: 10, z: -20 }, character: { start: [0, 0] }, crowd: { count: 100 } },
    boxProbe: { center: [10, -10] },
    rayEmitters: { rays: 1000, everyFrame: true, sweep: true, ab: true },
    cracks: { rays: 2000 },
  },
};

export interface NodeSoakOptions {
  frames: number;
  /** Blocks of frames compared with each other (the first is warm-up). */
  passes: number;
  /** Samples per pass. */
  samplesPerPass: number;
  onSample?: (sample: SoakSample, pass: number) => void;
}

export interface NodeSoakResult {
  passes: SoakSample[][];
  verdict: SoakVerdict;
}

const DT = 1 / 60;
const cpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** Heap in use after a full collection (when Node runs with --expose-gc), with array buffers (the kernels' memories). */
function heapMiB(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return (usage.heapUsed + usage.arrayBuffers) / 1048576;
}

/** Where NaN crept into the world, or ''. */
export function nanInWorld(sandbox: Sandbox): string {
  const terrain = firstNaN(sandbox.terrain.positions, 'terrain.positions', 1);
  if (terrain !== '') return terrain;
  for (const system of sandbox.systems) {
    const found = firstNaN(system.saveState?.() ?? null, `${system.name}.state`, 1e7) || firstNaN(system.metrics(), `${system.name}.metrics`, 1e4);
    if (found !== '') return found;
  }
  return '';
}

/**
 * Steps the soak scene `frames` fixed frames in Node. What a user does to a running sandbox happens on
 * the way: a crater every 500 frames (undone at each pass's start, so every pass does the same work),
 * the wind's explosion every 2,000, and each pass runs the TypeScript kernels, then the WebAssembly SIMD ones (the systems made anew).
 * Throws at once, naming where, when NaN appears; the verdict judges heap growth and step drift.
 */
export function nodeSoak(options: NodeSoakOptions, scene: SceneDefinition = parseScene(SOAK_SCENE, 'soak')): NodeSoakResult {
  const sandbox = createHeadlessSandbox(scene, { readField });
  const random = new Random(20261127);
  const framesPerPass = Math.floor(options.frames / options.passes);
  const framesPerSample = Math.max(1, Math.floor(framesPerPass / KERNELS.length / Math.max(1, Math.floor(options.samplesPerPass / KERNELS.length))));
  const half = scene.terrain.worldSize / 2;
  const passes: SoakSample[][] = [];
  let frame = 0;
  for (let pass = 0; pass < options.passes; pass++) {
    sandbox.setTerrainEdits([]);
    const samples: SoakSample[] = [];
    // Each pass runs every kernel for the same share of its frames, so passes compare like for like.
    for (const [part, kernel] of KERNELS.entries()) {
      for (const name of ['particles', 'capsules', 'boxProbe']) {
        const running = sandbox.system(name);
        if (running !== undefined) enableSystem(sandbox, name, { ...running.section(), kernel }, { world: sandbox, readField });
      }
      const frames = Math.floor(framesPerPass / KERNELS.length) + (part === 0 ? framesPerPass % KERNELS.length : 0);
      let windowStart = cpuMs();
      for (let k = 0; k < frames; k++, frame++) {
        if (frame % 500 === 250)
          sandbox.deformTerrain({ kind: 'crater', at: [random.range(-half, half) * 0.8, random.range(-half, half) * 0.8], radius: 8, amount: 4 });
        if (frame % 2000 === 1000) (sandbox.system('wind') as WindSystem | undefined)?.detonate();
        sandbox.step(DT);
        if ((k + 1) % framesPerSample !== 0) continue;
        const stepMs = (cpuMs() - windowStart) / framesPerSample;
        const nan = nanInWorld(sandbox);
        if (nan !== '') throw new Error(`NaN at frame ${frame}: ${nan}`);
        const sample: SoakSample = { at: frame + 1, heapMiB: heapMiB(), stepMs, label: `${kernel} kernels` };
        samples.push(sample);
        options.onSample?.(sample, pass);
        windowStart = cpuMs();
      }
    }
    passes.push(samples);
  }
  return { passes, verdict: judgeSoak(passes) };
}
