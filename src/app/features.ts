import type { AppFeature } from './feature';
import { BvhFeature } from './features/bvhFeature';
import { CrackFeature } from './features/crackFeature';
import { WindFeature } from './features/windFeature';

/** Every feature of the page, in install order (GUI folders appear in this order). */
export const FEATURES: ReadonlyArray<() => AppFeature> = [() => new BvhFeature(), () => new CrackFeature(), () => new WindFeature()];
