// The heightfield net's scan (src/particles/heightfieldNet.ts, which documents the rule): the live
// particles of slots [start, end) whose centre is below the terrain's triangle under them, listed in
// slot order. Every float is computed in float64 with the same operations in the same order as the
// TypeScript (HeightfieldNet.groundAt), so both find the same particles; the few found are put back by the TypeScript.
//
// The parameters arrive in one block written by src/particles/particleKernel.ts (the offsets below);
// the heights are a copy of the terrain's grid in this module's memory.

/** Int32 slots of the net block. */
const START = 0;
const END = 4;
const POSITIONS = 8;
const LIFETIMES = 12;
const HEIGHTS = 16;
const CELLS = 20;
const OUT = 24;
/** Where a net block holds the address of its list of the slots found. */
export const NET_LIST: usize = OUT;
/** Float64 slots of the net block. */
const HALF = 32;
const INVERSE_SPACING = 40;
const NET_BLOCK_BYTES = 48;

const NET_BLOCK: usize = memory.data(NET_BLOCK_BYTES, 16);

/** Where JavaScript writes the net block. */
export function netBlock(): usize {
  return NET_BLOCK;
}
export function netBlockBytes(): i32 {
  return NET_BLOCK_BYTES;
}

/** One float32 of memory as a float64 lane pair's element (the loads of a gather). */
function heightPair(a: usize, b: usize): v128 {
  return f64x2(<f64>load<f32>(a), <f64>load<f32>(b));
}

/** The scan of the net block written by JavaScript: slots [START, END), the slots found listed from OUT. */
export function findUnder(): i32 {
  const block = NET_BLOCK;
  return findUnderRange(block, load<i32>(block + START), load<i32>(block + END), <usize>load<i32>(block + OUT));
}

/**
 * The scan of slots [start, end) with the parameters of the net block at `block`, the slots found
 * listed from `out`; returns how many. Two particles at a time in f64x2, without branches but the
 * rare append: both triangles' heights are computed and the one under the particle chosen by mask, so
 * a particle's side of the diagonal (a coin toss in slot order) costs no mispredicted jump. A lane off
 * the grid (or NaN) reads cell 0 and is masked out. The float64 operations are the TypeScript's, in
 * its order, lane by lane.
 */
export function findUnderRange(block: usize, start: i32, end: i32, out: usize): i32 {
  const positions = <usize>load<i32>(block + POSITIONS);
  const lifetimes = <usize>load<i32>(block + LIFETIMES);
  const heights = <usize>load<i32>(block + HEIGHTS);
  const cells = load<i32>(block + CELLS);
  const half = f64x2.splat(load<f64>(block + HALF));
  const inverseSpacing = f64x2.splat(load<f64>(block + INVERSE_SPACING));
  const zero = f64x2.splat(0);
  const one = f64x2.splat(1);
  const cellsF = f64x2.splat(<f64>cells);
  const lastCell = i32x4.splat(cells - 1);
  const rowBytes = (<usize>(cells + 1)) << 2;
  const sideLanes = i32x4.splat(cells + 1);
  let found: i32 = 0;
  let i = start;
  for (; i + 1 < end; i += 2) {
    const p0 = positions + ((<usize>i) << 4);
    // x0 y0 z0 w0, x1 y1 z1 w1 → (x0, x1), (y0, y1), (z0, z1) as float64.
    const a = v128.load(p0),
      b = v128.load(p0, 16);
    const xz = v128.shuffle<f32>(a, b, 0, 4, 2, 6);
    const gx = f64x2.mul(f64x2.add(f64x2.promote_low_f32x4(xz), half), inverseSpacing);
    const gz = f64x2.mul(f64x2.add(f64x2.promote_low_f32x4(v128.shuffle<f32>(xz, xz, 2, 3, 0, 1)), half), inverseSpacing);
    const y = f64x2.promote_low_f32x4(v128.shuffle<f32>(a, b, 1, 5, 1, 5));
    const onGrid = v128.and(v128.and(f64x2.ge(gx, zero), f64x2.le(gx, cellsF)), v128.and(f64x2.ge(gz, zero), f64x2.le(gz, cellsF)));
    const alive = load<u64>(lifetimes + ((<usize>i) << 2)); // two float32 lifetimes
    // gx, gz ∈ [0, cells] on the grid: truncation is the floor; elsewhere cell 0, masked out below.
    const col = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(v128.and(gx, onGrid)), lastCell);
    const row = i32x4.min_s(i32x4.trunc_sat_f64x2_s_zero(v128.and(gz, onGrid)), lastCell);
    const u = f64x2.sub(gx, f64x2.convert_low_i32x4_s(col));
    const v = f64x2.sub(gz, f64x2.convert_low_i32x4_s(row));
    const corner = i32x4.add(i32x4.mul(row, sideLanes), col);
    const a0 = heights + ((<usize>i32x4.extract_lane(corner, 0)) << 2);
    const a1 = heights + ((<usize>i32x4.extract_lane(corner, 1)) << 2);
    const ha = heightPair(a0, a1),
      hb = heightPair(a0 + 4, a1 + 4),
      hc = heightPair(a0 + rowBytes, a1 + rowBytes),
      hd = heightPair(a0 + rowBytes + 4, a1 + rowBytes + 4);
    // Triangle (a, c, b) covers u + v ≤ 1, (b, c, d) the rest (as TerrainHeightSampler).
    const upper = f64x2.gt(f64x2.add(u, v), one);
    const groundUpper = f64x2.add(f64x2.add(hd, f64x2.mul(f64x2.sub(one, u), f64x2.sub(hc, hd))), f64x2.mul(f64x2.sub(one, v), f64x2.sub(hb, hd)));
    const groundLower = f64x2.add(f64x2.add(ha, f64x2.mul(u, f64x2.sub(hb, ha))), f64x2.mul(v, f64x2.sub(hc, ha)));
    const under = i64x2.bitmask(v128.and(f64x2.lt(y, v128.bitselect(groundUpper, groundLower, upper)), onGrid));
    if (under == 0) continue;
    if ((under & 1) != 0 && (<u32>alive) << 1 != 0) {
      store<i32>(out + ((<usize>found) << 2), i);
      found++;
    }
    if ((under & 2) != 0 && (<u32>(alive >> 32)) << 1 != 0) {
      store<i32>(out + ((<usize>found) << 2), i + 1);
      found++;
    }
  }
  if (i < end) found = findUnderOne(i, found, positions, lifetimes, heights, cells, out, load<f64>(block + HALF), load<f64>(block + INVERSE_SPACING));
  return found;
}

/** The last slot of an odd range, one particle alone; returns the count with it. */
function findUnderOne(
  i: i32,
  found: i32,
  positions: usize,
  lifetimes: usize,
  heights: usize,
  cells: i32,
  out: usize,
  half: f64,
  inverseSpacing: f64,
): i32 {
  if (load<f32>(lifetimes + ((<usize>i) << 2)) == 0) return found;
  const p = positions + ((<usize>i) << 4);
  const y = <f64>load<f32>(p, 4);
  const gx = (<f64>load<f32>(p) + half) * inverseSpacing;
  const gz = (<f64>load<f32>(p, 8) + half) * inverseSpacing;
  const cellsF = <f64>cells;
  if (!(gx >= 0 && gx <= cellsF && gz >= 0 && gz <= cellsF)) return found;
  const col = min(<i32>gx, cells - 1);
  const row = min(<i32>gz, cells - 1);
  const u = gx - <f64>col;
  const v = gz - <f64>row;
  const side = cells + 1;
  const a = heights + ((<usize>(row * side + col)) << 2);
  const ha = <f64>load<f32>(a),
    hb = <f64>load<f32>(a, 4),
    hc = <f64>load<f32>(a + ((<usize>side) << 2)),
    hd = <f64>load<f32>(a + ((<usize>side) << 2), 4);
  const ground = u + v > 1 ? hd + (1 - u) * (hc - hd) + (1 - v) * (hb - hd) : ha + u * (hb - ha) + v * (hc - ha);
  if (y < ground) {
    store<i32>(out + ((<usize>found) << 2), i);
    found++;
  }
  return found;
}
