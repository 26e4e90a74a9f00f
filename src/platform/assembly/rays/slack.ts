// Rounding slacks of the float32 box test (see castRays.ts for why they keep it conservative).

/** Distance slack relative to the magnitudes that enter a plane distance (≥ 16 float32 ulps). */
export const PLANE_SLACK: f64 = 1.0 / 524288.0; // 2^-19
/**
 * Relative slack on box exits (rounding of 1/d and of the products, a few 2^-24 each), applied by
 * scaling the inverse direction used for far planes: exits of boxes ahead grow by about this much,
 * exits of boxes behind stay negative.
 */
export const EXIT_SLACK: f64 = 1.0 / 1048576.0; // 2^-20
