// The heightfield net's scan (src/particles/heightfieldNet.ts, which documents the rule): the live
// particles of slots [start, end) whose centre is below the terrain's triangle under them, listed in
// slot order. Every float is computed in float64 with the same operations in the same order as the
// TypeScript, so both find the same particles; the few found are put back by the TypeScript.
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

/** Writes the slots found to the out list; returns how many. */
export function findUnder(): i32 {
  const block = NET_BLOCK;
  const start = load<i32>(block + START);
  const end = load<i32>(block + END);
  const positions = <usize>load<i32>(block + POSITIONS);
  const lifetimes = <usize>load<i32>(block + LIFETIMES);
  const heights = <usize>load<i32>(block + HEIGHTS);
  const cells = load<i32>(block + CELLS);
  const out = <usize>load<i32>(block + OUT);
  const half = load<f64>(block + HALF);
  const inverseSpacing = load<f64>(block + INVERSE_SPACING);
  const cellsF = <f64>cells;
  const side = cells + 1;
  let found: i32 = 0;
  for (let i = start; i < end; i++) {
    if (load<f32>(lifetimes + ((<usize>i) << 2)) == 0) continue;
    const p = positions + ((<usize>i) << 4);
    const y = <f64>load<f32>(p, 4);
    const gx = (<f64>load<f32>(p) + half) * inverseSpacing;
    const gz = (<f64>load<f32>(p, 8) + half) * inverseSpacing;
    if (!(gx >= 0 && gx <= cellsF && gz >= 0 && gz <= cellsF)) continue;
    // gx, gz ∈ [0, cells]: truncation is the floor.
    const col = min(<i32>gx, cells - 1);
    const row = min(<i32>gz, cells - 1);
    const u = gx - <f64>col;
    const v = gz - <f64>row;
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
  }
  return found;
}
