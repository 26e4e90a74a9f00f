/**
 * Orders the hit children of a node by exit distance (the talk's choice: a big box around smaller
 * ones, a skybox around the level, is visited after them) into sorted[0..count).
 *
 * Tie-safe: each pair is compared once and the answer is used both ways (one side gets "after" exactly
 * when the other gets "before"), so equal keys cannot claim the same rank; within a pair the lower slot
 * wins ties. Every pair puts the lower-indexed slot on the left of the comparison, which keeps ranks a
 * permutation. Keys are never NaN (exit distances start at +∞ and only take smaller non-NaN values).
 */
export function orderByExit(far: Float64Array, count: number, sorted: Int32Array): void {
  if (count === 2) {
    const swap = far[1]! < far[0]!;
    sorted[0] = swap ? 1 : 0;
    sorted[1] = swap ? 0 : 1;
    return;
  }
  const f0 = far[0]!,
    f1 = far[1]!,
    f2 = far[2]!;
  let r0 = 0,
    r1 = 0,
    r2 = 0,
    r3 = 0;
  if (f1 < f0) r0++;
  else r1++;
  if (f2 < f0) r0++;
  else r2++;
  if (f2 < f1) r1++;
  else r2++;
  if (count === 4) {
    const f3 = far[3]!;
    if (f3 < f0) r0++;
    else r3++;
    if (f3 < f1) r1++;
    else r3++;
    if (f3 < f2) r2++;
    else r3++;
    sorted[r3] = 3;
  }
  sorted[r0] = 0;
  sorted[r1] = 1;
  sorted[r2] = 2;
}
