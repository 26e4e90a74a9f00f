/**
 * What every kernel returns when the ray does not hit: −1, below any valid distance, so a caller tests
 * `t >= 0` (which NaN would also fail, though no kernel returns NaN).
 */
export const RAY_MISS = -1;
