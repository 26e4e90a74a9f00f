// The refit's leaf boxes (src/bvh/refit.ts, RefitPass.refitAll step 1) with f32x4: one load per vertex
// (x, y, z and the next vertex's x, whose lane is ignored), pmin / pmax, which are exactly the
// TypeScript loop's `if (x < min) min = x` and `if (x > max) max = x` (same result for ±0, NaN never
// taken), so the boxes are bit-identical to the TypeScript refit's.
//
// Memory (addresses owned by src/bvh/wasmRefit.ts): positions as f32 xyz per vertex, then 4 bytes of
// padding; slotVertexStart (u32 per slot, + 1); slotVertices (u32); leafSlots (i32); boxes (6 × f64 per
// slot: min xyz, max xyz).

export function heapBase(): usize {
  return __heap_base;
}

/**
 * Writes the box of every leaf slot listed in leafSlots over its distinct vertices. Returns the sum of
 * x − x over every coordinate read: 0 when all are finite, NaN otherwise (the caller then names the
 * coordinate).
 */
export function leafBoxes(positions: usize, slotVertexStart: usize, slotVertices: usize, leafSlots: usize, leafCount: i32, boxes: usize): f64 {
  let check = f32x4.splat(0);
  const empty = f32x4.splat(Infinity);
  const emptyMax = f32x4.splat(-Infinity);
  for (let i = 0; i < leafCount; i++) {
    const slot = <usize>load<i32>(leafSlots + ((<usize>i) << 2));
    const start = <usize>load<u32>(slotVertexStart + (slot << 2));
    const end = <usize>load<u32>(slotVertexStart + (slot << 2) + 4);
    let low = empty;
    let high = emptyMax;
    for (let j = start; j < end; j++) {
      const p = v128.load(positions + 12 * <usize>load<u32>(slotVertices + (j << 2)));
      check = f32x4.add(check, f32x4.sub(p, p));
      low = f32x4.pmin(low, p);
      high = f32x4.pmax(high, p);
    }
    const out = boxes + 48 * slot;
    v128.store(out, f64x2.promote_low_f32x4(low));
    store<f64>(out + 16, <f64>f32x4.extract_lane(low, 2));
    v128.store(out + 24, f64x2.promote_low_f32x4(high));
    store<f64>(out + 40, <f64>f32x4.extract_lane(high, 2));
  }
  return <f64>f32x4.extract_lane(check, 0) + <f64>f32x4.extract_lane(check, 1) + <f64>f32x4.extract_lane(check, 2);
}
