import { QUANT_MAX, QUANT_STEP_SCALE } from './layoutSpec';

/**
 * 16-bit child bounds relative to a frame (the box the traversal already holds for the node):
 *   value(q) = frameMin + q · step,  step = (frameMax − frameMin) · QUANT_STEP_SCALE
 * in float64, the same expression in the packer and in every traversal, so the packer's containment
 * check is exactly what a query will see. Mins round down, maxes round up, then step one unit further
 * while the decoded float is still on the wrong side.
 *
 * QUANT_STEP_SCALE is a hair above 1/65535 so that value(65535) ≥ frameMax despite rounding, provided
 * the frame's extent is zero (then every value is frameMin exactly) or not tiny next to its coordinates
 * (see frameIsSafe; the packer widens child frames that would fail it).
 */
export { QUANT_MAX, QUANT_STEP_SCALE } from './layoutSpec';

export function quantizationStep(frameMin: number, frameMax: number): number {
  return (frameMax - frameMin) * QUANT_STEP_SCALE;
}

export function quantizeDown(value: number, frameMin: number, step: number): number {
  if (!(step > 0)) return 0;
  let q = Math.floor((value - frameMin) / step);
  if (q < 0) q = 0;
  if (q > QUANT_MAX) q = QUANT_MAX;
  while (q > 0 && frameMin + q * step > value) q--;
  return q;
}

export function quantizeUp(value: number, frameMin: number, step: number): number {
  if (!(step > 0)) return 0;
  let q = Math.ceil((value - frameMin) / step);
  if (q < 0) q = 0;
  if (q > QUANT_MAX) q = QUANT_MAX;
  while (q < QUANT_MAX && frameMin + q * step < value) q++;
  return q;
}

/** Whether value(65535) of this frame reaches frameMax with room to spare for rounding. */
export function frameIsSafe(frameMin: number, frameMax: number): boolean {
  const extent = frameMax - frameMin;
  if (extent === 0) return true;
  return extent >= 2 ** -22 * (Math.abs(frameMin) + Math.abs(frameMax)) && frameMin + QUANT_MAX * quantizationStep(frameMin, frameMax) >= frameMax;
}
