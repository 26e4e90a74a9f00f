/**
 * What a soak run checks, shared by its Node and browser drivers: NaN anywhere in a state, heap growth
 * between two passes over the same work, and drift of the step time.
 */

/**
 * The path of the first NaN in a value (plain objects, arrays, typed arrays, maps), or '' when there is
 * none. An explicit stack and no inner named functions: the browser driver sends this very function to
 * the page with page.evaluate, so its text must stand alone.
 */
export const firstNaN = (root: unknown, rootPath: string, maxNodes: number): string => {
  const stack: [unknown, string][] = [[root, rootPath]];
  const seen = new Set<unknown>();
  let visited = 0;
  while (stack.length > 0 && visited < maxNodes) {
    const [value, path] = stack.pop()!;
    visited++;
    if (typeof value === 'number') {
      if (Number.isNaN(value)) return path;
      continue;
    }
    if (value === null || typeof value !== 'object' || seen.has(value)) continue;
    seen.add(value);
    if (value instanceof Float32Array || value instanceof Float64Array) {
      for (let i = 0; i < value.length; i++) if (Number.isNaN(value[i])) return `${path}[${i}]`;
      continue;
    }
    if (ArrayBuffer.isView(value)) continue; // integer arrays hold no NaN
    if (value instanceof Map) {
      for (const [key, entry] of value) stack.push([entry, `${path}.get(${String(key)})`]);
      continue;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push([value[i], `${path}[${i}]`]);
      continue;
    }
    for (const [key, entry] of Object.entries(value)) stack.push([entry, `${path}.${key}`]);
  }
  return '';
};

/** One sample of a long run. */
export interface SoakSample {
  /** Seconds since the run started (wall), or the frame for a Node run. */
  at: number;
  /** Heap in use after a full collection, MiB. */
  heapMiB: number;
  /** Median step time over the sample's window, ms. */
  stepMs: number;
  /** What ran (a preset's name, or the phase of the run). */
  label: string;
}

export interface SoakVerdict {
  /** Heap growth from the first pass after warm-up to the last, as a share (0.1 = 10%). */
  heapGrowth: number;
  /** Step-time change over the same passes, as a share. */
  stepDrift: number;
  failures: string[];
}

export const MAX_HEAP_GROWTH = 0.1;
export const MAX_STEP_DRIFT = 0.25;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length === 0 ? NaN : sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * Compares passes over the same work: `passes[k]` holds the samples of pass k (e.g. one cycle through
 * the presets, or one block of frames). Pass 0 is warm-up and is left out; for each label, its lowest
 * heap (after collections, garbage not yet collected only raises it) and its median step time in the
 * first kept pass are compared with the last pass. Fails on growth over MAX_HEAP_GROWTH or drift over
 * MAX_STEP_DRIFT (either way: a step that got much faster means the work changed).
 */
export function judgeSoak(passes: readonly (readonly SoakSample[])[]): SoakVerdict {
  const failures: string[] = [];
  if (passes.length < 3) return { heapGrowth: 0, stepDrift: 0, failures: [`a soak needs 3 passes (1 warm-up), got ${passes.length}`] };
  const first = passes[1]!;
  const last = passes[passes.length - 1]!;
  const labels = [...new Set(first.map((s) => s.label))].filter((label) => last.some((s) => s.label === label));
  if (labels.length === 0) failures.push('the first and last passes share no label');
  let firstHeap = 0;
  let lastHeap = 0;
  const drifts: number[] = [];
  for (const label of labels) {
    const a = first.filter((s) => s.label === label);
    const b = last.filter((s) => s.label === label);
    firstHeap += Math.min(...a.map((s) => s.heapMiB));
    lastHeap += Math.min(...b.map((s) => s.heapMiB));
    const stepA = median(a.map((s) => s.stepMs));
    const stepB = median(b.map((s) => s.stepMs));
    if (stepA > 0) drifts.push(stepB / stepA - 1);
  }
  const heapGrowth = firstHeap > 0 ? lastHeap / firstHeap - 1 : 0;
  const stepDrift = drifts.length === 0 ? 0 : median(drifts);
  if (heapGrowth > MAX_HEAP_GROWTH) failures.push(`heap grew ${(heapGrowth * 100).toFixed(1)}% (limit ${MAX_HEAP_GROWTH * 100}%)`);
  if (Math.abs(stepDrift) > MAX_STEP_DRIFT) failures.push(`step time drifted ${(stepDrift * 100).toFixed(1)}% (limit ±${MAX_STEP_DRIFT * 100}%)`);
  return { heapGrowth, stepDrift, failures };
}
