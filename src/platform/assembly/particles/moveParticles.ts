// One step of motion for one particle effect, four particles at a time in f32x4: the twin of
// src/particles/moveParticles.ts (moveEffect), which documents the rules. Every float is computed in
// float32 with the same operations in the same order as the TypeScript, which rounds each result with
// Math.fround (WebAssembly SIMD has no fused multiply-add, and a float64 +, −, ×, ÷ or √ of two float32
// values rounded to float32 is the float32 operation), so both write the same bits: the tests compare
// every buffer and list exactly.
//
// The particles are stored as float4 per particle (x, y, z, unused); four of them are transposed into
// x, y, z (and w) vectors with unpack shuffles and transposed back on the way out, the unused fourth
// float written back as it was. The per-particle flags are integer work on 4-bit lane masks and on
// i32x4 lanes widened from the byte arrays, which are read and written four at a time; only the list
// appends go particle by particle, in slot order. Cell coordinates saturate where the TypeScript's
// `| 0` wraps, which only differs beyond 2^31 cells from the origin (far outside any world a particle
// survives in).
//
// Everything the step needs is in one block of memory written by src/particles/particleKernel.ts (the
// offsets below); the buffers live in this module's memory, laid out by src/particles/particleBuffers.ts
// (with spare bytes at the end, as the last quad of slots may read past the last particle).

/** Float64 slots of the step block. */
const DT = 0;
const GRAVITY_STEP = 8;
const REST_SPEED = 16;
const DECAY = 24;
const HALF = 32;
const FLOOR = 40;
const NEG_RESTITUTION = 48;
const FRICTION = 56;
const RADIUS = 64;
const LOOKAHEAD = 72;
const HALF_DROP = 80;
const INVERSE_SIDE = 88;
const INVERSE_HEIGHT = 96;
const URGENT_TIME = 104;
const ASK_MARGIN = 112;
/** Int32 slots of the step block, after the floats. */
const START = 120;
const END = 124;
const WITH_WIND = 128;
const CELL_LOOKUPS = 132;
const SURFACE_KEYS = 136;
const ASK_COUNT = 140;
const URGENT_END = 144;
const LATER_START = 148;
const BOUNCES = 152;
const ALIVE = 156;
const POSITIONS = 160;
const VELOCITIES = 164;
const PLANES = 168;
const COLOURS = 172;
const AGES = 176;
const LIFETIMES = 180;
const SOURCES = 184;
const TOUCHING = 188;
const WIND = 192;
const CELL_STAMPS = 196;
const CODES = 200;
const LIVE = 204;
const ASKERS = 208;
const NEEDY = 212;
const STEP_BLOCK_BYTES = 216;

// Plane sources and the surface code, as in src/particles/particleBuffers.ts and cacheKey.ts.
const PLANE_NONE: i32 = 0;
const PLANE_RAY: i32 = 1;
const PLANE_CONTACT: i32 = 3;
const SURFACE_CODE: i32 = 6;
const SLIDING_SPEED_SQUARED: f64 = 0.25;

const STEP_BLOCK: usize = memory.data(STEP_BLOCK_BYTES, 16);

/** Where JavaScript writes the step block. */
export function stepBlock(): usize {
  return STEP_BLOCK;
}
export function stepBlockBytes(): i32 {
  return STEP_BLOCK_BYTES;
}
/** Where JavaScript may start placing data. */
export function heapBase(): usize {
  return __heap_base;
}

/** Lane k holds k: which slots of a quad lie before the effect's end. */
const LANE_INDEX: v128 = i32x4(0, 1, 2, 3);
/** Lane k holds bit k: turns a 4-bit lane mask back into i32x4 lanes. */
const LANE_BIT: v128 = i32x4(1, 2, 4, 8);

/**
 * Swizzles that left-pack the lanes of a 4-bit mask, lowest lane first (row m for mask m, 16 bytes;
 * index 128 reads as 0): how a quad appends its chosen slots to a list with one store.
 */
const PACK_LOW: usize = memory.data<u8>([
  128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 0, 1, 2, 3, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128,
  128, 4, 5, 6, 7, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 0, 1, 2, 3, 4, 5, 6, 7, 128, 128, 128, 128, 128, 128, 128, 128, 8, 9,
  10, 11, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 0, 1, 2, 3, 8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128, 4, 5, 6, 7, 8,
  9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 128, 128, 128, 128, 12, 13, 14, 15, 128, 128, 128, 128,
  128, 128, 128, 128, 128, 128, 128, 128, 0, 1, 2, 3, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128, 4, 5, 6, 7, 12, 13, 14, 15, 128, 128,
  128, 128, 128, 128, 128, 128, 0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15, 128, 128, 128, 128, 8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128, 128,
  128, 128, 128, 0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 128, 128, 128, 128, 0, 1, 2,
  3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
]);
/** The same, packed to the high lanes in reverse (lowest lane last): appends to a list growing down. */
const PACK_HIGH_REVERSED: usize = memory.data<u8>([
  128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 0, 1, 2,
  3, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 4, 5, 6, 7, 128, 128, 128, 128, 128, 128, 128, 128, 4, 5, 6, 7, 0, 1, 2, 3, 128, 128,
  128, 128, 128, 128, 128, 128, 128, 128, 128, 128, 8, 9, 10, 11, 128, 128, 128, 128, 128, 128, 128, 128, 8, 9, 10, 11, 0, 1, 2, 3, 128, 128, 128,
  128, 128, 128, 128, 128, 8, 9, 10, 11, 4, 5, 6, 7, 128, 128, 128, 128, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3, 128, 128, 128, 128, 128, 128, 128, 128,
  128, 128, 128, 128, 12, 13, 14, 15, 128, 128, 128, 128, 128, 128, 128, 128, 12, 13, 14, 15, 0, 1, 2, 3, 128, 128, 128, 128, 128, 128, 128, 128, 12,
  13, 14, 15, 4, 5, 6, 7, 128, 128, 128, 128, 12, 13, 14, 15, 4, 5, 6, 7, 0, 1, 2, 3, 128, 128, 128, 128, 128, 128, 128, 128, 12, 13, 14, 15, 8, 9,
  10, 11, 128, 128, 128, 128, 12, 13, 14, 15, 8, 9, 10, 11, 0, 1, 2, 3, 128, 128, 128, 128, 12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 12, 13, 14, 15,
  8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3,
]);

/** Appends the slots of `lanes` (lowest first) at `at`; writes all four lanes, the unchosen past the end. */
function appendLanes(at: usize, slots: v128, lanes: i32): void {
  v128.store(at, i8x16.swizzle(slots, v128.load(PACK_LOW + ((<usize>lanes) << 4))));
}

/** The 4-bit mask `bits` as all-ones / all-zeros i32x4 lanes. */
function lanesOf(bits: i32): v128 {
  return i32x4.ne(v128.and(i32x4.splat(bits), LANE_BIT), i32x4.splat(0));
}

/** Four bytes at `at` widened to i32x4 lanes. */
function loadBytes(at: usize): v128 {
  return i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(v128.load32_zero(at)));
}

/** The low bytes of four i32x4 lanes (each 0–255) as one 32-bit word, lane 0 lowest. */
function packBytes(lanes: v128): i32 {
  const bytes = i8x16.narrow_i16x8_u(i16x8.narrow_i32x4_u(lanes, lanes), lanes);
  return i32x4.extract_lane(bytes, 0);
}

/** Bits 0–3 of `bits` as the four bytes 0/1 of a 32-bit word. */
function bitBytes(bits: i32): i32 {
  return (bits & 1) | ((bits & 2) << 7) | ((bits & 4) << 14) | ((bits & 8) << 21);
}

/** The first bit of each of four bytes 0/1 as a 4-bit mask. */
function byteBits(word: i32): i32 {
  return (word & 1) | ((word >> 7) & 2) | ((word >> 14) & 4) | ((word >> 21) & 8);
}

/**
 * The direction codes of four directions (see cacheKey.ts): 0/1 for ±x, 2/3 for ±y, 4/5 for ±z, ties to
 * the earlier axis, a zero vector −x (1), NaN +z… (5), lane by lane as the TypeScript computes one.
 */
function directionCodes(dx: v128, dy: v128, dz: v128): v128 {
  const ax = f32x4.abs(dx),
    ay = f32x4.abs(dy),
    az = f32x4.abs(dz);
  const xDominant = v128.and(f32x4.ge(ax, ay), f32x4.ge(ax, az));
  const yDominant = v128.andnot(f32x4.ge(ay, az), xDominant);
  // A true compare is −1, so 1 + (dx > 0) is 0 for +x and 1 for −x.
  const zero = f32x4.splat(0);
  const xCode = i32x4.add(i32x4.splat(1), f32x4.gt(dx, zero));
  const yCode = i32x4.add(i32x4.splat(3), f32x4.gt(dy, zero));
  const zCode = i32x4.add(i32x4.splat(5), f32x4.gt(dz, zero));
  return v128.bitselect(xCode, v128.bitselect(yCode, zCode, yDominant), xDominant);
}

// The 4 × 4 transpose of four float4 particles a = (x0 y0 z0 w0) … d = (x3 y3 z3 w3) into x, y, z, w
// vectors: unpack low/high of 32- then 64-bit lanes, one instruction each on x64. The same shuffles
// transpose back.
function lowPairs(a: v128, b: v128): v128 {
  return v128.shuffle<f32>(a, b, 0, 4, 1, 5);
}
function highPairs(a: v128, b: v128): v128 {
  return v128.shuffle<f32>(a, b, 2, 6, 3, 7);
}
function firstHalves(ab: v128, cd: v128): v128 {
  return v128.shuffle<i64>(ab, cd, 0, 2);
}
function secondHalves(ab: v128, cd: v128): v128 {
  return v128.shuffle<i64>(ab, cd, 1, 3);
}

/** Stores lane `lane` of four particles given as x, y, z, w vectors back as one float4 at `at`. */
function storeParticle(at: usize, x: v128, y: v128, z: v128, w: v128, lane: i32): void {
  const xy = lane < 2 ? lowPairs(x, y) : highPairs(x, y); // x y of lanes (0, 1) or (2, 3)
  const zw = lane < 2 ? lowPairs(z, w) : highPairs(z, w);
  v128.store(at, (lane & 1) == 0 ? firstHalves(xy, zw) : secondHalves(xy, zw));
}

/** Stores four particles given as x, y, z, w vectors back as float4s from `at`. */
function storeParticles(at: usize, x: v128, y: v128, z: v128, w: v128): void {
  const xyLow = lowPairs(x, y),
    zwLow = lowPairs(z, w),
    xyHigh = highPairs(x, y),
    zwHigh = highPairs(z, w);
  v128.store(at, firstHalves(xyLow, zwLow));
  v128.store(at, secondHalves(xyLow, zwLow), 16);
  v128.store(at, firstHalves(xyHigh, zwHigh), 32);
  v128.store(at, secondHalves(xyHigh, zwHigh), 48);
}

function kill(i: usize, lifetimes: usize, colours: usize): void {
  store<f32>(lifetimes + (i << 2), 0);
  store<u8>(colours + (i << 2) + 3, 0);
}

/** Kills the slots of a quad whose bits are set in `lanes`. */
function killLanes(i0: usize, lanes: i32, lifetimes: usize, colours: usize): void {
  for (let lane = 0; lane < 4; lane++) if (lanes & (1 << lane)) kill(i0 + <usize>lane, lifetimes, colours);
}

/** Lane `lane` of an i32x4 (lane not a constant). */
function laneOf(v: v128, lane: i32): i32 {
  return lane == 0
    ? i32x4.extract_lane(v, 0)
    : lane == 1
      ? i32x4.extract_lane(v, 1)
      : lane == 2
        ? i32x4.extract_lane(v, 2)
        : i32x4.extract_lane(v, 3);
}

/** One effect's step over the step block written by JavaScript (its START, END and ASK_COUNT), results back into the block. */
export function moveEffect(): void {
  const block = STEP_BLOCK;
  moveSlots(block, load<i32>(block + START), load<i32>(block + END), load<i32>(block + ASK_COUNT), block + ASK_COUNT);
}

/**
 * Moves slots [start, end) of one effect with the parameters of the step block at `block`, appending
 * askers from `askCount` on, the live from `start`, the urgent from `start` up and the later from `end`
 * down; writes at `out` the askers' end, the urgent end, the later start, the bounces and the slots
 * alive (five i32, as ASK_COUNT … ALIVE of the block). A pool's chunk passes its own slots for both
 * ends and its first slot for `askCount`: its lists then stay inside its own slots.
 */
export function moveSlots(block: usize, start: i32, end: i32, askCount: i32, out: usize): void {
  // The step's numbers arrive as float64 and are used as float32, as the TypeScript rounds them.
  const dt = f32x4.splat(<f32>load<f64>(block + DT));
  const gravityStep = f32x4.splat(<f32>load<f64>(block + GRAVITY_STEP));
  const negRestSpeed = f32x4.neg(f32x4.splat(<f32>load<f64>(block + REST_SPEED)));
  const decay = f32x4.splat(<f32>load<f64>(block + DECAY));
  const half = <f32>load<f64>(block + HALF);
  const negHalf = f32x4.splat(-half),
    halfLanes = f32x4.splat(half);
  const floor = f32x4.splat(<f32>load<f64>(block + FLOOR));
  const negRestitution = f32x4.splat(<f32>load<f64>(block + NEG_RESTITUTION));
  const friction = f32x4.splat(<f32>load<f64>(block + FRICTION));
  const radius = f32x4.splat(<f32>load<f64>(block + RADIUS));
  const lookahead = <f32>load<f64>(block + LOOKAHEAD);
  const lookaheadLanes = f32x4.splat(lookahead);
  const twiceLookahead = f32x4.splat(2 * lookahead);
  const halfDrop = f32x4.splat(<f32>load<f64>(block + HALF_DROP));
  const inverseSide = f32x4.splat(<f32>load<f64>(block + INVERSE_SIDE));
  const inverseHeight = f32x4.splat(<f32>load<f64>(block + INVERSE_HEIGHT));
  const urgentTime = f32x4.splat(<f32>load<f64>(block + URGENT_TIME));
  const askMargin = f32x4.splat(<f32>load<f64>(block + ASK_MARGIN));
  const withWind = load<i32>(block + WITH_WIND) != 0;
  const cellLookups = load<i32>(block + CELL_LOOKUPS) != 0 ? 15 : 0; // a 4-bit lane mask
  const surfaceKeys = load<i32>(block + SURFACE_KEYS) != 0;
  const positions = <usize>load<i32>(block + POSITIONS);
  const velocities = <usize>load<i32>(block + VELOCITIES);
  const planes = <usize>load<i32>(block + PLANES);
  const colours = <usize>load<i32>(block + COLOURS);
  const ages = <usize>load<i32>(block + AGES);
  const lifetimes = <usize>load<i32>(block + LIFETIMES);
  const sources = <usize>load<i32>(block + SOURCES);
  const touchingBefore = <usize>load<i32>(block + TOUCHING);
  const wind = <usize>load<i32>(block + WIND);
  const cellStamps = <usize>load<i32>(block + CELL_STAMPS);
  const codes = <usize>load<i32>(block + CODES);
  const live = <usize>load<i32>(block + LIVE);
  const askers = <usize>load<i32>(block + ASKERS);
  const needy = <usize>load<i32>(block + NEEDY);
  let urgentEnd = start;
  let laterStart = end;
  let bounces: i32 = 0;
  let alive: i32 = 0;

  const zero = f32x4.splat(0);
  const one = f32x4.splat(1);
  const tiny = f32x4.splat(<f32>1e-9);
  const slidingSquared = f32x4.splat(<f32>SLIDING_SPEED_SQUARED);
  const endLanes = i32x4.splat(end);
  const surfaceCode = i32x4.splat(SURFACE_CODE);
  const rayCode = i32x4.splat(PLANE_RAY),
    noneCode = i32x4.splat(PLANE_NONE),
    contactCode = i32x4.splat(PLANE_CONTACT);
  const stampX = i32x4.splat(<i32>0x9e3779b1),
    stampY = i32x4.splat(<i32>0x85ebca77),
    stampZ = i32x4.splat(<i32>0xc2b2ae3d);

  for (let i = start; i < end; i += 4) {
    const i0 = <usize>i;
    // Slots past the effect's end read as empty (lifetime 0), so nothing is written to them.
    const inRange = i32x4.lt_s(i32x4.add(i32x4.splat(i), LANE_INDEX), endLanes);
    const life = v128.and(v128.load(lifetimes + (i0 << 2)), inRange);
    const occupied = i32x4.bitmask(f32x4.ne(life, zero));
    if (occupied == 0) continue;
    const age = f32x4.add(v128.load(ages + (i0 << 2)), dt);
    const young = i32x4.bitmask(f32x4.lt(age, life));
    // Slots that were occupied but are too old die here.
    const dying = occupied & ~young;
    if (dying) killLanes(i0, dying, lifetimes, colours);
    let moving = occupied & young;
    if (moving == 0) continue;
    // The age is kept even by a particle lost below (the TypeScript stores it first too).
    if (moving == 15) v128.store(ages + (i0 << 2), age);
    else for (let lane = 0; lane < 4; lane++) if (moving & (1 << lane)) store<i32>(ages + ((i0 + <usize>lane) << 2), laneOf(age, lane));

    const p4 = i0 << 4;
    const va = v128.load(velocities + p4),
      vb = v128.load(velocities + p4, 16),
      vc = v128.load(velocities + p4, 32),
      vd = v128.load(velocities + p4, 48);
    const vLow = lowPairs(va, vb),
      vLow2 = lowPairs(vc, vd),
      vHigh = highPairs(va, vb),
      vHigh2 = highPairs(vc, vd);
    let vx = firstHalves(vLow, vLow2);
    let vy = f32x4.sub(secondHalves(vLow, vLow2), gravityStep);
    let vz = firstHalves(vHigh, vHigh2);
    const vw = secondHalves(vHigh, vHigh2);
    if (withWind) {
      const wa = v128.load(wind + p4),
        wb = v128.load(wind + p4, 16),
        wc = v128.load(wind + p4, 32),
        wd = v128.load(wind + p4, 48);
      const wLow = lowPairs(wa, wb),
        wLow2 = lowPairs(wc, wd);
      const wx = firstHalves(wLow, wLow2),
        wy = secondHalves(wLow, wLow2),
        wz = firstHalves(highPairs(wa, wb), highPairs(wc, wd));
      vx = f32x4.add(wx, f32x4.mul(f32x4.sub(vx, wx), decay));
      vy = f32x4.add(wy, f32x4.mul(f32x4.sub(vy, wy), decay));
      vz = f32x4.add(wz, f32x4.mul(f32x4.sub(vz, wz), decay));
    } else {
      vx = f32x4.mul(vx, decay);
      vy = f32x4.mul(vy, decay);
      vz = f32x4.mul(vz, decay);
    }
    const qa = v128.load(positions + p4),
      qb = v128.load(positions + p4, 16),
      qc = v128.load(positions + p4, 32),
      qd = v128.load(positions + p4, 48);
    const qLow = lowPairs(qa, qb),
      qLow2 = lowPairs(qc, qd),
      qHigh = highPairs(qa, qb),
      qHigh2 = highPairs(qc, qd);
    let px = f32x4.add(firstHalves(qLow, qLow2), f32x4.mul(vx, dt));
    let py = f32x4.add(secondHalves(qLow, qLow2), f32x4.mul(vy, dt));
    let pz = f32x4.add(firstHalves(qHigh, qHigh2), f32x4.mul(vz, dt));
    const pw = secondHalves(qHigh, qHigh2);
    const inside = v128.and(
      v128.and(f32x4.ge(px, negHalf), f32x4.le(px, halfLanes)),
      v128.and(v128.and(f32x4.ge(pz, negHalf), f32x4.le(pz, halfLanes)), f32x4.ge(py, floor)),
    );
    const lost = moving & ~i32x4.bitmask(inside);
    if (lost) killLanes(i0, lost, lifetimes, colours);
    moving &= ~lost;
    if (moving == 0) continue;

    const na = v128.load(planes + p4),
      nb = v128.load(planes + p4, 16),
      nc = v128.load(planes + p4, 32),
      nd4 = v128.load(planes + p4, 48);
    const nLow = lowPairs(na, nb),
      nLow2 = lowPairs(nc, nd4),
      nHigh = highPairs(na, nb),
      nHigh2 = highPairs(nc, nd4);
    const nx = firstHalves(nLow, nLow2),
      ny = secondHalves(nLow, nLow2),
      nz = firstHalves(nHigh, nHigh2),
      nd = secondHalves(nHigh, nHigh2);
    const distance = f32x4.sub(f32x4.add(f32x4.add(f32x4.mul(nx, px), f32x4.mul(ny, py)), f32x4.mul(nz, pz)), nd);
    const push = f32x4.max(zero, f32x4.sub(radius, distance));
    px = f32x4.add(px, f32x4.mul(nx, push));
    py = f32x4.add(py, f32x4.mul(ny, push));
    pz = f32x4.add(pz, f32x4.mul(nz, push));
    const touchingMask = f32x4.gt(push, zero);
    const touching = i32x4.bitmask(touchingMask) & moving;
    let bounceBits = 0;
    if (touching) {
      const vn = f32x4.add(f32x4.add(f32x4.mul(vx, nx), f32x4.mul(vy, ny)), f32x4.mul(vz, nz));
      const respond = v128.and(touchingMask, f32x4.lt(vn, zero));
      const bounceMask = v128.and(respond, f32x4.lt(vn, negRestSpeed));
      bounceBits = i32x4.bitmask(bounceMask);
      const outgoing = v128.and(f32x4.mul(negRestitution, vn), bounceMask);
      const impulse = f32x4.sub(outgoing, vn);
      const tx = f32x4.sub(vx, f32x4.mul(vn, nx)),
        ty = f32x4.sub(vy, f32x4.mul(vn, ny)),
        tz = f32x4.sub(vz, f32x4.mul(vn, nz));
      const tangential = f32x4.sqrt(f32x4.add(f32x4.add(f32x4.mul(tx, tx), f32x4.mul(ty, ty)), f32x4.mul(tz, tz)));
      const keep = f32x4.max(zero, f32x4.sub(one, f32x4.div(f32x4.mul(friction, impulse), f32x4.max(tangential, tiny))));
      vx = v128.bitselect(f32x4.add(f32x4.mul(tx, keep), f32x4.mul(nx, outgoing)), vx, respond);
      vy = v128.bitselect(f32x4.add(f32x4.mul(ty, keep), f32x4.mul(ny, outgoing)), vy, respond);
      vz = v128.bitselect(f32x4.add(f32x4.mul(tz, keep), f32x4.mul(nz, outgoing)), vz, respond);
    }
    if (moving == 15) {
      storeParticles(positions + p4, px, py, pz, pw);
      storeParticles(velocities + p4, vx, vy, vz, vw);
    } else {
      for (let lane = 0; lane < 4; lane++) {
        if ((moving & (1 << lane)) == 0) continue;
        storeParticle(positions + p4 + ((<usize>lane) << 4), px, py, pz, pw, lane);
        storeParticle(velocities + p4 + ((<usize>lane) << 4), vx, vy, vz, vw, lane);
      }
    }

    const ix = i32x4.trunc_sat_f32x4_s(f32x4.floor(f32x4.mul(px, inverseSide)));
    const iy = i32x4.trunc_sat_f32x4_s(f32x4.floor(f32x4.mul(py, inverseHeight)));
    const iz = i32x4.trunc_sat_f32x4_s(f32x4.floor(f32x4.mul(pz, inverseSide)));
    const stamps = v128.xor(v128.xor(i32x4.mul(ix, stampX), i32x4.mul(iy, stampY)), i32x4.mul(iz, stampZ));
    const vnAfter = f32x4.add(f32x4.add(f32x4.mul(vx, nx), f32x4.mul(vy, ny)), f32x4.mul(vz, nz));
    const gap = f32x4.sub(f32x4.add(distance, push), radius);
    const offCourseBits = i32x4.bitmask(f32x4.gt(f32x4.add(gap, f32x4.mul(vnAfter, twiceLookahead)), zero));
    const urgentBits = i32x4.bitmask(f32x4.lt(f32x4.add(gap, f32x4.mul(vnAfter, urgentTime)), zero));
    const gapAhead = f32x4.add(gap, f32x4.mul(vnAfter, lookaheadLanes));
    const approachingBits = i32x4.bitmask(f32x4.lt(gapAhead, zero));
    const withinReachBits = i32x4.bitmask(f32x4.lt(gapAhead, askMargin));
    const speedSquared = f32x4.add(f32x4.add(f32x4.mul(vx, vx), f32x4.mul(vy, vy)), f32x4.mul(vz, vz));
    const fastBits = i32x4.bitmask(f32x4.gt(speedSquared, slidingSquared));
    const fallingBits = i32x4.bitmask(f32x4.lt(vy, zero));

    // The integer part: 4-bit lane masks, and the byte arrays widened to i32x4 lanes four at a time.
    const landing = touching & ~byteBits(load<i32>(touchingBefore + i0));
    const arrival = landing | bounceBits;
    const arrived = loadBytes(codes + i0);
    const heading = surfaceKeys ? surfaceCode : directionCodes(vx, f32x4.sub(vy, halfDrop), vz);
    const direction = v128.bitselect(arrived, heading, lanesOf(arrival));
    const changed = i32x4.bitmask(v128.or(i32x4.ne(stamps, v128.load(cellStamps + (i0 << 2))), i32x4.ne(direction, arrived)));
    let source = loadBytes(sources + i0);
    const ray = i32x4.bitmask(i32x4.eq(source, rayCode));
    const offCourse = ray & ~touching & offCourseBits;
    const stale = bounceBits | (touching & changed) | offCourse;
    source = v128.bitselect(contactCode, source, lanesOf(stale));
    const guess = 15 & ~i32x4.bitmask(i32x4.eq(source, rayCode));
    const planeless = i32x4.bitmask(i32x4.eq(source, noneCode));
    const urgent = guess & urgentBits;
    const later = guess & ~urgent & (approachingBits | (touching & fastBits) | (planeless & fallingBits));
    const ask = arrival | (cellLookups & guess & ((changed & (withinReachBits | planeless)) | urgent));
    bounces += popcnt(bounceBits & moving);

    if (moving == 15) {
      store<i32>(touchingBefore + i0, bitBytes(touching));
      store<i32>(codes + i0, packBytes(direction));
      store<i32>(sources + i0, packBytes(source));
      v128.store(cellStamps + (i0 << 2), stamps);
    } else {
      // Lanes that do not move (dead, or just died) keep their bytes.
      for (let lane = 0; lane < 4; lane++) {
        if ((moving & (1 << lane)) == 0) continue;
        const slot = i0 + <usize>lane;
        store<u8>(touchingBefore + slot, <u8>((touching >> lane) & 1));
        store<u8>(codes + slot, <u8>laneOf(direction, lane));
        store<u8>(sources + slot, <u8>laneOf(source, lane));
        store<i32>(cellStamps + (slot << 2), laneOf(stamps, lane));
      }
    }
    // The appends, in slot order as the TypeScript loop makes them. A whole quad appends with one
    // store per list, which writes four lanes: past each list's end, where nothing is kept yet, as
    // long as the quad lies in the effect and the needy lists' ends are 8 apart (else lane by lane).
    // Lane by lane, the appends were a third of the kernel's time (100k particles: 1.6 ms → 1.0 ms).
    if (i + 4 <= end && laterStart - urgentEnd >= 8) {
      const slots = i32x4.add(i32x4.splat(i), LANE_INDEX);
      appendLanes(live + ((<usize>(start + alive)) << 2), slots, moving);
      alive += popcnt(moving);
      const asking = ask & moving;
      appendLanes(askers + ((<usize>askCount) << 2), slots, asking);
      askCount += popcnt(asking);
      const urgentLanes = urgent & moving;
      appendLanes(needy + ((<usize>urgentEnd) << 2), slots, urgentLanes);
      urgentEnd += popcnt(urgentLanes);
      const laterLanes = later & moving;
      v128.store(needy + ((<usize>(laterStart - 4)) << 2), i8x16.swizzle(slots, v128.load(PACK_HIGH_REVERSED + ((<usize>laterLanes) << 4))));
      laterStart -= popcnt(laterLanes);
      continue;
    }
    for (let lane = 0; lane < 4; lane++) {
      if ((moving & (1 << lane)) == 0) continue;
      const slot = i + lane;
      store<i32>(live + ((<usize>(start + alive)) << 2), slot);
      alive++;
      store<i32>(askers + ((<usize>askCount) << 2), slot);
      askCount += (ask >> lane) & 1;
      store<i32>(needy + ((<usize>urgentEnd) << 2), slot);
      urgentEnd += (urgent >> lane) & 1;
      store<i32>(needy + ((<usize>(laterStart - 1)) << 2), slot);
      laterStart -= (later >> lane) & 1;
    }
  }
  store<i32>(out, askCount);
  store<i32>(out, urgentEnd, 4);
  store<i32>(out, laterStart, 8);
  store<i32>(out, bounces, 12);
  store<i32>(out, alive, 16);
}

// The cache phase runs in the same module: the plane caches' records share this memory with the particles.
export { askCache, askBlock, askBlockBytes } from './askCache';
// So does the heightfield net's scan, over a copy of the terrain's heights.
export { findUnder, netBlock, netBlockBytes } from './findUnder';
