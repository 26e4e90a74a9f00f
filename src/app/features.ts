import type { AppFeature } from './feature';

/** Every feature of the page, in install order (GUI folders appear in this order). */
export const FEATURES: ReadonlyArray<() => AppFeature> = [];
