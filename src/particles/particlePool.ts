import { InvalidParameterError } from '../errors';
import { chunkSizeFor, type ChunkFault } from '../platform/chunkClaims';
import { alignTo } from '../platform/moduleMemory';
import { PooledKernel } from '../platform/pooledKernel';
import { SharedKernelPool, type SharedKernelPoolOptions } from '../platform/sharedKernelPool';
import { growSharedMemoryTo } from '../platform/sharedMemory';
import { MAX_POOL_WORKERS } from '../platform/workerPool';
import { KernelBlocks, type BlockPlaces } from './kernelBlocks';
import type { MoveLists, MoveStep } from './moveParticles';
import { ParticleBuffers } from './particleBuffers';
import {
  CHUNK_ASK,
  CHUNK_ENTRY_BYTES,
  CHUNK_MOVE,
  CHUNK_NET,
  CHUNK_RECORD_BYTES,
  particleChunkRunner,
  type ParticleChunkJob,
  type SharedParticleExports,
} from './particleChunks';
import { residentPlaces, type EffectListEnds, type EffectSlots, type ResidentKernel } from './particleKernel';
import { spawnParticleWorker } from './particlePoolSpawn';
import type { PlaneCache } from './planeCache';

/** Where the compiled shared-memory kernel lands (npm run build:wasm). */
const KERNEL_URL = new URL('../platform/generated/particlesShared.wasm', import.meta.url);
/** The kernel's declared maximum (--maximumMemory in package.json): 1 GiB. */
const KERNEL_MAXIMUM_PAGES = 16384;
/**
 * Slots (moves, scans) and askers (lookups) per chunk, at least and at most; a phase is cut into about
 * CHUNKS_PER_THREAD chunks per thread. A slot costs some 20 ns and an asker some 80, so the smallest
 * chunks are tens of microseconds, well over a claim.
 */
const MIN_CHUNK_SLOTS = 2048;
const MAX_CHUNK_SLOTS = 16384;
const MIN_CHUNK_ASKERS = 512;
const MAX_CHUNK_ASKERS = 4096;
const CHUNKS_PER_THREAD = 8;

/** Thrown by ParticlePool.create where threads cannot share memory or the kernel cannot run. */
export class ParticlePoolUnavailableError extends Error {
  constructor(reason: string) {
    super(`the particle pool cannot run here: ${reason}`);
    this.name = 'ParticlePoolUnavailableError';
  }
}

/** Workers, memory ceiling (default 1 GiB), how workers start (default spawnParticleWorker), straggler wait (src/platform/sharedKernelPool.ts). */
export type ParticlePoolOptions = SharedKernelPoolOptions;

/** The one set of buffers the pool holds, and where its blocks, work areas and chunk table lie. */
interface PoolResident {
  buffers: ParticleBuffers;
  /** The shared memory's buffer the views were made on (caches there are resident too), and its words. */
  buffer: ArrayBufferLike;
  words: Int32Array;
  /** One set of parameter blocks per effect (a job runs every effect's chunks). */
  blocks: KernelBlocks[];
  heights: Float32Array;
  /** Byte range the resident occupies (the next one is placed beside it, never over it). */
  from: number;
  to: number;
  /** Each effect's blocks' addresses. */
  places: BlockPlaces[];
  areas: number;
  areaStride: number;
  table: number;
  records: number;
  maxChunks: number;
}

/** The threads' share of the work since resetBusy(): chunks each thread ran (the calling thread first) and jobs. */
export interface ParticlePoolWork {
  jobs: number;
  /** Jobs the calling thread ran alone (no worker could take part then). */
  jobsAlone: number;
  chunks: number;
  chunksOnCaller: number;
  /** Each thread's busy ms: [0] the calling thread, then the workers in slot order (the last job's slots). */
  busyMs: number[];
  notices: string[];
}

/**
 * The particle kernel (move, cache lookups, the net's scan) on a pool of threads over one shared
 * WebAssembly memory (src/platform/sharedKernelPool.ts): the particle system's buffers, its effects'
 * plane caches and the terrain's heights live in that memory, and each phase of an effect is cut into
 * chunks of consecutive slots (or askers) that every thread — the caller and N workers — claims with an
 * atomic counter and runs with its own instance of the shared-memory build
 * (src/platform/assembly/particles/moveParticlesShared.ts). Past the pool's cursor and thread records:
 *
 *   the resident: buffers | caches | heights | step, ask and net blocks | one work area per thread slot
 *   | chunk table (16 B an entry) | chunk records (32 B each)
 *
 * A move chunk keeps its lists (live, askers, urgent and later) inside its own slots and the scan lists
 * from its first slot; the calling thread then joins the chunks' lists in slot order. Every particle,
 * list and count is bit for bit the single-thread kernel's (SimdParticleKernel), whatever the thread
 * count: the same ResidentKernel calls, the same results. A pool serves one particle system at a time.
 *
 * Faults: a worker lost before or at its claim leaves its chunk to the others, nothing lost. A move is
 * done in place, so a worker killed in the middle of a move chunk would leave that chunk's first
 * particles moved when the calling thread runs the chunk again: they move twice for one step.
 */
export class ParticlePool extends PooledKernel<SharedParticleExports> implements ResidentKernel {
  private resident: PoolResident | null = null;
  private laterScratch = new Int32Array(0);
  /** Tests only: the worker in this slot raises this fault on its next job's first claim. */
  private fault: { slot: number; kind: ChunkFault } | null = null;
  readonly work: ParticlePoolWork = { jobs: 0, jobsAlone: 0, chunks: 0, chunksOnCaller: 0, busyMs: [], notices: [] };

  private constructor(threads: SharedKernelPool<SharedParticleExports>) {
    super(threads);
  }

  /** Loads the kernel and starts the workers. Throws ParticlePoolUnavailableError where threads cannot share memory. */
  static async create(options: Partial<ParticlePoolOptions> = {}): Promise<ParticlePool> {
    const spec = {
      url: KERNEL_URL,
      maximumPages: KERNEL_MAXIMUM_PAGES,
      spawn: spawnParticleWorker,
      unavailable: (reason: string) => new ParticlePoolUnavailableError(reason),
      badParameter: (field: string, expected: string, received: unknown) => new InvalidParameterError(field, expected, received),
    };
    return new ParticlePool(await SharedKernelPool.create<SharedParticleExports>(spec, options));
  }

  /** Threads that run a job now: the live workers and the calling thread. */
  get threadCount(): number {
    return this.threads.workers + 1;
  }

  /** Tests only: the worker in `slot` raises `kind` on the next job's first claim. */
  simulateFault(slot: number, kind: ChunkFault): void {
    this.fault = { slot, kind };
  }

  /** Starts counting the threads' work afresh (ParticlePoolWork). */
  resetWork(): void {
    const work = this.work;
    work.jobs = work.jobsAlone = work.chunks = work.chunksOnCaller = 0;
    work.busyMs.length = 0;
    work.notices.length = 0;
  }

  /**
   * Particle buffers of `capacity` slots in the pool's shared memory, into which `caches` move
   * (PlaneCache.relocate). The pool holds one set at a time: the buffers it held before are no longer
   * resident (they keep their bytes until the next set after this one, so a caller can copy from them).
   */
  createResident(capacity: number, caches: readonly PlaneCache[], heightCount = 0): ParticleBuffers {
    const { memory, kernel, maximumPages } = this.threads;
    const first = alignTo(this.threads.firstFreeByte, 64);
    const atFirst = residentLayout(first, capacity, caches, heightCount, kernel);
    // Beside the set held now, never over it: the caller copies the particles over from it.
    const held = this.resident;
    const layout = held === null || atFirst.to <= held.from ? atFirst : residentLayout(alignTo(held.to, 64), capacity, caches, heightCount, kernel);
    const { places, areas, areaStride, table, records, maxChunks, to } = layout;
    const base = layout.from;
    growSharedMemoryTo(memory, to, maximumPages);
    const buffer = memory.buffer;
    const buffers = new ParticleBuffers(capacity, { buffer, byteOffset: base });
    caches.forEach((cache, k) => cache.relocate({ buffer, byteOffset: places.caches[k]! }));
    const blocks = layout.blocks.map((at) => new KernelBlocks(buffer, at, buffers, places.heights));
    const heights = new Float32Array(buffer, places.heights, heightCount);
    this.resident = {
      buffers,
      buffer,
      words: new Int32Array(buffer),
      blocks,
      heights,
      from: base,
      to,
      places: layout.blocks,
      areas,
      areaStride,
      table,
      records,
      maxChunks,
    };
    if (this.laterScratch.length < capacity) this.laterScratch = new Int32Array(capacity);
    return buffers;
  }

  holds(buffers: ParticleBuffers): boolean {
    return this.resident?.buffers === buffers;
  }

  holdsCache(buffers: ParticleBuffers, cache: PlaneCache): boolean {
    return this.holds(buffers) && this.resident!.buffer === cache.keys.buffer;
  }

  heightRoom(buffers: ParticleBuffers): number {
    return this.holds(buffers) ? this.resident!.heights.length : 0;
  }

  loadHeights(buffers: ParticleBuffers, heights: Float32Array): boolean {
    if (!this.holds(buffers) || this.resident!.heights.length < heights.length) return false;
    this.resident!.heights.set(heights);
    return true;
  }

  /**
   * Every effect's move in one job, each effect's slots cut into chunks; then, effect by effect, the
   * chunks' lists joined in slot order (each chunk listed from its own slots: live and askers from its
   * first slot, the urgent up from its first slot and the later down from its end, as moveSlots does).
   */
  moveEffects(b: ParticleBuffers, effects: readonly EffectSlots[], step: MoveStep, lists: MoveLists, ends: EffectListEnds): boolean {
    if (!this.holds(b)) return false;
    const resident = this.resident!;
    const chunkSize = alignTo(chunkSizeFor(b.capacity, this.threadCount, MIN_CHUNK_SLOTS, MAX_CHUNK_SLOTS, CHUNKS_PER_THREAD), 4);
    let chunks = 0;
    for (let e = 0; e < effects.length; e++) {
      const effect = effects[e]!;
      const end = effect.start + effect.capacity;
      resident.blocks[e]!.writeMove(effect.params, step, effect.start, end, 0);
      chunks = this.writeTable(chunks, CHUNK_MOVE, resident.places[e]!.step, effect.start, end, chunkSize);
    }
    this.runJob(chunks);
    const words = resident.words;
    const { live, askers, needy } = b;
    const later = this.laterScratch;
    const top = later.length;
    let chunk = 0;
    for (let e = 0; e < effects.length; e++) {
      const effect = effects[e]!;
      const start = effect.start;
      const end = start + effect.capacity;
      let askCount = lists.askCount;
      let alive = 0;
      let urgentCount = 0;
      let laterCount = 0;
      let bounces = 0;
      for (let from = start; from < end; from += chunkSize, chunk++) {
        const to = Math.min(from + chunkSize, end);
        const at = this.resultsAt(chunk);
        const askEnd = words[at]!;
        const urgentEnd = words[at + 1]!;
        const laterStart = words[at + 2]!;
        const chunkAlive = words[at + 4]!;
        live.copyWithin(start + alive, from, from + chunkAlive);
        alive += chunkAlive;
        askers.copyWithin(askCount, from, askEnd);
        askCount += askEnd - from;
        // The later list grows down from the effect's end, the lowest slot highest: the first chunk's on
        // top. It is set aside first, as the urgent lists, moved down in place, may cover an earlier one.
        laterCount += to - laterStart;
        copyRange(later, top - laterCount, needy, laterStart, to);
        needy.copyWithin(start + urgentCount, from, urgentEnd);
        urgentCount += urgentEnd - from;
        bounces += words[at + 3]!;
      }
      copyRange(needy, end - laterCount, later, top - laterCount, top);
      lists.askCount = askCount;
      lists.urgentEnd = start + urgentCount;
      lists.laterStart = end - laterCount;
      lists.bounces += bounces;
      lists.alive += alive;
      ends.alive[e] = alive;
      ends.askersEnd[e] = askCount;
      ends.urgentEnd[e] = lists.urgentEnd;
      ends.laterStart[e] = lists.laterStart;
    }
    return true;
  }

  /** Every effect's cache lookups in one job, cut into chunks of askers (each asker writes only its own particle). */
  askEffects(b: ParticleBuffers, effects: readonly EffectSlots[], askersEnd: Int32Array, dt: number): boolean {
    for (const effect of effects) if (!this.holdsCache(b, effect.cache)) return false;
    const resident = this.resident!;
    const total = effects.length === 0 ? 0 : askersEnd[effects.length - 1]!;
    const chunkSize = chunkSizeFor(total, this.threadCount, MIN_CHUNK_ASKERS, MAX_CHUNK_ASKERS, CHUNKS_PER_THREAD);
    let chunks = 0;
    let from = 0;
    for (let e = 0; e < effects.length; e++) {
      const effect = effects[e]!;
      resident.blocks[e]!.writeAsk(from, askersEnd[e]!, effect.cache, effect.params.radius, dt);
      chunks = this.writeTable(chunks, CHUNK_ASK, resident.places[e]!.ask, from, askersEnd[e]!, chunkSize);
      from = askersEnd[e]!;
    }
    this.runJob(chunks);
    const words = resident.words;
    let chunk = 0;
    from = 0;
    for (let e = 0; e < effects.length; e++) {
      const to = askersEnd[e]!;
      let hits = 0;
      for (let first = from; first < to; first += chunkSize, chunk++) hits += words[this.resultsAt(chunk)]!;
      effects[e]!.cache.countLookups(to - from, hits);
      from = to;
    }
    return true;
  }

  /** Every effect's net scan in one job, cut into chunks of slots; the slots found joined in buffers.askers in slot order. */
  findUnderEffects(
    b: ParticleBuffers,
    effects: readonly EffectSlots[],
    cells: number,
    half: number,
    inverseSpacing: number,
    foundEnd: Int32Array,
  ): boolean {
    if (!this.holds(b) || this.resident!.heights.length < (cells + 1) * (cells + 1)) return false;
    const resident = this.resident!;
    const chunkSize = chunkSizeFor(b.capacity, this.threadCount, MIN_CHUNK_SLOTS, MAX_CHUNK_SLOTS, CHUNKS_PER_THREAD);
    let chunks = 0;
    for (let e = 0; e < effects.length; e++) {
      const effect = effects[e]!;
      const end = effect.start + effect.capacity;
      resident.blocks[e]!.writeNet(effect.start, end, cells, half, inverseSpacing);
      chunks = this.writeTable(chunks, CHUNK_NET, resident.places[e]!.net, effect.start, end, chunkSize);
    }
    this.runJob(chunks);
    const words = resident.words;
    const askers = b.askers;
    let found = 0;
    let chunk = 0;
    for (let e = 0; e < effects.length; e++) {
      const effect = effects[e]!;
      const end = effect.start + effect.capacity;
      for (let from = effect.start; from < end; from += chunkSize, chunk++) {
        const count = words[this.resultsAt(chunk)]!;
        askers.copyWithin(found, from, from + count);
        found += count;
      }
      foundEnd[e] = found;
    }
    return true;
  }

  /** The word index of chunk `chunk`'s first result (past its done word) in the shared memory. */
  private resultsAt(chunk: number): number {
    return (this.resident!.records + CHUNK_RECORD_BYTES * chunk + 4) >> 2;
  }

  /** Appends the chunks of [from, to), cut every `chunkSize`, to the chunk table from entry `chunk`; returns the entries in all. */
  private writeTable(chunk: number, kind: number, block: number, from: number, to: number, chunkSize: number): number {
    const resident = this.resident!;
    const chunks = chunk + Math.ceil((to - from) / chunkSize);
    if (chunks > resident.maxChunks) throw new RangeError(`${chunks} chunks for a table of ${resident.maxChunks}`);
    const words = resident.words;
    for (let first = from, at = (resident.table >> 2) + 4 * chunk; first < to; first += chunkSize, at += 4) {
      words[at] = kind;
      words[at + 1] = block;
      words[at + 2] = first;
      words[at + 3] = Math.min(first + chunkSize, to);
    }
    return chunks;
  }

  /**
   * Runs the table's `chunks` chunks on every thread (SharedKernelPool.runNow), or on the calling thread
   * alone when no worker can take part now (none started, or one still finishing an abandoned chunk).
   */
  private runJob(chunks: number): void {
    if (chunks === 0) return;
    const resident = this.resident!;
    const threads = this.threads;
    const job: ParticleChunkJob = {
      count: chunks,
      chunkSize: 1,
      chunkCount: chunks,
      tag: threads.nextTag(),
      cursor: threads.cursor,
      chunks: resident.records,
      recordBytes: CHUNK_RECORD_BYTES,
      threads: threads.threads,
      table: resident.table,
      areas: resident.areas,
      areaStride: resident.areaStride,
    };
    const caller = particleChunkRunner(threads.kernel, job);
    const work = this.work;
    work.jobs++;
    work.chunks += chunks;
    if (threads.workers === 0 || !threads.canRunNow()) {
      const started = performance.now();
      caller.begin(0);
      for (let k = 0; k < chunks; k++) caller.run(k, k + 1, 4 * this.resultsAt(k));
      work.jobsAlone++;
      work.chunksOnCaller += chunks;
      addBusy(work.busyMs, [performance.now() - started]);
      return;
    }
    const fault = this.fault;
    this.fault = null;
    const run = threads.runNow(job, () => undefined, caller, fault);
    work.chunksOnCaller += run.chunksOnCaller;
    addBusy(work.busyMs, threads.busyMs(job, run));
    work.notices.push(...run.notices);
  }
}

/** target[at …] = source[from, to), element by element (no view made). */
function copyRange(target: Int32Array, at: number, source: Int32Array, from: number, to: number): void {
  for (let k = from; k < to; k++) target[at++] = source[k]!;
}

/** Adds one job's busy times to the running sums, thread by thread. */
function addBusy(sums: number[], busy: number[]): void {
  for (let t = 0; t < busy.length; t++) sums[t] = (sums[t] ?? 0) + busy[t]!;
}

/** The most chunks one phase of `capacity` slots in `effects` effects is cut into. */
function maxChunksFor(capacity: number, effects: number): number {
  return Math.ceil(capacity / Math.min(MIN_CHUNK_SLOTS, MIN_CHUNK_ASKERS)) + effects;
}

/** Where a resident placed from `from` puts each of its parts, and where it ends. */
function residentLayout(from: number, capacity: number, caches: readonly PlaneCache[], heightCount: number, kernel: SharedParticleExports) {
  const places = residentPlaces(from, capacity, caches, heightCount);
  const stepBytes = kernel.stepBlockBytes();
  const askBytes = kernel.askBlockBytes();
  const netBytes = kernel.netBlockBytes();
  let at = alignTo(places.end, 64);
  const blocks: BlockPlaces[] = caches.map(() => {
    const step = at;
    const ask = alignTo(step + stepBytes, 64);
    const net = alignTo(ask + askBytes, 64);
    at = alignTo(net + netBytes, 64);
    return { step, stepBytes, ask, askBytes, net, netBytes };
  });
  const areas = at;
  const areaStride = alignTo(kernel.threadAreaBytes(), 64);
  const table = areas + (MAX_POOL_WORKERS + 1) * areaStride;
  const maxChunks = maxChunksFor(capacity, caches.length);
  const records = alignTo(table + CHUNK_ENTRY_BYTES * maxChunks, 64);
  return { from, places, blocks, areas, areaStride, table, maxChunks, records, to: records + CHUNK_RECORD_BYTES * maxChunks };
}
