// One step of motion for one particle effect, two particles at a time in f64x2: the twin of
// src/particles/moveParticles.ts (moveEffect), which documents the rules. Every float is computed in
// float64 with the same operations in the same order as the TypeScript (WebAssembly SIMD has no fused
// multiply-add), so both write the same bits: the tests compare every buffer and list exactly.
//
// The particles are stored as float4 per particle (x, y, z, unused); a pair is loaded as two f32x4,
// shuffled into x, y and z pairs and widened to f64x2, and narrowed and shuffled back on the way out
// (the unused fourth float is written back as it was). The per-particle flags are integer work on
// 2-bit lane masks, the byte arrays read and written a pair at a time; only the list appends go particle
// by particle, in slot order. Cell coordinates saturate where the TypeScript's `| 0` wraps, which only
// differs beyond 2^31 cells from the origin (far outside any world a particle survives in).
//
// Everything the step needs is in one block of memory written by src/simd/particleKernel.ts (the
// offsets below); the buffers live in this module's memory, laid out by src/particles/particleBuffers.ts.

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

function directionCode(dx: f64, dy: f64, dz: f64): i32 {
  const ax = Math.abs(dx), ay = Math.abs(dy), az = Math.abs(dz);
  const xDominant = <i32>(ax >= ay) & <i32>(ax >= az);
  const yDominant = (1 - xDominant) & <i32>(ay >= az);
  const zDominant = 1 - xDominant - yDominant;
  return xDominant * (1 - <i32>(dx > 0)) + yDominant * (3 - <i32>(dy > 0)) + zDominant * (5 - <i32>(dz > 0));
}

// Transposing a pair of float4 particles a = (x0 y0 z0 w0), b = (x1 y1 z1 w1) with shuffles that are
// one instruction each on x64 (unpack low/high of 32- and 64-bit lanes). Where the step's time goes
// (10k particles, L2-resident, measured by cutting the kernel short): ~5% ages and deaths, ~45% the
// float part (integration, plane test, contact response), ~50% the flags and list appends.
/** (x0 x1 y0 y1) */
function lowPairs(a: v128, b: v128): v128 {
  return v128.shuffle<f32>(a, b, 0, 4, 1, 5);
}
/** (z0 z1 w0 w1) */
function highPairs(a: v128, b: v128): v128 {
  return v128.shuffle<f32>(a, b, 2, 6, 3, 7);
}
/** The first two lanes of `pairs` widened to f64x2. */
function first(pairs: v128): v128 {
  return f64x2.promote_low_f32x4(pairs);
}
/** The last two lanes of `pairs` widened to f64x2. */
function second(pairs: v128): v128 {
  return f64x2.promote_low_f32x4(v128.shuffle<i64>(pairs, pairs, 1, 1));
}
/**
 * Narrows x, y, z pairs back to float32 and interleaves them with the fourth floats of the particles
 * as they were (`oldHigh` = highPairs of the old particles): (x0 y0 z0 w0) for lane 0, else lane 1's.
 */
function particleOf(x: v128, y: v128, z: v128, oldHigh: v128, lane: u8): v128 {
  const xy = v128.shuffle<f32>(f32x4.demote_f64x2_zero(x), f32x4.demote_f64x2_zero(y), 0, 4, 1, 5); // x0 y0 x1 y1
  const zw = v128.shuffle<f32>(f32x4.demote_f64x2_zero(z), v128.shuffle<i64>(oldHigh, oldHigh, 1, 1), 0, 4, 1, 5); // z0 w0 z1 w1
  return lane == 0 ? v128.shuffle<i64>(xy, zw, 0, 2) : v128.shuffle<i64>(xy, zw, 1, 3);
}

function kill(i: usize, lifetimes: usize, colours: usize): void {
  store<f32>(lifetimes + (i << 2), 0);
  store<u8>(colours + (i << 2) + 3, 0);
}

export function moveEffect(): void {
  const block = STEP_BLOCK;
  const dt = load<f64>(block + DT);
  const gravityStep = f64x2.splat(load<f64>(block + GRAVITY_STEP));
  const restSpeed = load<f64>(block + REST_SPEED);
  const decay = f64x2.splat(load<f64>(block + DECAY));
  const half = load<f64>(block + HALF);
  const floor = load<f64>(block + FLOOR);
  const negRestitution = f64x2.splat(load<f64>(block + NEG_RESTITUTION));
  const friction = f64x2.splat(load<f64>(block + FRICTION));
  const radius = f64x2.splat(load<f64>(block + RADIUS));
  const lookahead = load<f64>(block + LOOKAHEAD);
  const halfDrop = load<f64>(block + HALF_DROP);
  const inverseSide = f64x2.splat(load<f64>(block + INVERSE_SIDE));
  const inverseHeight = f64x2.splat(load<f64>(block + INVERSE_HEIGHT));
  const urgentTime = load<f64>(block + URGENT_TIME);
  const askMargin = f64x2.splat(load<f64>(block + ASK_MARGIN));
  const start = load<i32>(block + START);
  const end = load<i32>(block + END);
  const withWind = load<i32>(block + WITH_WIND) != 0;
  const cellLookups = load<i32>(block + CELL_LOOKUPS) != 0 ? 3 : 0; // a 2-bit lane mask
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
  let askCount = load<i32>(block + ASK_COUNT);
  let urgentEnd = start;
  let laterStart = end;
  let bounces: i32 = 0;
  let alive: i32 = 0;

  const dtPair = f64x2.splat(dt);
  const zero = f64x2.splat(0);
  const one = f64x2.splat(1);
  const tiny = f64x2.splat(1e-9);
  const negHalf = f64x2.splat(-half), halfPair = f64x2.splat(half), floorPair = f64x2.splat(floor);
  const negRestSpeed = f64x2.splat(-restSpeed);
  const twiceLookahead = f64x2.splat(2 * lookahead);
  const lookaheadPair = f64x2.splat(lookahead);
  const urgentPair = f64x2.splat(urgentTime);
  const slidingSquared = f64x2.splat(SLIDING_SPEED_SQUARED);
  const stampX = i32x4.splat(<i32>0x9e3779b1), stampY = i32x4.splat(<i32>0x85ebca77), stampZ = i32x4.splat(<i32>0xc2b2ae3d);

  for (let i = start; i < end; i += 2) {
    const i0 = <usize>i;
    // A lone last particle pairs with a lane of lifetime 0, which nothing writes to.
    const pairLife = i + 1 < end ? v128.load64_zero(lifetimes + (i0 << 2)) : v128.load32_zero(lifetimes + (i0 << 2));
    const life = f64x2.promote_low_f32x4(pairLife);
    const occupied = i64x2.bitmask(f64x2.ne(life, zero));
    if (occupied == 0) continue;
    const age = f64x2.add(f64x2.promote_low_f32x4(v128.load64_zero(ages + (i0 << 2))), dtPair);
    const young = i64x2.bitmask(f64x2.lt(age, life));
    // Lanes that were occupied but are too old die here.
    let dying = occupied & ~young;
    if (dying & 1) kill(i0, lifetimes, colours);
    if (dying & 2) kill(i0 + 1, lifetimes, colours);
    let moving = occupied & young;
    if (moving == 0) continue;
    const age32 = f32x4.demote_f64x2_zero(age);
    if (moving & 1) store<f32>(ages + (i0 << 2), f32x4.extract_lane(age32, 0));
    if (moving & 2) store<f32>(ages + (i0 << 2) + 4, f32x4.extract_lane(age32, 1));

    const p4 = i0 << 4;
    const v0 = v128.load(velocities + p4), v1 = v128.load(velocities + p4, 16);
    const vLow = lowPairs(v0, v1), vHigh = highPairs(v0, v1);
    let vx = first(vLow);
    let vy = f64x2.sub(second(vLow), gravityStep);
    let vz = first(vHigh);
    if (withWind) {
      const w0 = v128.load(wind + p4), w1 = v128.load(wind + p4, 16);
      const wLow = lowPairs(w0, w1);
      const wx = first(wLow), wy = second(wLow), wz = first(highPairs(w0, w1));
      vx = f64x2.add(wx, f64x2.mul(f64x2.sub(vx, wx), decay));
      vy = f64x2.add(wy, f64x2.mul(f64x2.sub(vy, wy), decay));
      vz = f64x2.add(wz, f64x2.mul(f64x2.sub(vz, wz), decay));
    } else {
      vx = f64x2.mul(vx, decay);
      vy = f64x2.mul(vy, decay);
      vz = f64x2.mul(vz, decay);
    }
    const q0 = v128.load(positions + p4), q1 = v128.load(positions + p4, 16);
    const qLow = lowPairs(q0, q1), qHigh = highPairs(q0, q1);
    let px = f64x2.add(first(qLow), f64x2.mul(vx, dtPair));
    let py = f64x2.add(second(qLow), f64x2.mul(vy, dtPair));
    let pz = f64x2.add(first(qHigh), f64x2.mul(vz, dtPair));
    const inside = v128.and(
      v128.and(f64x2.ge(px, negHalf), f64x2.le(px, halfPair)),
      v128.and(v128.and(f64x2.ge(pz, negHalf), f64x2.le(pz, halfPair)), f64x2.ge(py, floorPair)),
    );
    const lost = moving & ~i64x2.bitmask(inside);
    if (lost & 1) kill(i0, lifetimes, colours);
    if (lost & 2) kill(i0 + 1, lifetimes, colours);
    moving &= ~lost;
    if (moving == 0) continue;

    const n0 = v128.load(planes + p4), n1 = v128.load(planes + p4, 16);
    const nLow = lowPairs(n0, n1), nHigh = highPairs(n0, n1);
    const nx = first(nLow), ny = second(nLow), nz = first(nHigh), nd = second(nHigh);
    const distance = f64x2.sub(f64x2.add(f64x2.add(f64x2.mul(nx, px), f64x2.mul(ny, py)), f64x2.mul(nz, pz)), nd);
    const push = f64x2.max(zero, f64x2.sub(radius, distance));
    px = f64x2.add(px, f64x2.mul(nx, push));
    py = f64x2.add(py, f64x2.mul(ny, push));
    pz = f64x2.add(pz, f64x2.mul(nz, push));
    const touchingMask = f64x2.gt(push, zero);
    const touchingBits = i64x2.bitmask(touchingMask);
    let bounceBits = 0;
    if (touchingBits & moving) {
      const vn = f64x2.add(f64x2.add(f64x2.mul(vx, nx), f64x2.mul(vy, ny)), f64x2.mul(vz, nz));
      const respond = v128.and(touchingMask, f64x2.lt(vn, zero));
      const bounceMask = v128.and(respond, f64x2.lt(vn, negRestSpeed));
      bounceBits = i64x2.bitmask(bounceMask);
      const outgoing = v128.and(f64x2.mul(negRestitution, vn), bounceMask);
      const impulse = f64x2.sub(outgoing, vn);
      const tx = f64x2.sub(vx, f64x2.mul(vn, nx)), ty = f64x2.sub(vy, f64x2.mul(vn, ny)), tz = f64x2.sub(vz, f64x2.mul(vn, nz));
      const tangential = f64x2.sqrt(f64x2.add(f64x2.add(f64x2.mul(tx, tx), f64x2.mul(ty, ty)), f64x2.mul(tz, tz)));
      const keep = f64x2.max(zero, f64x2.sub(one, f64x2.div(f64x2.mul(friction, impulse), f64x2.max(tangential, tiny))));
      vx = v128.bitselect(f64x2.add(f64x2.mul(tx, keep), f64x2.mul(nx, outgoing)), vx, respond);
      vy = v128.bitselect(f64x2.add(f64x2.mul(ty, keep), f64x2.mul(ny, outgoing)), vy, respond);
      vz = v128.bitselect(f64x2.add(f64x2.mul(tz, keep), f64x2.mul(nz, outgoing)), vz, respond);
    }
    if (moving & 1) {
      v128.store(positions + p4, particleOf(px, py, pz, qHigh, 0));
      v128.store(velocities + p4, particleOf(vx, vy, vz, vHigh, 0));
    }
    if (moving & 2) {
      v128.store(positions + p4, particleOf(px, py, pz, qHigh, 1), 16);
      v128.store(velocities + p4, particleOf(vx, vy, vz, vHigh, 1), 16);
    }

    const ix = i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(f64x2.mul(px, inverseSide)));
    const iy = i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(f64x2.mul(py, inverseHeight)));
    const iz = i32x4.trunc_sat_f64x2_s_zero(f64x2.floor(f64x2.mul(pz, inverseSide)));
    const stamps = v128.xor(v128.xor(i32x4.mul(ix, stampX), i32x4.mul(iy, stampY)), i32x4.mul(iz, stampZ));
    const vnAfter = f64x2.add(f64x2.add(f64x2.mul(vx, nx), f64x2.mul(vy, ny)), f64x2.mul(vz, nz));
    const gap = f64x2.sub(f64x2.add(distance, push), radius);
    const offCourseBits = i64x2.bitmask(f64x2.gt(f64x2.add(gap, f64x2.mul(vnAfter, twiceLookahead)), zero));
    const urgentBits = i64x2.bitmask(f64x2.lt(f64x2.add(gap, f64x2.mul(vnAfter, urgentPair)), zero));
    const gapAhead = f64x2.add(gap, f64x2.mul(vnAfter, lookaheadPair));
    const approachingBits = i64x2.bitmask(f64x2.lt(gapAhead, zero));
    const withinReachBits = i64x2.bitmask(f64x2.lt(gapAhead, askMargin));
    const speedSquared = f64x2.add(f64x2.add(f64x2.mul(vx, vx), f64x2.mul(vy, vy)), f64x2.mul(vz, vz));
    const fastBits = i64x2.bitmask(f64x2.gt(speedSquared, slidingSquared));
    const fallingBits = i64x2.bitmask(f64x2.lt(vy, zero));

    // The integer part, both lanes at once as 2-bit masks (bit 0 = slot i, bit 1 = slot i + 1); the
    // byte arrays are read and written a pair at a time.
    const touching = touchingBits & moving;
    const before = <i32>load<u16>(touchingBefore + i0);
    const landing = touching & ~((before & 1) | ((before >> 7) & 2));
    const arrival = landing | bounceBits;
    const arrivedPair = <i32>load<u16>(codes + i0);
    const arrived0 = arrivedPair & 0xff, arrived1 = arrivedPair >> 8;
    let heading0 = SURFACE_CODE, heading1 = SURFACE_CODE;
    if (!surfaceKeys) {
      const headingY = f64x2.sub(vy, f64x2.splat(halfDrop));
      heading0 = directionCode(f64x2.extract_lane(vx, 0), f64x2.extract_lane(headingY, 0), f64x2.extract_lane(vz, 0));
      heading1 = directionCode(f64x2.extract_lane(vx, 1), f64x2.extract_lane(headingY, 1), f64x2.extract_lane(vz, 1));
    }
    const direction0 = select(arrived0, heading0, arrival & 1);
    const direction1 = select(arrived1, heading1, arrival & 2);
    const changed = (i32x4.bitmask(i32x4.ne(stamps, v128.load64_zero(cellStamps + (i0 << 2)))) & 3) | <i32>(direction0 != arrived0) | (<i32>(direction1 != arrived1) << 1);
    const sourcePair = <i32>load<u16>(sources + i0);
    let source0 = sourcePair & 0xff, source1 = sourcePair >> 8;
    const ray = <i32>(source0 == PLANE_RAY) | (<i32>(source1 == PLANE_RAY) << 1);
    const offCourse = ray & ~touching & offCourseBits;
    const stale = bounceBits | (touching & changed) | offCourse;
    source0 = select(PLANE_CONTACT, source0, stale & 1);
    source1 = select(PLANE_CONTACT, source1, stale & 2);
    const guess = 3 & ~(<i32>(source0 == PLANE_RAY) | (<i32>(source1 == PLANE_RAY) << 1));
    const planeless = <i32>(source0 == PLANE_NONE) | (<i32>(source1 == PLANE_NONE) << 1);
    const urgent = guess & urgentBits;
    const later = guess & ~urgent & (approachingBits | (touching & fastBits) | (planeless & fallingBits));
    const ask = arrival | (cellLookups & guess & ((changed & (withinReachBits | planeless)) | urgent));
    bounces += popcnt(bounceBits & moving);

    if (moving == 3) {
      store<u16>(touchingBefore + i0, <u16>((touching & 1) | ((touching & 2) << 7)));
      store<u16>(codes + i0, <u16>(direction0 | (direction1 << 8)));
      store<u16>(sources + i0, <u16>(source0 | (source1 << 8)));
      v128.store64_lane(cellStamps + (i0 << 2), stamps, 0);
    } else {
      // One lane moves: the other (dead, or just died) keeps its bytes.
      const lane: usize = moving >> 1;
      const slot = i0 + lane;
      store<u8>(touchingBefore + slot, <u8>((touching >> <i32>lane) & 1));
      store<u8>(codes + slot, <u8>(lane == 0 ? direction0 : direction1));
      store<u8>(sources + slot, <u8>(lane == 0 ? source0 : source1));
      store<i32>(cellStamps + (slot << 2), lane == 0 ? i32x4.extract_lane(stamps, 0) : i32x4.extract_lane(stamps, 1));
    }
    // The appends, in slot order as the TypeScript loop makes them.
    if (moving & 1) {
      store<i32>(live + (<usize>(start + alive) << 2), <i32>i0);
      alive++;
      store<i32>(askers + (<usize>askCount << 2), <i32>i0);
      askCount += ask & 1;
      store<i32>(needy + (<usize>urgentEnd << 2), <i32>i0);
      urgentEnd += urgent & 1;
      store<i32>(needy + (<usize>(laterStart - 1) << 2), <i32>i0);
      laterStart -= later & 1;
    }
    if (moving & 2) {
      const slot = <i32>i0 + 1;
      store<i32>(live + (<usize>(start + alive) << 2), slot);
      alive++;
      store<i32>(askers + (<usize>askCount << 2), slot);
      askCount += ask >> 1;
      store<i32>(needy + (<usize>urgentEnd << 2), slot);
      urgentEnd += urgent >> 1;
      store<i32>(needy + (<usize>(laterStart - 1) << 2), slot);
      laterStart -= later >> 1;
    }
  }
  store<i32>(block + ASK_COUNT, askCount);
  store<i32>(block + URGENT_END, urgentEnd);
  store<i32>(block + LATER_START, laterStart);
  store<i32>(block + BOUNCES, bounces);
  store<i32>(block + ALIVE, alive);
}
