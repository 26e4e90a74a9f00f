// Front-to-back order of four lanes without branches, shared by the SIMD walks (rays one at a time,
// rays in batches, capsules): each lane gets a sort key, its rank is the number of smaller keys, and
// the lanes' slots and near distances are stored at their ranks.

/**
 * Keys for rankOffsets: `value`'s bits (non-negative floats order as integers) in the lanes of `mask`,
 * the largest key elsewhere, with the slot in the two lowest bits so ties go to the lower slot and no
 * two keys are equal.
 */
export function sortKeys(value: v128, mask: v128): v128 {
  return v128.or(v128.bitselect(v128.and(value, i32x4.splat(~3)), i32x4.splat(0x7ffffffc), mask), i32x4(0, 1, 2, 3));
}

/** Ranks of four distinct sort keys, times 4: the byte offset at which each lane lands. */
export function rankOffsets(key: v128): v128 {
  const below = i32x4.add(
    i32x4.add(i32x4.lt_s(v128.shuffle<i32>(key, key, 1, 2, 3, 0), key), i32x4.lt_s(v128.shuffle<i32>(key, key, 2, 3, 0, 1), key)),
    i32x4.lt_s(v128.shuffle<i32>(key, key, 3, 0, 1, 2), key),
  );
  return i32x4.shl(i32x4.neg(below), 2);
}

/** Stores lane s's slot number at slots + rank(s) and its near distance at nears + rank(s). */
export function storeByRank(rank: v128, near: v128, slots: usize, nears: usize): void {
  const r0 = <usize>i32x4.extract_lane(rank, 0),
    r1 = <usize>i32x4.extract_lane(rank, 1);
  const r2 = <usize>i32x4.extract_lane(rank, 2),
    r3 = <usize>i32x4.extract_lane(rank, 3);
  store<i32>(slots + r0, 0);
  store<i32>(slots + r1, 1);
  store<i32>(slots + r2, 2);
  store<i32>(slots + r3, 3);
  store<f32>(nears + r0, f32x4.extract_lane(near, 0));
  store<f32>(nears + r1, f32x4.extract_lane(near, 1));
  store<f32>(nears + r2, f32x4.extract_lane(near, 2));
  store<f32>(nears + r3, f32x4.extract_lane(near, 3));
}
