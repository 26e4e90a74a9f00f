/**
 * Contact reduction: a box resting on a face touches the ground with a dozen contact spheres, each with up
 * to three triangle contacts, and two boxes face to face with many sphere pairs; the solver needs only a
 * few well-spread contacts to hold either still. Candidates are laid out with a fixed stride: normal at
 * 0–2, point at 3–5, depth at 6.
 */

/** Contacts an actor keeps against the terrain, and an actor pair between them, per substep. */
export const MANIFOLD_SIZE = 6;

let nearest = new Float64Array(64);

/**
 * Picks at most `keep` of `count` candidates: the deepest first, then each time the candidate farthest from
 * every one picked (farthest-point sampling), where distance mixes the points' separation and their
 * normals' difference scaled by `scale` (the actor's size), so a box on a face keeps its corners and a
 * capsule in a crease keeps both of its walls. Deterministic: ties go to the lower index. Writes the
 * picked indices into `picked` and returns how many.
 */
export function reduceManifold(cand: Float64Array, stride: number, count: number, keep: number, scale: number, picked: Int32Array): number {
  if (count <= keep) {
    for (let k = 0; k < count; k++) picked[k] = k;
    return count;
  }
  if (nearest.length < count) nearest = new Float64Array(Math.max(count, 2 * nearest.length));
  let first = 0;
  for (let k = 1; k < count; k++) if (cand[k * stride + 6]! > cand[first * stride + 6]!) first = k;
  const s2 = scale * scale;
  let n = 0;
  let next = first;
  for (let k = 0; k < count; k++) nearest[k] = Infinity;
  while (n < keep) {
    picked[n++] = next;
    const o = next * stride;
    let best = -1;
    let bestDistance = 0;
    for (let k = 0; k < count; k++) {
      const c = k * stride;
      const px = cand[c + 3]! - cand[o + 3]!,
        py = cand[c + 4]! - cand[o + 4]!,
        pz = cand[c + 5]! - cand[o + 5]!;
      const nx = cand[c]! - cand[o]!,
        ny = cand[c + 1]! - cand[o + 1]!,
        nz = cand[c + 2]! - cand[o + 2]!;
      const d = Math.min(nearest[k]!, px * px + py * py + pz * pz + s2 * (nx * nx + ny * ny + nz * nz));
      nearest[k] = d;
      if (d > bestDistance) {
        bestDistance = d;
        best = k;
      }
    }
    // Everything left coincides with a picked contact.
    if (best < 0 || bestDistance <= 1e-12 * (1 + s2)) break;
    next = best;
  }
  return n;
}
