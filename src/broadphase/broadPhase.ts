/**
 * The one interface every broad-phase strategy implements, and the types it speaks.
 *
 * Contract (the brute-force reference defines it, the tests hold every strategy to it):
 * - A box is six numbers `minX, minY, minZ, maxX, maxY, maxZ`, closed: boxes that only touch overlap.
 *   Boxes are stored in float32, rounded outward (a stored box always contains the given one), and all
 *   overlap decisions are made exactly on the stored values.
 * - Ids are the caller's: integers in [0, MAX_BROAD_PHASE_ID). They stay valid until removed; an id can be
 *   inserted again after removal (even before the next step). Storage grows with the largest id.
 * - Pairs of two static boxes are never reported; every other overlapping pair is, once, as (a, b) with a < b.
 * - `step()` returns the overlapping pairs after all the inserts, updates and removes since the last step,
 *   and the pairs created and deleted since then, as set differences of id pairs: a pair whose box was
 *   removed and inserted again and still overlaps is neither created nor deleted.
 * - The returned lists belong to the broad-phase and are valid until the next call that changes it.
 */

export type BodyKind = 'static' | 'dynamic';

/** Kind codes stored per id: 0 means absent. Static–static is the only pair never reported. */
export const KIND_NONE = 0;
export const KIND_STATIC = 1;
export const KIND_DYNAMIC = 2;

/** Ids index flat arrays, so they are bounded; 2^24 boxes is far past what a frame can handle. */
export const MAX_BROAD_PHASE_ID = 1 << 24;

/** A list of id pairs, structure of arrays: pair i is (a[i], b[i]) with a[i] < b[i]. */
export interface PairList {
  readonly count: number;
  readonly a: Uint32Array;
  readonly b: Uint32Array;
}

export interface BroadPhaseStep {
  readonly pairs: PairList;
  readonly created: PairList;
  readonly deleted: PairList;
}

/** Six numbers per box, `minX, minY, minZ, maxX, maxY, maxZ`, starting at an offset. */
export type BoxSource = ArrayLike<number>;

export interface BroadPhase {
  readonly name: string;
  /** Live boxes. */
  readonly size: number;
  insert(id: number, box: BoxSource, kind: BodyKind, offset?: number): void;
  update(id: number, box: BoxSource, offset?: number): void;
  remove(id: number): void;
  has(id: number): boolean;
  kindOf(id: number): BodyKind | null;
  step(): BroadPhaseStep;
  /** Calls `visit` with every live box as stored (float32, rounded outward) — used to carry state over. */
  forEachBox(visit: (id: number, box: Float32Array, offset: number, kind: BodyKind) => void): void;
  /** The strategy's own work counters for the last step (swaps, cells, tree height...). */
  counters(): Readonly<Record<string, number>>;
}
