import type { ParticleEffectParams } from './effectParams';
import { emptyMoveConstants, moveConstants, type MoveLists, type MoveStep } from './moveParticles';
import type { ParticleBuffers } from './particleBuffers';
import type { PlaneCache } from './planeCache';

/**
 * The parameter blocks the particle kernels read (src/platform/assembly/particles: moveParticles.ts,
 * askCache.ts and findUnder.ts own the offsets), written the same way by the single-thread kernel
 * (particleKernel.ts, blocks in its module's static data) and the pool (particlePool.ts, blocks in its
 * shared memory).
 */

/** The ask block's layout. */
const ASK_I32 = { from: 0, to: 1, records: 2, mask: 3, positions: 4, velocities: 5, planes: 6, sources: 7, codes: 8, askers: 9 } as const;
const ASK_F64 = { inverseSide: 6, inverseHeight: 7, cellHeight: 8, radius: 9, dt: 10 } as const;

/** The net block's layout. */
const NET_I32 = { start: 0, end: 1, positions: 2, lifetimes: 3, heights: 4, cells: 5, out: 6 } as const;
const NET_F64 = { half: 4, inverseSpacing: 5 } as const;

/** The step block's layout: float64 slots, then int32 slots. */
const F64 = {
  dt: 0,
  gravityStep: 1,
  restSpeed: 2,
  decay: 3,
  half: 4,
  floor: 5,
  negRestitution: 6,
  friction: 7,
  radius: 8,
  lookahead: 9,
  halfDrop: 10,
  inverseSide: 11,
  inverseHeight: 12,
  urgentTime: 13,
  askMargin: 14,
} as const;
const I32 = {
  start: 30,
  end: 31,
  withWind: 32,
  cellLookups: 33,
  surfaceKeys: 34,
  /** The move's results, in the order a pool chunk's record holds them too (moveSlots' five). */
  askCount: 35,
  urgentEnd: 36,
  laterStart: 37,
  bounces: 38,
  alive: 39,
  positions: 40,
  velocities: 41,
  planes: 42,
  colours: 43,
  ages: 44,
  lifetimes: 45,
  sources: 46,
  touching: 47,
  wind: 48,
  cellStamps: 49,
  codes: 50,
  live: 51,
  askers: 52,
  needy: 53,
} as const;

/** Where the blocks lie, and their sizes (the kernel's stepBlockBytes, askBlockBytes, netBlockBytes). */
export interface BlockPlaces {
  step: number;
  stepBytes: number;
  ask: number;
  askBytes: number;
  net: number;
  netBytes: number;
}

/** Views of the three blocks, bound to one set of buffers. */
export class KernelBlocks {
  readonly floats: Float64Array;
  readonly ints: Int32Array;
  readonly askFloats: Float64Array;
  readonly askInts: Int32Array;
  readonly netFloats: Float64Array;
  readonly netInts: Int32Array;
  private readonly constants = emptyMoveConstants();

  /** Blocks at `places` of `buffer`, for `buffers` (in the same buffer) and heights at `heightsAt`; the net lists into the askers' array. */
  constructor(buffer: ArrayBufferLike, places: BlockPlaces, buffers: ParticleBuffers, heightsAt: number) {
    this.floats = new Float64Array(buffer, places.step, places.stepBytes / 8);
    this.ints = new Int32Array(buffer, places.step, places.stepBytes / 4);
    this.askFloats = new Float64Array(buffer, places.ask, places.askBytes / 8);
    this.askInts = new Int32Array(buffer, places.ask, places.askBytes / 4);
    this.netFloats = new Float64Array(buffer, places.net, places.netBytes / 8);
    this.netInts = new Int32Array(buffer, places.net, places.netBytes / 4);
    const base = buffers.byteOffset;
    const layout = buffers.layout;
    const ints = this.ints;
    ints[I32.positions] = base + layout.positions;
    ints[I32.velocities] = base + layout.velocities;
    ints[I32.planes] = base + layout.planes;
    ints[I32.colours] = base + layout.colours;
    ints[I32.ages] = base + layout.ages;
    ints[I32.lifetimes] = base + layout.lifetimes;
    ints[I32.sources] = base + layout.planeSources;
    ints[I32.touching] = base + layout.touching;
    ints[I32.wind] = base + layout.wind;
    ints[I32.cellStamps] = base + layout.cellStamps;
    ints[I32.codes] = base + layout.codes;
    ints[I32.live] = base + layout.live;
    ints[I32.askers] = base + layout.askers;
    ints[I32.needy] = base + layout.needy;
    const askInts = this.askInts;
    askInts[ASK_I32.positions] = base + layout.positions;
    askInts[ASK_I32.velocities] = base + layout.velocities;
    askInts[ASK_I32.planes] = base + layout.planes;
    askInts[ASK_I32.sources] = base + layout.planeSources;
    askInts[ASK_I32.codes] = base + layout.codes;
    askInts[ASK_I32.askers] = base + layout.askers;
    const netInts = this.netInts;
    netInts[NET_I32.positions] = base + layout.positions;
    netInts[NET_I32.lifetimes] = base + layout.lifetimes;
    netInts[NET_I32.heights] = heightsAt;
    // The scan's list is the askers' array: the cache phase, its last reader, is over by then.
    this.askersAt = base + layout.askers;
    netInts[NET_I32.out] = this.askersAt;
  }
  private readonly askersAt: number;

  /** One effect's move: its parameters, slots [start, end) and the askers' count so far. */
  writeMove(p: ParticleEffectParams, step: MoveStep, start: number, end: number, askCount: number): void {
    const { floats, ints } = this;
    const c = moveConstants(p, step, this.constants);
    floats[F64.dt] = step.dt;
    floats[F64.gravityStep] = c.gravityStep;
    floats[F64.restSpeed] = c.restSpeed;
    floats[F64.decay] = c.decay;
    floats[F64.half] = step.half;
    floats[F64.floor] = step.floor;
    floats[F64.negRestitution] = -p.restitution;
    floats[F64.friction] = p.friction;
    floats[F64.radius] = p.radius;
    floats[F64.lookahead] = p.lookahead;
    floats[F64.halfDrop] = c.halfDrop;
    floats[F64.inverseSide] = c.inverseSide;
    floats[F64.inverseHeight] = c.inverseHeight;
    floats[F64.urgentTime] = c.urgentTime;
    floats[F64.askMargin] = c.askMargin;
    ints[I32.start] = start;
    ints[I32.end] = end;
    ints[I32.withWind] = step.withWind ? 1 : 0;
    ints[I32.cellLookups] = step.cellLookups ? 1 : 0;
    ints[I32.surfaceKeys] = step.surfaceKeys ? 1 : 0;
    ints[I32.askCount] = askCount;
  }

  /** The move's results from the step block into `lists`: the list ends replace, bounces and alive add up. */
  readMove(lists: MoveLists): void {
    const ints = this.ints;
    lists.askCount = ints[I32.askCount]!;
    lists.urgentEnd = ints[I32.urgentEnd]!;
    lists.laterStart = ints[I32.laterStart]!;
    lists.bounces += ints[I32.bounces]!;
    lists.alive += ints[I32.alive]!;
  }

  /** One effect's cache lookups: askers [from, to) in `cache`. */
  writeAsk(from: number, to: number, cache: PlaneCache, radius: number, dt: number): void {
    const { askFloats, askInts } = this;
    askInts[ASK_I32.from] = from;
    askInts[ASK_I32.to] = to;
    askInts[ASK_I32.records] = cache.keys.byteOffset;
    askInts[ASK_I32.mask] = cache.capacity - 1;
    askFloats[ASK_F64.inverseSide] = 1 / cache.cellSide;
    askFloats[ASK_F64.inverseHeight] = 1 / cache.cellHeight;
    askFloats[ASK_F64.cellHeight] = cache.cellHeight;
    askFloats[ASK_F64.radius] = radius;
    askFloats[ASK_F64.dt] = dt;
  }

  /** One effect's net scan: slots [start, end) over a grid of `cells` cells a side, listing the slots found in the askers' array from `listFrom`. */
  writeNet(start: number, end: number, cells: number, half: number, inverseSpacing: number, listFrom = 0): void {
    const { netInts, netFloats } = this;
    netInts[NET_I32.out] = this.askersAt + 4 * listFrom;
    netInts[NET_I32.start] = start;
    netInts[NET_I32.end] = end;
    netInts[NET_I32.cells] = cells;
    netFloats[NET_F64.half] = half;
    netFloats[NET_F64.inverseSpacing] = inverseSpacing;
  }
}
