/**
 * Outward rounding of float64 bounds to float32, so a box stored in float32 still contains what the
 * builder computed in float64 (clipped triangle boxes, unions). Math.fround rounds to nearest, which can
 * land on either side; one ulp step fixes the wrong side.
 */
const scratchFloat = new Float32Array(1);
const scratchBits = new Int32Array(scratchFloat.buffer);

/** The largest float32 ≤ value (value finite). */
export function float32Below(value: number): number {
  const rounded = Math.fround(value);
  if (rounded <= value) return rounded;
  return stepFloat32(rounded, -1);
}

/** The smallest float32 ≥ value (value finite). */
export function float32Above(value: number): number {
  const rounded = Math.fround(value);
  if (rounded >= value) return rounded;
  return stepFloat32(rounded, 1);
}

/** The float32 neighbour of a float32 value towards −∞ (direction −1) or +∞ (direction +1). */
function stepFloat32(value: number, direction: 1 | -1): number {
  if (value === 0) return direction * 2 ** -149;
  scratchFloat[0] = value;
  // For positive floats a larger bit pattern is a larger value; for negative ones it is the reverse.
  scratchBits[0] = scratchBits[0]! + (value > 0 ? direction : -direction);
  return scratchFloat[0];
}
