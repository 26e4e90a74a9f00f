// The terrain's multifractal heights (src/terrain/multifractal.ts over src/terrain/noise.ts), row by row.
// Every operation is the TypeScript's, in its order, on f64 (+, −, ×, floor, abs and table look-ups, no
// fused multiply-add), so the heights are bit-identical to the TypeScript generator's.
//
// Memory (addresses owned by src/terrain/wasmHeights.ts): the doubled permutation table (512 × u8), the
// octave weights (f64 per octave, + 1), the output (f64 per vertex, row-major).

const DIAGONAL: f64 = 0.7071067811865476;
const GRADIENT_X = memory.data<f64>([1, -1, 0, 0, DIAGONAL, -DIAGONAL, DIAGONAL, -DIAGONAL, 1, -1, 0, 0, DIAGONAL, -DIAGONAL, DIAGONAL, -DIAGONAL]);
const GRADIENT_Y = memory.data<f64>([0, 0, 1, -1, DIAGONAL, DIAGONAL, -DIAGONAL, -DIAGONAL, 0, 0, 1, -1, DIAGONAL, DIAGONAL, -DIAGONAL, -DIAGONAL]);

const KIND_FBM = 0;
const KIND_HYBRID = 1;
const KIND_RIDGED = 2;
const KIND_HETERO = 3;

export function heapBase(): usize {
  return __heap_base;
}

function fade(t: f64): f64 {
  return t * t * t * (t * (t * 6 - 15) + 10);
}

/** The lattice cell's low 8 bits as JavaScript's `floor & 255` gives them, for any finite floor (exact in f64). */
function cellOf(floor: f64): usize {
  return <usize>(<i32>(floor - 256 * Math.floor(floor * 0.00390625)));
}

function gradientX(hash: u32): f64 {
  return load<f64>(GRADIENT_X + ((<usize>hash) << 3));
}

function gradientY(hash: u32): f64 {
  return load<f64>(GRADIENT_Y + ((<usize>hash) << 3));
}

// Two columns at a time: both lanes share the row's y, so the y half of the noise is scalar, and only
// the lattice look-ups are per lane.

function pair(a: f64, b: f64): v128 {
  return f64x2.replace_lane(f64x2.splat(a), 1, b);
}

function noise(perm: usize, x: v128, y: f64): v128 {
  const floorX = f64x2.floor(x);
  const cells = i32x4.trunc_sat_f64x2_s_zero(f64x2.sub(floorX, f64x2.mul(f64x2.splat(256), f64x2.floor(f64x2.mul(floorX, f64x2.splat(0.00390625))))));
  const floorY = Math.floor(y);
  const cellY = cellOf(floorY);
  const fx = f64x2.sub(x, floorX);
  const fy = y - floorY;

  const cellA = <usize>i32x4.extract_lane(cells, 0);
  const cellB = <usize>i32x4.extract_lane(cells, 1);
  const row0A = <usize>load<u8>(perm + cellA) + cellY;
  const row1A = <usize>load<u8>(perm + cellA + 1) + cellY;
  const row0B = <usize>load<u8>(perm + cellB) + cellY;
  const row1B = <usize>load<u8>(perm + cellB + 1) + cellY;
  const h00A = (<u32>load<u8>(perm + row0A)) & 15;
  const h01A = (<u32>load<u8>(perm + row0A + 1)) & 15;
  const h10A = (<u32>load<u8>(perm + row1A)) & 15;
  const h11A = (<u32>load<u8>(perm + row1A + 1)) & 15;
  const h00B = (<u32>load<u8>(perm + row0B)) & 15;
  const h01B = (<u32>load<u8>(perm + row0B + 1)) & 15;
  const h10B = (<u32>load<u8>(perm + row1B)) & 15;
  const h11B = (<u32>load<u8>(perm + row1B + 1)) & 15;

  const fxLess = f64x2.sub(fx, f64x2.splat(1));
  const fySplat = f64x2.splat(fy);
  const fyLess = f64x2.splat(fy - 1);
  const n00 = f64x2.add(f64x2.mul(pair(gradientX(h00A), gradientX(h00B)), fx), f64x2.mul(pair(gradientY(h00A), gradientY(h00B)), fySplat));
  const n10 = f64x2.add(f64x2.mul(pair(gradientX(h10A), gradientX(h10B)), fxLess), f64x2.mul(pair(gradientY(h10A), gradientY(h10B)), fySplat));
  const n01 = f64x2.add(f64x2.mul(pair(gradientX(h01A), gradientX(h01B)), fx), f64x2.mul(pair(gradientY(h01A), gradientY(h01B)), fyLess));
  const n11 = f64x2.add(f64x2.mul(pair(gradientX(h11A), gradientX(h11B)), fxLess), f64x2.mul(pair(gradientY(h11A), gradientY(h11B)), fyLess));

  const u = f64x2.mul(
    f64x2.mul(f64x2.mul(fx, fx), fx),
    f64x2.add(f64x2.mul(fx, f64x2.sub(f64x2.mul(fx, f64x2.splat(6)), f64x2.splat(15))), f64x2.splat(10)),
  );
  const v = f64x2.splat(fade(fy));
  const bottom = f64x2.add(n00, f64x2.mul(u, f64x2.sub(n10, n00)));
  const top = f64x2.add(n01, f64x2.mul(u, f64x2.sub(n11, n01)));
  return f64x2.mul(f64x2.add(bottom, f64x2.mul(v, f64x2.sub(top, bottom))), f64x2.splat(1.4142135623730951));
}

function weightOf(weights: usize, octave: i32): v128 {
  return f64x2.splat(load<f64>(weights + ((<usize>octave) << 3)));
}

function fbm(perm: usize, weights: usize, wholeOctaves: i32, remainder: f64, lacunarity: f64, x: v128, y: f64): v128 {
  const lacunarities = f64x2.splat(lacunarity);
  let value = f64x2.splat(0);
  let i = 0;
  for (; i < wholeOctaves; i++) {
    value = f64x2.add(value, f64x2.mul(noise(perm, x, y), weightOf(weights, i)));
    x = f64x2.mul(x, lacunarities);
    y *= lacunarity;
  }
  if (remainder > 0) value = f64x2.add(value, f64x2.mul(f64x2.mul(f64x2.splat(remainder), noise(perm, x, y)), weightOf(weights, i)));
  return value;
}

function hybrid(perm: usize, weights: usize, wholeOctaves: i32, remainder: f64, lacunarity: f64, offset: f64, x: v128, y: f64): v128 {
  const lacunarities = f64x2.splat(lacunarity);
  const offsets = f64x2.splat(offset);
  const one = f64x2.splat(1);
  let result = f64x2.mul(f64x2.add(noise(perm, x, y), offsets), weightOf(weights, 0));
  let weight = result;
  x = f64x2.mul(x, lacunarities);
  y *= lacunarity;
  let i = 1;
  for (; i < wholeOctaves; i++) {
    // pmin(w, 1) is `1 < w ? 1 : w`: the TypeScript's `if (weight > 1) weight = 1`, NaN and −0 included.
    weight = f64x2.pmin(weight, one);
    const signal = f64x2.mul(f64x2.add(noise(perm, x, y), offsets), weightOf(weights, i));
    result = f64x2.add(result, f64x2.mul(weight, signal));
    weight = f64x2.mul(weight, signal);
    x = f64x2.mul(x, lacunarities);
    y *= lacunarity;
  }
  if (remainder > 0)
    result = f64x2.add(result, f64x2.mul(f64x2.mul(f64x2.splat(remainder), f64x2.add(noise(perm, x, y), offsets)), weightOf(weights, i)));
  return result;
}

function ridged(perm: usize, weights: usize, wholeOctaves: i32, remainder: f64, lacunarity: f64, offset: f64, gain: f64, x: v128, y: f64): v128 {
  const lacunarities = f64x2.splat(lacunarity);
  const offsets = f64x2.splat(offset);
  const gains = f64x2.splat(gain);
  const zero = f64x2.splat(0);
  const one = f64x2.splat(1);
  let signal = f64x2.sub(offsets, f64x2.abs(noise(perm, x, y)));
  signal = f64x2.mul(signal, signal);
  let result = signal;
  const lastOctave = remainder > 0 ? wholeOctaves + 1 : wholeOctaves;
  for (let i = 1; i < lastOctave; i++) {
    x = f64x2.mul(x, lacunarities);
    y *= lacunarity;
    // `if (w > 1) w = 1; else if (w < 0) w = 0` exactly: pmin is `1 < w ? 1 : w`, pmax is `w < 0 ? 0 : w`.
    const weight = f64x2.pmax(f64x2.pmin(f64x2.mul(signal, gains), one), zero);
    signal = f64x2.sub(offsets, f64x2.abs(noise(perm, x, y)));
    signal = f64x2.mul(signal, f64x2.mul(signal, weight));
    result = f64x2.add(result, f64x2.mul(f64x2.mul(signal, weightOf(weights, i)), f64x2.splat(i == wholeOctaves ? remainder : 1)));
  }
  return result;
}

function hetero(perm: usize, weights: usize, wholeOctaves: i32, remainder: f64, lacunarity: f64, offset: f64, x: v128, y: f64): v128 {
  const lacunarities = f64x2.splat(lacunarity);
  const offsets = f64x2.splat(offset);
  let value = f64x2.add(offsets, noise(perm, x, y));
  x = f64x2.mul(x, lacunarities);
  y *= lacunarity;
  let i = 1;
  for (; i < wholeOctaves; i++) {
    value = f64x2.add(value, f64x2.mul(f64x2.mul(f64x2.add(noise(perm, x, y), offsets), weightOf(weights, i)), value));
    x = f64x2.mul(x, lacunarities);
    y *= lacunarity;
  }
  if (remainder > 0)
    value = f64x2.add(
      value,
      f64x2.mul(f64x2.mul(f64x2.mul(f64x2.splat(remainder), f64x2.add(noise(perm, x, y), offsets)), weightOf(weights, i)), value),
    );
  return value;
}

/**
 * out[row · side + col] := the multifractal at (col · step + latticeOffset, row · step + latticeOffset)
 * for rows [rowStart, rowEnd), as generateTerrain's loop computes it.
 */
export function multifractalRows(
  perm: usize,
  weights: usize,
  kind: i32,
  wholeOctaves: i32,
  remainder: f64,
  lacunarity: f64,
  offset: f64,
  gain: f64,
  side: i32,
  rowStart: i32,
  rowEnd: i32,
  step: f64,
  latticeOffset: f64,
  out: usize,
): void {
  for (let row = rowStart; row < rowEnd; row++) {
    const y = <f64>row * step + latticeOffset;
    const rowOut = out + <usize>row * <usize>side * 8;
    // The last, odd column runs as a pair with itself; only its first lane is stored.
    for (let col = 0; col < side; col += 2) {
      const second = col + 1 < side ? col + 1 : col;
      const x = pair(<f64>col * step + latticeOffset, <f64>second * step + latticeOffset);
      let value: v128;
      if (kind == KIND_FBM) value = fbm(perm, weights, wholeOctaves, remainder, lacunarity, x, y);
      else if (kind == KIND_HYBRID) value = hybrid(perm, weights, wholeOctaves, remainder, lacunarity, offset, x, y);
      else if (kind == KIND_RIDGED) value = ridged(perm, weights, wholeOctaves, remainder, lacunarity, offset, gain, x, y);
      else value = hetero(perm, weights, wholeOctaves, remainder, lacunarity, offset, x, y);
      const at = rowOut + ((<usize>col) << 3);
      if (second > col) v128.store(at, value);
      else store<f64>(at, f64x2.extract_lane(value, 0));
    }
  }
}
