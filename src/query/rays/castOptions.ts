import { InvalidParameterError } from '../../errors';
import { BVH_LAYOUTS } from '../../bvh/options';
import { MASK_ALL, checkFilter } from '../../bvh/collisionMasks';
import { KERNELS } from '../../platform/kernels';
import { DEFAULT_RAY_TRIANGLE_KERNEL, getRayTriangleKernel } from '../rayTriangle/registry';
import { MODE_ALL, MODE_ANY, MODE_CLOSEST, RAY_TREES, type CastOptions } from './rayTypes';
import { BINARY_SORTINGS, WIDE_SORTINGS } from './sorting';

/** Batch sizes offered by the sandbox and the benchmark; 0 = one ray at a time, Infinity = all rays. */
export const RAY_BATCH_SIZES = [0, 1, 4, 16, 64, 256, Infinity] as const;

export const DEFAULT_CAST_OPTIONS: Readonly<CastOptions> = Object.freeze({
  kernel: 'typescript',
  tree: '4-way',
  layout: 'quantized',
  sorting: 'tmax',
  batchSize: 0,
  triangles: 'indexed',
  mode: 'closest',
  triangleTest: DEFAULT_RAY_TRIANGLE_KERNEL,
  doubleSided: false,
  filter: MASK_ALL,
});

/**
 * Frozen options objects already resolved: a caller that casts one ray at a time with the same frozen
 * options (the three.js adapter, once per Raycaster call) pays the copying and the checks once.
 */
const resolvedFrozen = new WeakMap<Partial<CastOptions>, CastOptions>();

/**
 * Completes and checks castRays' options (undefined fields take the defaults); throws InvalidParameterError naming the field.
 * For a frozen `input` the result is frozen and remembered.
 */
export function resolveCastOptions(input: Partial<CastOptions>): CastOptions {
  const frozen = Object.isFrozen(input);
  if (frozen) {
    const known = resolvedFrozen.get(input);
    if (known !== undefined) return known;
  }
  const options: CastOptions = { ...DEFAULT_CAST_OPTIONS };
  for (const key of Object.keys(input) as (keyof CastOptions)[]) if (input[key] !== undefined) Object.assign(options, { [key]: input[key] });
  if (input.sorting === undefined && options.tree === 'binary') options.sorting = 'precomputed';
  if (!(KERNELS as readonly string[]).includes(options.kernel))
    throw new InvalidParameterError('kernel', KERNELS.map((k) => `'${k}'`).join(' or '), options.kernel);
  if (!(RAY_TREES as readonly string[]).includes(options.tree)) throw new InvalidParameterError('tree', "'binary' or '4-way'", options.tree);
  if (!(BVH_LAYOUTS as readonly string[]).includes(options.layout))
    throw new InvalidParameterError('layout', BVH_LAYOUTS.map((l) => `'${l}'`).join(' or '), options.layout);
  const sortings: readonly string[] = options.tree === 'binary' ? BINARY_SORTINGS : WIDE_SORTINGS;
  if (!sortings.includes(options.sorting))
    throw new InvalidParameterError('sorting', `for the ${options.tree} tree one of ${sortings.map((s) => `'${s}'`).join(', ')}`, options.sorting);
  const size = options.batchSize;
  if (!(typeof size === 'number' && size >= 0 && (Number.isInteger(size) || size === Infinity)))
    throw new InvalidParameterError('batchSize', 'a whole number ≥ 0 or Infinity', size);
  const aloneBelow = options.aloneBelow;
  if (aloneBelow !== undefined && !(Number.isInteger(aloneBelow) && aloneBelow >= 0))
    throw new InvalidParameterError('aloneBelow', 'a whole number ≥ 0', aloneBelow);
  if (options.triangles !== 'packed' && options.triangles !== 'indexed')
    throw new InvalidParameterError('triangles', "'packed' or 'indexed'", options.triangles);
  if (options.mode !== 'closest' && options.mode !== 'any' && options.mode !== 'all') {
    throw new InvalidParameterError('mode', "'closest', 'any' or 'all'", options.mode);
  }
  getRayTriangleKernel(options.triangleTest, 'triangleTest');
  if (typeof options.doubleSided !== 'boolean') throw new InvalidParameterError('doubleSided', 'true or false', options.doubleSided);
  checkFilter(options.filter);
  if (options.mode === 'all') {
    if (options.allHits === undefined) throw new InvalidParameterError('allHits', "an AllHitsList (createAllHitsList) for mode 'all'", undefined);
    if (!usesReferenceWalk(options))
      throw new InvalidParameterError(
        'mode',
        "'closest' or 'any' with these options (mode 'all' runs on the 4-way tree, sorting 'tmax', batchSize 0, triangles 'indexed')",
        options.mode,
      );
  }
  if (frozen) resolvedFrozen.set(input, Object.freeze(options));
  return options;
}

/**
 * Whether the TypeScript reference walk serves these options (traverseQuantized / traverseFloat, the
 * walk traceRay replays and the only one with mode 'all'); every other combination goes through the
 * strategy walks of castRaysWith.ts.
 */
export const usesReferenceWalk = (options: CastOptions): boolean =>
  options.tree === '4-way' && options.batchSize === 0 && options.sorting === 'tmax' && options.triangles === 'indexed';

export const modeCode = (mode: CastOptions['mode']): number => (mode === 'closest' ? MODE_CLOSEST : mode === 'any' ? MODE_ANY : MODE_ALL);
