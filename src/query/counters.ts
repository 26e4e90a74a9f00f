/**
 * The work of one query call, the same fields for every query (rays, segments, capsules, boxes, the
 * actors' triangle-box query, particles' raycasts), so the HUD, the recorder and the runner show them
 * one way. A query adds its own details beside these (the capsule's feature pairs, for instance).
 */
export interface QueryCounters {
  /** Rays, capsules or boxes asked for, including invalid ones. */
  queries: number;
  /** Queries skipped as invalid (NaN or infinite numbers, zero directions…), flagged in the results. */
  invalid: number;
  /** Tree nodes entered (a node reached by several members of a batch counts once). */
  nodesVisited: number;
  /** Child boxes tested against a query (four per node for a 4-wide test). */
  boxesTested: number;
  /** Leaf ranges whose triangles were looked at. */
  leavesVisited: number;
  /** Exact triangle tests. */
  trianglesTested: number;
  /** Triangles rejected by a cheap cull before the exact test (planes, projections). */
  culled: number;
  /** Hits, contacts or overlaps found. */
  hits: number;
  /** Subtrees cut because no triangle below them passes the collision filter. */
  subtreesMasked: number;
  /** Triangles in reached leaves skipped because their mask misses the filter. */
  trianglesMasked: number;
}

export const QUERY_COUNTER_NAMES = [
  'queries',
  'invalid',
  'nodesVisited',
  'boxesTested',
  'leavesVisited',
  'trianglesTested',
  'culled',
  'hits',
  'subtreesMasked',
  'trianglesMasked',
] as const satisfies readonly (keyof QueryCounters)[];

export function createQueryCounters(): QueryCounters {
  return {
    queries: 0,
    invalid: 0,
    nodesVisited: 0,
    boxesTested: 0,
    leavesVisited: 0,
    trianglesTested: 0,
    culled: 0,
    hits: 0,
    subtreesMasked: 0,
    trianglesMasked: 0,
  };
}

export function resetQueryCounters(counters: QueryCounters): void {
  for (const name of QUERY_COUNTER_NAMES) counters[name] = 0;
}

export function addQueryCounters(into: QueryCounters, from: QueryCounters): void {
  for (const name of QUERY_COUNTER_NAMES) into[name] += from[name];
}

const SHORT_NAMES: Readonly<Record<keyof QueryCounters, string>> = {
  queries: 'queries',
  invalid: 'invalid',
  nodesVisited: 'nodes',
  boxesTested: 'boxes',
  leavesVisited: 'leaves',
  trianglesTested: 'tris',
  culled: 'culled',
  hits: 'hits',
  subtreesMasked: 'masked subtrees',
  trianglesMasked: 'masked tris',
};

/**
 * One short line for the HUD and the runner: `nodes 1.2k · tris 3.4k · hits 100`, per query when
 * `perQuery` (the counts divided by the valid queries), zero counts left out except nodes and hits.
 */
export function formatQueryCounters(counters: QueryCounters, perQuery = false): string {
  const valid = counters.queries - counters.invalid;
  const scale = perQuery && valid > 0 ? 1 / valid : 1;
  const parts: string[] = [];
  for (const name of QUERY_COUNTER_NAMES) {
    if (name === 'queries') continue;
    const value = name === 'invalid' ? counters[name] : counters[name] * scale;
    if (value === 0 && name !== 'nodesVisited' && name !== 'hits') continue;
    parts.push(`${SHORT_NAMES[name]} ${compact(value)}`);
  }
  return parts.join(' · ');
}

function compact(value: number): string {
  const magnitude = Math.abs(value);
  if (magnitude >= 1e6) return `${(value / 1e6).toFixed(magnitude >= 1e7 ? 0 : 1)}M`;
  if (magnitude >= 1e4) return `${(value / 1e3).toFixed(magnitude >= 1e5 ? 0 : 1)}k`;
  if (Number.isInteger(value)) return String(value);
  return value.toFixed(magnitude >= 10 ? 1 : 2);
}

/** Counters of a ray or segment batch from its walk's tallies: hits counted from the results. */
export function rayBatchCounters(
  walk: {
    nodesVisited: number;
    boxesTested: number;
    trianglesTested: number;
    leavesVisited?: number;
    subtreesMasked?: number;
    trianglesMasked?: number;
  },
  queries: number,
  invalid: number,
  hitTriangles: Int32Array,
): QueryCounters {
  let hits = 0;
  for (let i = 0; i < queries; i++) if (hitTriangles[i]! >= 0) hits++;
  return {
    queries,
    invalid,
    nodesVisited: walk.nodesVisited,
    boxesTested: walk.boxesTested,
    leavesVisited: walk.leavesVisited ?? 0,
    trianglesTested: walk.trianglesTested,
    culled: 0,
    hits,
    subtreesMasked: walk.subtreesMasked ?? 0,
    trianglesMasked: walk.trianglesMasked ?? 0,
  };
}
