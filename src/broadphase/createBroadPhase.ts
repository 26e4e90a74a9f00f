import { InvalidParameterError } from '../errors';
import type { BroadPhase } from './broadPhase';
import { BipartiteSapBroadPhase } from './bipartiteSapBroadPhase';
import { BoxPruningBroadPhase } from './boxPruningBroadPhase';
import { BruteForceBroadPhase } from './bruteForce';
import { DynamicTreeBroadPhase } from './dynamicTreeBroadPhase';
import { MultiSapBroadPhase } from './multiSapBroadPhase';
import { RegionPruningBroadPhase } from './regionPruningBroadPhase';
import { SapBroadPhase } from './sapBroadPhase';

/** Every strategy by name; the settings object and the GUI speak these names. */
export const BROAD_PHASE_NAMES = [
  'brute-force',
  'sap',
  'multi-sap',
  'bipartite-sap',
  'box-pruning',
  'box-pruning-coherent',
  'regions',
  'dynamic-tree',
] as const;
export type BroadPhaseName = (typeof BROAD_PHASE_NAMES)[number];

export function createBroadPhase(name: BroadPhaseName): BroadPhase {
  switch (name) {
    case 'brute-force':
      return new BruteForceBroadPhase();
    case 'sap':
      return new SapBroadPhase();
    case 'multi-sap':
      return new MultiSapBroadPhase();
    case 'bipartite-sap':
      return new BipartiteSapBroadPhase();
    case 'box-pruning':
      return new BoxPruningBroadPhase('radix');
    case 'box-pruning-coherent':
      return new BoxPruningBroadPhase('coherent');
    case 'regions':
      return new RegionPruningBroadPhase();
    case 'dynamic-tree':
      return new DynamicTreeBroadPhase();
    default:
      throw new InvalidParameterError('broadPhase', `one of ${BROAD_PHASE_NAMES.join(', ')}`, name);
  }
}

/** A new strategy holding the same boxes as `from` (ids and kinds kept): a live switch without a restart. */
export function switchBroadPhase(from: BroadPhase, name: BroadPhaseName): BroadPhase {
  const to = createBroadPhase(name);
  from.forEachBox((id, box, offset, kind) => to.insert(id, box, kind, offset));
  return to;
}
