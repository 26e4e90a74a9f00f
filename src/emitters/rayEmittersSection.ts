import { MASK_ALL, checkFilter } from '../bvh/collisionMasks';
import { BVH_LAYOUTS, type BVHLayoutName } from '../bvh/options';
import { InvalidParameterError } from '../errors';
import { KERNELS, DEFAULT_KERNEL, type Kernel } from '../platform/kernels';
import { RAY_TREES, type RayTree } from '../query/rays/rayTypes';
import { MAX_EMITTED_RAYS, RAY_EMITTER_KINDS, type RayEmitterKind } from '../query/rays/rayEmitters';
import { BINARY_SORTINGS, WIDE_SORTINGS, type NodeSorting } from '../query/rays/sorting';
import { RAY_TRIANGLE_KERNEL_NAMES, type RayTriangleKernelName } from '../query/rayTriangle/registry';
import { EXTERNAL_RAY_CASTERS, type ExternalRayCasterName } from './externalRayCasters';
import { ColliderscopeError } from '../errors';
import { child, expectBoolean, expectKnownKeys, expectNumber, expectObject, expectOneOf, type Where } from '../scene/validate';

export const LEAF_TRIANGLES = ['packed', 'indexed'] as const;
export type LeafTriangles = (typeof LEAF_TRIANGLES)[number];

/** Rays per batch when batching is on; 'all': the whole emission goes down the tree together. */
export type EmitterBatchSize = number | 'all';

/** One strategy set that traces the emitted rays (strategy A, and B in A/B mode). */
export interface RayEmitterStrategy {
  tree: RayTree;
  layout: BVHLayoutName;
  /** Node sorting; one of BINARY_SORTINGS for the binary tree, WIDE_SORTINGS for the 4-way tree. */
  sorting: NodeSorting;
  /** Off: each ray walks the tree alone; on: `batchSize` rays walk it together. */
  batching: boolean;
  batchSize: EmitterBatchSize;
  triangleTest: RayTriangleKernelName;
  triangles: LeafTriangles;
  /**
   * 'wasm-simd' runs the SIMD kernel where it can (the 4-way quantized tree with the watertight test);
   * elsewhere, or where WebAssembly SIMD is missing, the TypeScript walk runs and the metrics say why.
   */
  kernel: Kernel;
  /**
   * Strategy B only: another library's ray cast (registered from outside the core, see
   * externalRayCasters) runs instead of ours, the fields above ignored. Left out: our walk.
   */
  external?: ExternalRayCasterName;
}

/** The ray emitters' settings, complete: what the system runs with and what section() writes. */
export interface RayEmitterSettings {
  emitter: RayEmitterKind;
  rays: number;
  /** World x and z of the emitter (of the rain's disc centre). */
  x: number;
  z: number;
  /** Above the ground under the emitter (fan, spray) or above the terrain's highest point (rain). */
  height: number;
  /** Fan direction, degrees. */
  yaw: number;
  pitch: number;
  /** Fan: field of view in degrees; spray: cone half-angle in degrees; rain: disc radius. */
  spread: number;
  /** Segment length of each ray; 0: unbounded. */
  segment: number;
  seed: number;
  /** Trace every step, even when nothing changed (to time the trace steadily). */
  everyFrame: boolean;
  /** Turn the fan's yaw with simulated time (SWEEP_DEGREES_PER_SECOND), tracing every step. */
  sweep: boolean;
  /** Also trace the same rays with strategy B and compare. */
  ab: boolean;
  /**
   * Collision filter of both strategies (32 bits): a ray ignores triangles whose material mask misses it
   * (on the terrain bit m is material m: 7 passes through water). MASK_ALL: every triangle counts.
   */
  filter: number;
  a: RayEmitterStrategy;
  b: RayEmitterStrategy;
}

/** The ray emitters' section of a scene file (`systems.rayEmitters`); fields left out take the defaults. */
export type SceneRayEmitters = Partial<Omit<RayEmitterSettings, 'a' | 'b'>> & {
  a?: Partial<RayEmitterStrategy>;
  b?: Partial<RayEmitterStrategy>;
};

export const SWEEP_DEGREES_PER_SECOND = 20;

/**
 * A starts on the binary tree and B on the 4-way tree, so A/B mode compares the two layouts out of the
 * box; both ask for the SIMD kernel, the fastest, which runs wherever the strategy lets it.
 */
export const DEFAULT_RAY_EMITTERS: Readonly<RayEmitterSettings> = Object.freeze({
  emitter: 'fan',
  rays: 10_000,
  x: 0,
  z: 0,
  height: 40,
  yaw: 45,
  pitch: -25,
  spread: 60,
  segment: 0,
  seed: 1,
  everyFrame: false,
  sweep: false,
  ab: false,
  filter: MASK_ALL,
  a: Object.freeze({
    tree: 'binary',
    layout: 'quantized',
    sorting: 'precomputed',
    batching: false,
    batchSize: 256,
    triangleTest: 'watertight',
    triangles: 'packed',
    kernel: DEFAULT_KERNEL,
  }),
  b: Object.freeze({
    tree: '4-way',
    layout: 'quantized',
    sorting: 'tmax',
    batching: true,
    batchSize: 256,
    triangleTest: 'watertight',
    triangles: 'packed',
    kernel: DEFAULT_KERNEL,
  }),
} satisfies RayEmitterSettings);

const FIELDS = [
  'emitter',
  'rays',
  'x',
  'z',
  'height',
  'yaw',
  'pitch',
  'spread',
  'segment',
  'seed',
  'everyFrame',
  'sweep',
  'ab',
  'filter',
  'a',
  'b',
] as const;
const STRATEGY_FIELDS = ['tree', 'layout', 'sorting', 'batching', 'batchSize', 'triangleTest', 'triangles', 'kernel', 'external'] as const;

/** The node sortings a tree offers. */
export function sortingsFor(tree: RayTree): readonly NodeSorting[] {
  return tree === 'binary' ? BINARY_SORTINGS : WIDE_SORTINGS;
}

/** Validates the ray emitters' section: every field typed and in range, unknown fields are errors. */
export function parseRayEmitters(value: unknown, where: Where): SceneRayEmitters {
  const input = expectObject(value, where);
  expectKnownKeys(input, FIELDS, where);
  const result: SceneRayEmitters = {};
  const number = (key: (typeof FIELDS)[number], min: number, max: number, integer = false): number =>
    expectNumber(input[key], child(where, key), min, max, integer);
  if (input.emitter !== undefined) result.emitter = expectOneOf(input.emitter, RAY_EMITTER_KINDS, child(where, 'emitter'));
  if (input.rays !== undefined) result.rays = number('rays', 1, MAX_EMITTED_RAYS, true);
  if (input.x !== undefined) result.x = number('x', -1e6, 1e6);
  if (input.z !== undefined) result.z = number('z', -1e6, 1e6);
  if (input.height !== undefined) result.height = number('height', 0, 10_000);
  if (input.yaw !== undefined) result.yaw = number('yaw', -360, 360);
  if (input.pitch !== undefined) result.pitch = number('pitch', -89, 89);
  if (input.spread !== undefined) result.spread = number('spread', 0, 10_000);
  if (input.segment !== undefined) result.segment = number('segment', 0, 1e6);
  if (input.seed !== undefined) result.seed = number('seed', 0, 0xffffffff, true);
  if (input.everyFrame !== undefined) result.everyFrame = expectBoolean(input.everyFrame, child(where, 'everyFrame'));
  if (input.sweep !== undefined) result.sweep = expectBoolean(input.sweep, child(where, 'sweep'));
  if (input.ab !== undefined) result.ab = expectBoolean(input.ab, child(where, 'ab'));
  if (input.filter !== undefined) result.filter = parseFilter(input.filter, child(where, 'filter'));
  if (input.a !== undefined) result.a = parseStrategy(input.a, child(where, 'a'), DEFAULT_RAY_EMITTERS.a, false);
  if (input.b !== undefined) result.b = parseStrategy(input.b, child(where, 'b'), DEFAULT_RAY_EMITTERS.b, true);
  return result;
}

/** A collision filter checked by checkFilter, its error naming the file and the field. */
function parseFilter(value: unknown, where: Where): number {
  try {
    return checkFilter(value, where.field);
  } catch (error) {
    if (error instanceof InvalidParameterError) throw new InvalidParameterError(where.field, error.expected, error.received, where.file);
    throw error;
  }
}

function parseStrategy(value: unknown, where: Where, defaults: RayEmitterStrategy, mayBeExternal: boolean): Partial<RayEmitterStrategy> {
  const input = expectObject(value, where);
  expectKnownKeys(input, STRATEGY_FIELDS, where);
  const result: Partial<RayEmitterStrategy> = {};
  if (input.tree !== undefined) result.tree = expectOneOf(input.tree, RAY_TREES, child(where, 'tree'));
  if (input.layout !== undefined) result.layout = expectOneOf(input.layout, BVH_LAYOUTS, child(where, 'layout'));
  if (input.sorting !== undefined) {
    // The sorting must suit the tree it walks (the tree given here, or the one it defaults to).
    result.sorting = expectOneOf(input.sorting, sortingsFor(result.tree ?? defaults.tree), child(where, 'sorting'));
  }
  if (input.batching !== undefined) result.batching = expectBoolean(input.batching, child(where, 'batching'));
  if (input.batchSize !== undefined)
    result.batchSize = input.batchSize === 'all' ? 'all' : expectNumber(input.batchSize, child(where, 'batchSize'), 1, MAX_EMITTED_RAYS, true);
  if (input.triangleTest !== undefined)
    result.triangleTest = expectOneOf(input.triangleTest, RAY_TRIANGLE_KERNEL_NAMES, child(where, 'triangleTest'));
  if (input.triangles !== undefined) result.triangles = expectOneOf(input.triangles, LEAF_TRIANGLES, child(where, 'triangles'));
  if (input.kernel !== undefined) result.kernel = expectOneOf(input.kernel, KERNELS, child(where, 'kernel'));
  if (input.external !== undefined) {
    // A is always ours: the determinism hash covers A's hits, whatever B is and wherever it is registered.
    if (!mayBeExternal) throw new ColliderscopeError('only strategy B can be an external ray caster; A is always our walk', child(where, 'external'));
    result.external = expectOneOf(input.external, EXTERNAL_RAY_CASTERS, child(where, 'external'));
  }
  return result;
}

/** A section with its defaults filled in (a strategy's sorting, when left out, defaults by its tree). */
export function resolveRayEmitters(section: SceneRayEmitters): RayEmitterSettings {
  const { a, b, ...rest } = section;
  return {
    ...DEFAULT_RAY_EMITTERS,
    ...rest,
    a: resolveStrategy(a ?? {}, DEFAULT_RAY_EMITTERS.a),
    b: resolveStrategy(b ?? {}, DEFAULT_RAY_EMITTERS.b),
  };
}

function resolveStrategy(given: Partial<RayEmitterStrategy>, defaults: RayEmitterStrategy): RayEmitterStrategy {
  const strategy = { ...defaults, ...given };
  if (given.sorting === undefined && !sortingsFor(strategy.tree).includes(strategy.sorting))
    strategy.sorting = strategy.tree === 'binary' ? 'precomputed' : 'tmax';
  return strategy;
}

/** A strategy's batch size as the walks take it: 0 (one ray at a time) unless batching is on. */
export function batchSizeOf(strategy: RayEmitterStrategy): number {
  return strategy.batching ? (strategy.batchSize === 'all' ? Infinity : strategy.batchSize) : 0;
}
