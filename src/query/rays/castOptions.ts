import { InvalidParameterError } from '../../errors';
import { BVH_LAYOUTS } from '../../bvh/options';
import { MASK_ALL, checkFilter } from '../../bvh/collisionMasks';
import { DEFAULT_RAY_TRIANGLE_KERNEL, getRayTriangleKernel } from '../rayTriangle/registry';
import { MODE_ALL, MODE_ANY, MODE_CLOSEST, type CastOptions } from './rayTypes';

export const DEFAULT_CAST_OPTIONS: Readonly<CastOptions> = Object.freeze({
  mode: 'closest',
  triangleTest: DEFAULT_RAY_TRIANGLE_KERNEL,
  layout: 'quantized',
  doubleSided: false,
  filter: MASK_ALL,
});

export function resolveCastOptions(input: Partial<CastOptions>): CastOptions {
  const options: CastOptions = { ...DEFAULT_CAST_OPTIONS, ...input };
  if (options.mode !== 'closest' && options.mode !== 'any' && options.mode !== 'all') {
    throw new InvalidParameterError('mode', "'closest', 'any' or 'all'", options.mode);
  }
  getRayTriangleKernel(options.triangleTest, 'triangleTest');
  if (!(BVH_LAYOUTS as readonly string[]).includes(options.layout))
    throw new InvalidParameterError('layout', BVH_LAYOUTS.map((l) => `'${l}'`).join(' or '), options.layout);
  if (typeof options.doubleSided !== 'boolean') throw new InvalidParameterError('doubleSided', 'true or false', options.doubleSided);
  checkFilter(options.filter);
  if (options.mode === 'all' && options.allHits === undefined)
    throw new InvalidParameterError('allHits', "an AllHitsList (createAllHitsList) for mode 'all'", undefined);
  return options;
}

export const modeCode = (mode: CastOptions['mode']): number => (mode === 'closest' ? MODE_CLOSEST : mode === 'any' ? MODE_ANY : MODE_ALL);
