// One axis-aligned box against a run of triangles of an indexed mesh, two triangles at a time in f64x2
// lanes. The twin of src/query/boxTriangle/mollerV1.ts and optimized.ts: the same answer, bit for bit,
// on every finite input, because every test evaluates mollerV1's float64 expression for its axis in the
// same order (no fused operations exist in WebAssembly SIMD); only the control flow differs:
//  - a pair whose two triangles both lie beyond one face of the box on x is skipped after the x rows;
//  - a pair whose two triangles are both contained (every vertex inside) overlaps at once, as in the
//    optimized test, which proves that none of the 13 axes can then separate;
//  - otherwise the 13 tests run for both lanes and their "separated" masks are or-ed, branch-free
//    within each group ("min(a, b, c) > h or max(a, b, c) < −h" is "a, b, c all > h, or all < −h",
//    exact for non-NaN); the pair leaves after the box axes and after the plane when both lanes are
//    already separated.
// The plane test picks the box corners by the sign of n as planeBoxOverlapV1 does, with bitselect.
//
// Memory (addresses owned by src/query/boxTriangle/boxTriangleKernel.ts): box = 6 × f64 (cx, cy, cz, hx, hy, hz);
// positions = f32 xyz per vertex; indices = 3 × u32 per triangle; ids = the run's triangle ids (u32), or
// 0 for the identity run first .. first + count − 1; out = one byte per triangle of the run, 1 when it
// overlaps the box. Returns how many overlap.
//
// The small helpers below carry no @inline decorator: -O3 inlines them anyway, and a decorator on a
// function is not TypeScript, which the dev server's dependency scan of src/ would fail to parse.

/** Where JavaScript may start placing data. */
export function heapBase(): usize {
  return __heap_base;
}

function vertexLane(positions: usize, indices: usize, triangle: u32, corner: u32): usize {
  return positions + <usize>load<u32>(indices + ((<usize>triangle * 3 + corner) << 2)) * 12;
}

/** 1 in both lanes' bits where every value of the lane is > h, or every one < −h. */
function apart3(a: v128, b: v128, c: v128, h: v128, negativeH: v128): v128 {
  const above = v128.and(v128.and(f64x2.gt(a, h), f64x2.gt(b, h)), f64x2.gt(c, h));
  const below = v128.and(v128.and(f64x2.lt(a, negativeH), f64x2.lt(b, negativeH)), f64x2.lt(c, negativeH));
  return v128.or(above, below);
}

/** The edge test's "min(p, q) > r or max(p, q) < −r". */
function apart2(p: v128, q: v128, r: v128): v128 {
  const negativeR = f64x2.neg(r);
  return v128.or(v128.and(f64x2.gt(p, r), f64x2.gt(q, r)), v128.and(f64x2.lt(p, negativeR), f64x2.lt(q, negativeR)));
}

/**
 * The pair's final "separated" lanes (all ones where the triangle misses the box) from its vertices
 * relative to the box centre, given the lanes the x axis already separates: contained lanes overlap,
 * the others go through the box's y and z axes, the plane and the nine edge axes, as mollerV1 does.
 */
function separatedLanes(
  v0x: v128,
  v0y: v128,
  v0z: v128,
  v1x: v128,
  v1y: v128,
  v1z: v128,
  v2x: v128,
  v2y: v128,
  v2z: v128,
  hx: v128,
  hy: v128,
  hz: v128,
  nhx: v128,
  nhy: v128,
  nhz: v128,
  separated: v128,
): v128 {
  // Contained: |v| ≤ h on every axis for all three vertices (as computed), then no axis separates.
  const inside0 = v128.and(v128.and(f64x2.le(f64x2.abs(v0x), hx), f64x2.le(f64x2.abs(v0y), hy)), f64x2.le(f64x2.abs(v0z), hz));
  const inside1 = v128.and(v128.and(f64x2.le(f64x2.abs(v1x), hx), f64x2.le(f64x2.abs(v1y), hy)), f64x2.le(f64x2.abs(v1z), hz));
  const inside2 = v128.and(v128.and(f64x2.le(f64x2.abs(v2x), hx), f64x2.le(f64x2.abs(v2y), hy)), f64x2.le(f64x2.abs(v2z), hz));
  const contained = v128.and(v128.and(inside0, inside1), inside2);
  if (!i64x2.all_true(contained)) {
    // 1. The box's y and z axes (x is above).
    separated = v128.or(separated, apart3(v0y, v1y, v2y, hy, nhy));
    separated = v128.or(separated, apart3(v0z, v1z, v2z, hz, nhz));
    if (!i64x2.all_true(separated)) {
      // 2. The triangle's plane n·x + d = 0 through v0, against the box corners picked by n's signs.
      const e0x = f64x2.sub(v1x, v0x),
        e0y = f64x2.sub(v1y, v0y),
        e0z = f64x2.sub(v1z, v0z);
      const e1x = f64x2.sub(v2x, v1x),
        e1y = f64x2.sub(v2y, v1y),
        e1z = f64x2.sub(v2z, v1z);
      const nx = f64x2.sub(f64x2.mul(e0y, e1z), f64x2.mul(e0z, e1y));
      const ny = f64x2.sub(f64x2.mul(e0z, e1x), f64x2.mul(e0x, e1z));
      const nz = f64x2.sub(f64x2.mul(e0x, e1y), f64x2.mul(e0y, e1x));
      const d = f64x2.neg(f64x2.add(f64x2.add(f64x2.mul(nx, v0x), f64x2.mul(ny, v0y)), f64x2.mul(nz, v0z)));
      const zero = f64x2.splat(0);
      const positiveX = f64x2.gt(nx, zero),
        positiveY = f64x2.gt(ny, zero),
        positiveZ = f64x2.gt(nz, zero);
      const minX = v128.bitselect(nhx, hx, positiveX),
        maxX = v128.bitselect(hx, nhx, positiveX);
      const minY = v128.bitselect(nhy, hy, positiveY),
        maxY = v128.bitselect(hy, nhy, positiveY);
      const minZ = v128.bitselect(nhz, hz, positiveZ),
        maxZ = v128.bitselect(hz, nhz, positiveZ);
      const nearSide = f64x2.add(f64x2.add(f64x2.add(f64x2.mul(nx, minX), f64x2.mul(ny, minY)), f64x2.mul(nz, minZ)), d);
      const farSide = f64x2.add(f64x2.add(f64x2.add(f64x2.mul(nx, maxX), f64x2.mul(ny, maxY)), f64x2.mul(nz, maxZ)), d);
      // planeBoxOverlapV1 is false when nearSide > 0, else true exactly when farSide ≥ 0.
      separated = v128.or(separated, v128.or(f64x2.gt(nearSide, zero), v128.not(f64x2.ge(farSide, zero))));
      if (!i64x2.all_true(separated)) {
        // 3. Edge × axis, each projecting the two vertices mollerV1 projects.
        const e2x = f64x2.sub(v0x, v2x),
          e2y = f64x2.sub(v0y, v2y),
          e2z = f64x2.sub(v0z, v2z);
        let fex = f64x2.abs(e0x),
          fey = f64x2.abs(e0y),
          fez = f64x2.abs(e0z);
        separated = v128.or(
          separated,
          apart2(
            f64x2.sub(f64x2.mul(e0z, v0y), f64x2.mul(e0y, v0z)),
            f64x2.sub(f64x2.mul(e0z, v2y), f64x2.mul(e0y, v2z)),
            f64x2.add(f64x2.mul(fez, hy), f64x2.mul(fey, hz)),
          ),
        );
        separated = v128.or(
          separated,
          apart2(
            f64x2.add(f64x2.mul(f64x2.neg(e0z), v0x), f64x2.mul(e0x, v0z)),
            f64x2.add(f64x2.mul(f64x2.neg(e0z), v2x), f64x2.mul(e0x, v2z)),
            f64x2.add(f64x2.mul(fez, hx), f64x2.mul(fex, hz)),
          ),
        );
        separated = v128.or(
          separated,
          apart2(
            f64x2.sub(f64x2.mul(e0y, v1x), f64x2.mul(e0x, v1y)),
            f64x2.sub(f64x2.mul(e0y, v2x), f64x2.mul(e0x, v2y)),
            f64x2.add(f64x2.mul(fey, hx), f64x2.mul(fex, hy)),
          ),
        );

        fex = f64x2.abs(e1x);
        fey = f64x2.abs(e1y);
        fez = f64x2.abs(e1z);
        separated = v128.or(
          separated,
          apart2(
            f64x2.sub(f64x2.mul(e1z, v0y), f64x2.mul(e1y, v0z)),
            f64x2.sub(f64x2.mul(e1z, v2y), f64x2.mul(e1y, v2z)),
            f64x2.add(f64x2.mul(fez, hy), f64x2.mul(fey, hz)),
          ),
        );
        separated = v128.or(
          separated,
          apart2(
            f64x2.add(f64x2.mul(f64x2.neg(e1z), v0x), f64x2.mul(e1x, v0z)),
            f64x2.add(f64x2.mul(f64x2.neg(e1z), v2x), f64x2.mul(e1x, v2z)),
            f64x2.add(f64x2.mul(fez, hx), f64x2.mul(fex, hz)),
          ),
        );
        separated = v128.or(
          separated,
          apart2(
            f64x2.sub(f64x2.mul(e1y, v0x), f64x2.mul(e1x, v0y)),
            f64x2.sub(f64x2.mul(e1y, v1x), f64x2.mul(e1x, v1y)),
            f64x2.add(f64x2.mul(fey, hx), f64x2.mul(fex, hy)),
          ),
        );

        fex = f64x2.abs(e2x);
        fey = f64x2.abs(e2y);
        fez = f64x2.abs(e2z);
        separated = v128.or(
          separated,
          apart2(
            f64x2.sub(f64x2.mul(e2z, v0y), f64x2.mul(e2y, v0z)),
            f64x2.sub(f64x2.mul(e2z, v1y), f64x2.mul(e2y, v1z)),
            f64x2.add(f64x2.mul(fez, hy), f64x2.mul(fey, hz)),
          ),
        );
        separated = v128.or(
          separated,
          apart2(
            f64x2.add(f64x2.mul(f64x2.neg(e2z), v0x), f64x2.mul(e2x, v0z)),
            f64x2.add(f64x2.mul(f64x2.neg(e2z), v1x), f64x2.mul(e2x, v1z)),
            f64x2.add(f64x2.mul(fez, hx), f64x2.mul(fex, hz)),
          ),
        );
        separated = v128.or(
          separated,
          apart2(
            f64x2.sub(f64x2.mul(e2y, v1x), f64x2.mul(e2x, v1y)),
            f64x2.sub(f64x2.mul(e2y, v2x), f64x2.mul(e2x, v2y)),
            f64x2.add(f64x2.mul(fey, hx), f64x2.mul(fex, hy)),
          ),
        );
      }
    }
    // A contained lane overlaps whatever the other lane's tests said (none of its axes can separate).
    separated = v128.andnot(separated, contained);
  } else {
    separated = f64x2.splat(0);
  }
  return separated;
}

export function overlapBoxTriangles(box: usize, positions: usize, indices: usize, ids: usize, first: u32, count: u32, out: usize): u32 {
  const cx = f64x2.splat(load<f64>(box)),
    cy = f64x2.splat(load<f64>(box, 8)),
    cz = f64x2.splat(load<f64>(box, 16));
  const hx = f64x2.splat(load<f64>(box, 24)),
    hy = f64x2.splat(load<f64>(box, 32)),
    hz = f64x2.splat(load<f64>(box, 40));
  const nhx = f64x2.neg(hx),
    nhy = f64x2.neg(hy),
    nhz = f64x2.neg(hz);
  let overlaps: u32 = 0;
  let k: u32 = 0;
  while (k < count) {
    // Two lanes; an odd run's last pair repeats its triangle in lane 1 and keeps lane 0's answer.
    const second = k + 1 < count ? k + 1 : k;
    const t0 = ids == 0 ? first + k : load<u32>(ids + ((<usize>(first + k)) << 2));
    const t1 = ids == 0 ? first + second : load<u32>(ids + ((<usize>(first + second)) << 2));
    const a0 = vertexLane(positions, indices, t0, 0),
      a1 = vertexLane(positions, indices, t1, 0);
    const b0 = vertexLane(positions, indices, t0, 1),
      b1 = vertexLane(positions, indices, t1, 1);
    const c0 = vertexLane(positions, indices, t0, 2),
      c1 = vertexLane(positions, indices, t1, 2);
    // Everything relative to the box centre, in float64 as mollerV1 computes it.
    const v0x = f64x2.sub(f64x2.replace_lane(f64x2.splat(<f64>load<f32>(a0)), 1, <f64>load<f32>(a1)), cx);
    const v1x = f64x2.sub(f64x2.replace_lane(f64x2.splat(<f64>load<f32>(b0)), 1, <f64>load<f32>(b1)), cx);
    const v2x = f64x2.sub(f64x2.replace_lane(f64x2.splat(<f64>load<f32>(c0)), 1, <f64>load<f32>(c1)), cx);
    let separated = apart3(v0x, v1x, v2x, hx, nhx);
    if (i64x2.all_true(separated)) {
      store<u8>(out + k, 0);
      if (second != k) store<u8>(out + second, 0);
      k += 2;
      continue;
    }
    const v0y = f64x2.sub(f64x2.replace_lane(f64x2.splat(<f64>load<f32>(a0, 4)), 1, <f64>load<f32>(a1, 4)), cy);
    const v1y = f64x2.sub(f64x2.replace_lane(f64x2.splat(<f64>load<f32>(b0, 4)), 1, <f64>load<f32>(b1, 4)), cy);
    const v2y = f64x2.sub(f64x2.replace_lane(f64x2.splat(<f64>load<f32>(c0, 4)), 1, <f64>load<f32>(c1, 4)), cy);
    const v0z = f64x2.sub(f64x2.replace_lane(f64x2.splat(<f64>load<f32>(a0, 8)), 1, <f64>load<f32>(a1, 8)), cz);
    const v1z = f64x2.sub(f64x2.replace_lane(f64x2.splat(<f64>load<f32>(b0, 8)), 1, <f64>load<f32>(b1, 8)), cz);
    const v2z = f64x2.sub(f64x2.replace_lane(f64x2.splat(<f64>load<f32>(c0, 8)), 1, <f64>load<f32>(c1, 8)), cz);

    separated = separatedLanes(v0x, v0y, v0z, v1x, v1y, v1z, v2x, v2y, v2z, hx, hy, hz, nhx, nhy, nhz, separated);
    const hit0: u32 = i64x2.extract_lane(separated, 0) == 0 ? 1 : 0;
    const hit1: u32 = i64x2.extract_lane(separated, 1) == 0 ? 1 : 0;
    store<u8>(out + k, <u8>hit0);
    overlaps += hit0;
    if (second != k) {
      store<u8>(out + second, <u8>hit1);
      overlaps += hit1;
    }
    k += 2;
  }
  return overlaps;
}

// Triangle rows: a resident copy of the triangles in float32, four to a group of nine f32x4 (a.x of the
// four, a.y, a.z, b.x … c.z: 144 bytes), in the order of a BVH's leaves, so a leaf's triangles are a few
// consecutive groups and one load fetches a coordinate of four triangles. A group is gathered from the
// mesh the first time a box reaches it (ready[g] = 1) and read directly after that.
//
// The float32 pass decides the lanes it can decide exactly: every vertex inside `inner` (the box shrunk by
// a margin, rounded inwards to float32) is contained; all three vertices beyond the same face of `outer`
// (grown by the margin, rounded outwards) are separated. The margin (2⁻³⁰ of the box's coordinates,
// src/query/boxTriangle/boxTriangleKernel.ts) dwarfs float64's rounding of v − c, so both decisions are
// the ones mollerV1 reaches in float64. The other lanes take the exact test two at a time, on f64x2
// promoted from the rows (the mesh's float32 values, so exactly the pair path's numbers).
//
// The lanes still undecided then take a float32 screen of all 13 axes (screenGroup below), four at a
// time, which decides every lane whose every axis is clear of its boundary by a bound on the rounding
// of both float32 and float64; only the lanes it leaves (an axis within that bound of touching, or
// coordinates out of its range) take the exact test.
//
// bounds = 12 × f32: inner min xyz, inner max xyz, outer min xyz, outer max xyz; then the screen's 8 × f32
// (at bounds + 48): the box centre and half sizes rounded to float32, the largest |half size|, and the
// largest |centre coordinate| rounded up.

const ROW_GROUP_BYTES: usize = 144;
/** A 4-bit lane mask spread to four bytes of 0 or 1 (lane 0 in the lowest byte). */
const LANE_BYTES = memory.data<u32>([
  0x00000000, 0x00000001, 0x00000100, 0x00000101, 0x00010000, 0x00010001, 0x00010100, 0x00010101, 0x01000000, 0x01000001, 0x01000100, 0x01000101,
  0x01010000, 0x01010001, 0x01010100, 0x01010101,
]);

function fillGroup(positions: usize, indices: usize, order: usize, references: u32, group: u32, rows: usize): void {
  const at = rows + <usize>group * ROW_GROUP_BYTES;
  for (let lane: u32 = 0; lane < 4; lane++) {
    // Lanes past the last reference repeat it; the range check never lets them decide anything.
    let reference = group * 4 + lane;
    if (reference >= references) reference = references - 1;
    const triangle = order == 0 ? reference : load<u32>(order + ((<usize>reference) << 2));
    for (let corner: u32 = 0; corner < 3; corner++) {
      const vertex = vertexLane(positions, indices, triangle, corner);
      const column = at + ((<usize>corner * 3) << 4) + ((<usize>lane) << 2);
      store<f32>(column, load<f32>(vertex));
      store<f32>(column + 16, load<f32>(vertex, 4));
      store<f32>(column + 32, load<f32>(vertex, 8));
    }
  }
}

/** Lanes whose vertex (x, y, z at `at`, 16 bytes apart) lies inside the inner bounds (bounds + 0 .. 20). */
function within(at: usize, bounds: usize): v128 {
  const x = v128.load(at),
    y = v128.load(at, 16),
    z = v128.load(at, 32);
  const inX = v128.and(f32x4.ge(x, v128.load32_splat(bounds)), f32x4.le(x, v128.load32_splat(bounds, 12)));
  const inY = v128.and(f32x4.ge(y, v128.load32_splat(bounds, 4)), f32x4.le(y, v128.load32_splat(bounds, 16)));
  const inZ = v128.and(f32x4.ge(z, v128.load32_splat(bounds, 8)), f32x4.le(z, v128.load32_splat(bounds, 20)));
  return v128.and(v128.and(inX, inY), inZ);
}

/** Lanes whose three vertices' coordinate at `at` (+48, +96 for b and c) all lie beyond the outer bound `low` or `high`. */
function beyond(at: usize, low: v128, high: v128): v128 {
  const a = v128.load(at),
    b = v128.load(at, 48),
    c = v128.load(at, 96);
  const above = v128.and(v128.and(f32x4.gt(a, high), f32x4.gt(b, high)), f32x4.gt(c, high));
  const below = v128.and(v128.and(f32x4.lt(a, low), f32x4.lt(b, low)), f32x4.lt(c, low));
  return v128.or(above, below);
}

/** Lanes 2 and 3 of a row as f64x2, minus the box centre, as mollerV1 computes v − c. */
function highPair(row: v128, centre: v128): v128 {
  return f64x2.sub(f64x2.promote_low_f32x4(v128.shuffle<i64>(row, row, 1, 0)), centre);
}

function lowPair(row: v128, centre: v128): v128 {
  return f64x2.sub(f64x2.promote_low_f32x4(row), centre);
}

/**
 * mollerV1's answer for lanes 0 and 1 (`high` false) or 2 and 3 of the group at `at`: the exact f64x2
 * test on the rows' coordinates, which are the mesh's float32 values, so the same as the pair path.
 * Returns the two lanes' "separated" masks.
 */
function exactPair(at: usize, high: bool, box: usize): v128 {
  const cx = v128.load64_splat(box),
    cy = v128.load64_splat(box, 8),
    cz = v128.load64_splat(box, 16);
  const hx = v128.load64_splat(box, 24),
    hy = v128.load64_splat(box, 32),
    hz = v128.load64_splat(box, 40);
  let v0x: v128, v0y: v128, v0z: v128, v1x: v128, v1y: v128, v1z: v128, v2x: v128, v2y: v128, v2z: v128;
  if (high) {
    v0x = highPair(v128.load(at), cx);
    v0y = highPair(v128.load(at, 16), cy);
    v0z = highPair(v128.load(at, 32), cz);
    v1x = highPair(v128.load(at, 48), cx);
    v1y = highPair(v128.load(at, 64), cy);
    v1z = highPair(v128.load(at, 80), cz);
    v2x = highPair(v128.load(at, 96), cx);
    v2y = highPair(v128.load(at, 112), cy);
    v2z = highPair(v128.load(at, 128), cz);
  } else {
    v0x = lowPair(v128.load(at), cx);
    v0y = lowPair(v128.load(at, 16), cy);
    v0z = lowPair(v128.load(at, 32), cz);
    v1x = lowPair(v128.load(at, 48), cx);
    v1y = lowPair(v128.load(at, 64), cy);
    v1z = lowPair(v128.load(at, 80), cz);
    v2x = lowPair(v128.load(at, 96), cx);
    v2y = lowPair(v128.load(at, 112), cy);
    v2z = lowPair(v128.load(at, 128), cz);
  }
  const nhx = f64x2.neg(hx),
    nhy = f64x2.neg(hy),
    nhz = f64x2.neg(hz);
  return separatedLanes(v0x, v0y, v0z, v1x, v1y, v1z, v2x, v2y, v2z, hx, hy, hz, nhx, nhy, nhz, apart3(v0x, v1x, v2x, hx, nhx));
}

/** Float32 range the screen decides in: coordinates ≥ 2⁻²⁰ in size (no underflow comes near its margins) and ≤ 2⁴⁰ (no overflow). */
const SCREEN_SMALLEST: f32 = 9.5367431640625e-7; // 2^-20
const SCREEN_LARGEST: f32 = 1099511627776; // 2^40

/**
 * How far the span [min(p, q), max(p, q)] lies beyond [−r, r] (p, q, r as one v1 axis test compares them):
 * positive when it lies beyond, by the gap; negative when it reaches past both ends, by the lesser overreach.
 * (pmin and pmax, one instruction each, where min and max pay for NaN and −0 rules: the screen's lanes are finite.)
 */
function beyondBy(p: v128, q: v128, r: v128): v128 {
  return f32x4.pmax(f32x4.sub(f32x4.pmin(p, q), r), f32x4.neg(f32x4.add(r, f32x4.pmax(p, q))));
}

/**
 * A float32 screen of mollerV1's 13 axes for the four lanes of a group. Every quantity a v1 axis test
 * compares (v − c against h; an edge axis' projections against its radius; the plane's |n·v0| against
 * Σ|nᵢ|hᵢ) is a polynomial of degree 1, 2 or 3 in coordinates of size ≤ S (S: the lane's largest
 * |v − c| or half size). Rounding v − c to float32 moves a coordinate by ≤ 2⁻²³·T (T = S + the largest
 * |c|), and float32 arithmetic moves the results by ≤ 2⁻²¹·T (degree 1), 2⁻¹⁷·T·S (2) and 2⁻¹⁴·T·S² (3),
 * that rounding included; float64 adds 2²⁹ times less. The margins below are 2⁵–2⁶ times those bounds: an axis that
 * separates in the screen by more than its margin separates in v1 too, and one clear by more than its
 * margin on both sides does not separate in v1. A lane is decided separated when one axis decides it,
 * overlapping when all 13 are clear; lanes out of the range (NaN, infinity, S < 2⁻²⁰, T > 2⁴⁰) decide
 * nothing. Axes sharing a margin are folded into their largest beyondBy: one is beyond by more than the
 * margin exactly when the largest is, and all are clear exactly when the largest is. It returns early
 * once every lane of `undecided` is separated. Returns the decided-overlap lanes in bits 0–3 and the decided-separated lanes in bits 4–7.
 */
function screenGroup(at: usize, screen: usize, undecided: i32): i32 {
  const cx = v128.load32_splat(screen),
    cy = v128.load32_splat(screen, 4),
    cz = v128.load32_splat(screen, 8);
  const hx = v128.load32_splat(screen, 12),
    hy = v128.load32_splat(screen, 16),
    hz = v128.load32_splat(screen, 20);
  const x0 = f32x4.sub(v128.load(at), cx),
    y0 = f32x4.sub(v128.load(at, 16), cy),
    z0 = f32x4.sub(v128.load(at, 32), cz);
  const x1 = f32x4.sub(v128.load(at, 48), cx),
    y1 = f32x4.sub(v128.load(at, 64), cy),
    z1 = f32x4.sub(v128.load(at, 80), cz);
  const x2 = f32x4.sub(v128.load(at, 96), cx),
    y2 = f32x4.sub(v128.load(at, 112), cy),
    z2 = f32x4.sub(v128.load(at, 128), cz);
  // S and T; pmax drops a NaN, so the sum of the coordinates (NaN if any is NaN or ±∞ meet) rules NaN out.
  let size = f32x4.pmax(v128.load32_splat(screen, 24), f32x4.pmax(f32x4.pmax(f32x4.abs(x0), f32x4.abs(y0)), f32x4.abs(z0)));
  size = f32x4.pmax(size, f32x4.pmax(f32x4.pmax(f32x4.abs(x1), f32x4.abs(y1)), f32x4.abs(z1)));
  size = f32x4.pmax(size, f32x4.pmax(f32x4.pmax(f32x4.abs(x2), f32x4.abs(y2)), f32x4.abs(z2)));
  const sum = f32x4.add(f32x4.add(f32x4.add(x0, y0), f32x4.add(z0, x1)), f32x4.add(f32x4.add(y1, z1), f32x4.add(f32x4.add(x2, y2), z2)));
  const reach = f32x4.add(size, v128.load32_splat(screen, 28));
  const inRange = v128.and(f32x4.eq(sum, sum), v128.and(f32x4.ge(size, f32x4.splat(SCREEN_SMALLEST)), f32x4.le(reach, f32x4.splat(SCREEN_LARGEST))));
  if (!v128.any_true(inRange)) return 0;
  const m1 = f32x4.mul(reach, f32x4.splat(1.52587890625e-5)); // 2^-16·T
  const m2 = f32x4.mul(f32x4.mul(reach, size), f32x4.splat(2.44140625e-4)); // 2^-12·T·S
  const m3 = f32x4.mul(f32x4.mul(m2, size), f32x4.splat(16)); // 2^-8·T·S²
  // 1. The box's axes: the triangle's span on each against ±h.
  const boxBeyond = f32x4.pmax(
    f32x4.pmax(
      beyondBy(f32x4.pmin(f32x4.pmin(x0, x1), x2), f32x4.pmax(f32x4.pmax(x0, x1), x2), hx),
      beyondBy(f32x4.pmin(f32x4.pmin(y0, y1), y2), f32x4.pmax(f32x4.pmax(y0, y1), y2), hy),
    ),
    beyondBy(f32x4.pmin(f32x4.pmin(z0, z1), z2), f32x4.pmax(f32x4.pmax(z0, z1), z2), hz),
  );
  // 2. The plane through v0 with normal n = e0 × e1: |n·v0| against Σ|nᵢ|hᵢ.
  const e0x = f32x4.sub(x1, x0),
    e0y = f32x4.sub(y1, y0),
    e0z = f32x4.sub(z1, z0);
  const e1x = f32x4.sub(x2, x1),
    e1y = f32x4.sub(y2, y1),
    e1z = f32x4.sub(z2, z1);
  const nx = f32x4.sub(f32x4.mul(e0y, e1z), f32x4.mul(e0z, e1y));
  const ny = f32x4.sub(f32x4.mul(e0z, e1x), f32x4.mul(e0x, e1z));
  const nz = f32x4.sub(f32x4.mul(e0x, e1y), f32x4.mul(e0y, e1x));
  const distance = f32x4.abs(f32x4.add(f32x4.add(f32x4.mul(nx, x0), f32x4.mul(ny, y0)), f32x4.mul(nz, z0)));
  const radius = f32x4.add(f32x4.add(f32x4.mul(f32x4.abs(nx), hx), f32x4.mul(f32x4.abs(ny), hy)), f32x4.mul(f32x4.abs(nz), hz));
  const planeBeyond = f32x4.sub(distance, radius);
  // Most lanes that miss are settled by now: leave when every undecided lane is, as v1 leaves at its first separating axis.
  let separatedBits = i32x4.bitmask(v128.and(v128.or(f32x4.gt(boxBeyond, m1), f32x4.gt(planeBeyond, m3)), inRange));
  if ((separatedBits & undecided) == undecided) return separatedBits << 4;
  // 3. Edge × axis: an edge's two ends project alike, so its far vertex and one end span the triangle.
  const e2x = f32x4.sub(x0, x2),
    e2y = f32x4.sub(y0, y2),
    e2z = f32x4.sub(z0, z2);
  let ax = f32x4.abs(e0x),
    ay = f32x4.abs(e0y),
    az = f32x4.abs(e0z);
  let edgeBeyond = beyondBy(
    f32x4.sub(f32x4.mul(e0z, y0), f32x4.mul(e0y, z0)),
    f32x4.sub(f32x4.mul(e0z, y2), f32x4.mul(e0y, z2)),
    f32x4.add(f32x4.mul(az, hy), f32x4.mul(ay, hz)),
  );
  edgeBeyond = f32x4.pmax(
    edgeBeyond,
    beyondBy(
      f32x4.sub(f32x4.mul(e0x, z0), f32x4.mul(e0z, x0)),
      f32x4.sub(f32x4.mul(e0x, z2), f32x4.mul(e0z, x2)),
      f32x4.add(f32x4.mul(az, hx), f32x4.mul(ax, hz)),
    ),
  );
  edgeBeyond = f32x4.pmax(
    edgeBeyond,
    beyondBy(
      f32x4.sub(f32x4.mul(e0y, x0), f32x4.mul(e0x, y0)),
      f32x4.sub(f32x4.mul(e0y, x2), f32x4.mul(e0x, y2)),
      f32x4.add(f32x4.mul(ay, hx), f32x4.mul(ax, hy)),
    ),
  );
  separatedBits |= i32x4.bitmask(v128.and(f32x4.gt(edgeBeyond, m2), inRange));
  if ((separatedBits & undecided) == undecided) return separatedBits << 4;
  ax = f32x4.abs(e1x);
  ay = f32x4.abs(e1y);
  az = f32x4.abs(e1z);
  edgeBeyond = f32x4.pmax(
    edgeBeyond,
    beyondBy(
      f32x4.sub(f32x4.mul(e1z, y0), f32x4.mul(e1y, z0)),
      f32x4.sub(f32x4.mul(e1z, y1), f32x4.mul(e1y, z1)),
      f32x4.add(f32x4.mul(az, hy), f32x4.mul(ay, hz)),
    ),
  );
  edgeBeyond = f32x4.pmax(
    edgeBeyond,
    beyondBy(
      f32x4.sub(f32x4.mul(e1x, z0), f32x4.mul(e1z, x0)),
      f32x4.sub(f32x4.mul(e1x, z1), f32x4.mul(e1z, x1)),
      f32x4.add(f32x4.mul(az, hx), f32x4.mul(ax, hz)),
    ),
  );
  edgeBeyond = f32x4.pmax(
    edgeBeyond,
    beyondBy(
      f32x4.sub(f32x4.mul(e1y, x0), f32x4.mul(e1x, y0)),
      f32x4.sub(f32x4.mul(e1y, x1), f32x4.mul(e1x, y1)),
      f32x4.add(f32x4.mul(ay, hx), f32x4.mul(ax, hy)),
    ),
  );
  ax = f32x4.abs(e2x);
  ay = f32x4.abs(e2y);
  az = f32x4.abs(e2z);
  edgeBeyond = f32x4.pmax(
    edgeBeyond,
    beyondBy(
      f32x4.sub(f32x4.mul(e2z, y1), f32x4.mul(e2y, z1)),
      f32x4.sub(f32x4.mul(e2z, y2), f32x4.mul(e2y, z2)),
      f32x4.add(f32x4.mul(az, hy), f32x4.mul(ay, hz)),
    ),
  );
  edgeBeyond = f32x4.pmax(
    edgeBeyond,
    beyondBy(
      f32x4.sub(f32x4.mul(e2x, z1), f32x4.mul(e2z, x1)),
      f32x4.sub(f32x4.mul(e2x, z2), f32x4.mul(e2z, x2)),
      f32x4.add(f32x4.mul(az, hx), f32x4.mul(ax, hz)),
    ),
  );
  edgeBeyond = f32x4.pmax(
    edgeBeyond,
    beyondBy(
      f32x4.sub(f32x4.mul(e2y, x1), f32x4.mul(e2x, y1)),
      f32x4.sub(f32x4.mul(e2y, x2), f32x4.mul(e2x, y2)),
      f32x4.add(f32x4.mul(ay, hx), f32x4.mul(ax, hy)),
    ),
  );
  const separated = v128.or(v128.or(f32x4.gt(boxBeyond, m1), f32x4.gt(planeBeyond, m3)), f32x4.gt(edgeBeyond, m2));
  const clear = v128.and(v128.and(f32x4.lt(boxBeyond, f32x4.neg(m1)), f32x4.lt(planeBeyond, f32x4.neg(m3))), f32x4.lt(edgeBeyond, f32x4.neg(m2)));
  return i32x4.bitmask(v128.and(clear, inRange)) | (i32x4.bitmask(v128.and(separated, inRange)) << 4);
}

/**
 * The box against references first .. first + count − 1 of the rows (order[reference] is the triangle,
 * or the reference itself when order is 0); out[k] as overlapBoxTriangles writes it.
 */
export function overlapBoxRows(
  box: usize,
  bounds: usize,
  positions: usize,
  indices: usize,
  order: usize,
  references: u32,
  rows: usize,
  ready: usize,
  first: u32,
  count: u32,
  out: usize,
): u32 {
  if (count == 0) return 0;
  const end = first + count;
  let overlaps: u32 = 0;
  for (let group = first >> 2; group <= (end - 1) >> 2; group++) {
    if (load<u8>(ready + group) == 0) {
      fillGroup(positions, indices, order, references, group, rows);
      store<u8>(ready + group, 1);
    }
    const at = rows + <usize>group * ROW_GROUP_BYTES;
    // Bounds are re-read (broadcast loads) rather than held: twelve of them and nine rows would not fit
    // the registers.
    const containedBits = i32x4.bitmask(v128.and(v128.and(within(at, bounds), within(at + 48, bounds)), within(at + 96, bounds)));
    const firstOfGroup = group << 2;
    const wholeGroup = firstOfGroup >= first && firstOfGroup + 4 <= end;
    if (containedBits == 15 && wholeGroup) {
      store<u32>(out + (firstOfGroup - first), 0x01010101);
      overlaps += 4;
      continue;
    }
    const separatedBits = i32x4.bitmask(
      v128.or(
        v128.or(
          beyond(at, v128.load32_splat(bounds, 24), v128.load32_splat(bounds, 36)),
          beyond(at + 16, v128.load32_splat(bounds, 28), v128.load32_splat(bounds, 40)),
        ),
        beyond(at + 32, v128.load32_splat(bounds, 32), v128.load32_splat(bounds, 44)),
      ),
    );
    // Lanes of the run (a run may start or end inside the group).
    const lowLane = firstOfGroup >= first ? 0 : first - firstOfGroup;
    const highLane = firstOfGroup + 4 <= end ? 4 : end - firstOfGroup;
    const inRun = (15 >> (4 - highLane + lowLane)) << lowLane;
    let hitBits = containedBits;
    let undecided = ~(containedBits | separatedBits) & inRun;
    if (undecided != 0) {
      const screened = screenGroup(at, bounds + 48, undecided);
      hitBits |= screened & undecided;
      undecided &= ~(screened | (screened >> 4));
    }
    // The undecided lanes take the exact test, two at a time, straight from the rows.
    if ((undecided & 3) != 0) hitBits |= i64x2.bitmask(v128.not(exactPair(at, false, box))) & undecided & 3;
    if ((undecided & 12) != 0) hitBits |= (i64x2.bitmask(v128.not(exactPair(at, true, box))) << 2) & undecided & 12;
    hitBits &= inRun;
    if (inRun == 15) store<u32>(out + (firstOfGroup - first), load<u32>(LANE_BYTES + ((<usize>hitBits) << 2)));
    else for (let lane = lowLane; lane < highLane; lane++) store<u8>(out + (firstOfGroup + lane - first), <u8>((hitBits >> lane) & 1));
    overlaps += popcnt(hitBits);
  }
  return overlaps;
}
