// Closest-hit (or any-hit) rays through the quantized 4-way BVH, the whole walk inside WebAssembly.
// The twin of src/query/rays/traverseQuantized.ts / traverseQuantizedFactored.ts; the memory layout
// is written by src/simd/rayKernel.ts, which owns every address passed in here.
//
// Node: 64 bytes (see src/bvh/quantizedLayout.ts): 6 rows of 4 × u16 child bounds (minX, minY, minZ,
// maxX, maxY, maxZ; one row is one bound of all four slots), then 4 × u32 child words.
// Stack entry: 64 bytes: frame min xyz and step xyz (6 × f64, as the TypeScript walk keeps them),
// the distance at which the ray enters the node (f64) and the node index (i32).
//
// The 4-box slab test is f32x4, one lane per child. It must never cull a box the ray touches, since
// the triangle tests decide the hits and those agree with TypeScript bit for bit:
// - near/far rows are picked per ray by the sign of 1/(d + 0) (−0 turned into +0 first, so a zero
//   component gives +∞ and a matching plane choice);
// - the distance from the origin to each plane, q·step + (frameMin − origin), is widened by a slack
//   covering its float32 rounding (away from the box, in the direction of the plane's sign) before it
//   is multiplied by the inverse, so a ray lying in a face plane still counts as inside. The slack is
//   one per ray and axis, from a bound on every frame's magnitude (|min| + |max| + extent, over the
//   root and shared frames, which contain all others) and the origin: a few thousandths of a unit on
//   the 512 terrain, which costs no measurable extra visits and saves per-node work;
// - a plane lying exactly on the origin of an axis-parallel ray gives 0·∞ = NaN; enter and exit are
//   accumulated with pmax / pmin with the running value first, which keep it when the new one is NaN;
// - exits get a relative slack for the rounding of 1/d, and tMax a hair more for the same reason.

import { intersectTriangle, intersectTrianglePair, setTriangleRay } from './watertight';

const QUANT_STEP_SCALE: f64 = (1.0 + 1.0 / 16777216.0) / 65535.0;
/** Distance slack relative to the magnitudes that enter a plane distance (≥ 16 float32 ulps). */
const PLANE_SLACK: f64 = 1.0 / 524288.0; // 2^-19
/** Relative slack on box exits and on tMax for the box test (rounding of 1/d and of products). */
const EXIT_SLACK: f32 = 1.0 / 1048576.0;
const STACK_ENTRY: usize = 64;
const INDEX_MASK: u32 = 0xffffff;

// Scratch for one node's hit children: slot, near and far per hit (4 entries), and the leaf pair test.
const HIT_SLOT: usize = memory.data(16, 16);
const HIT_NEAR: usize = memory.data(32, 16);
const HIT_FAR: usize = memory.data(32, 16);
const LANES: usize = memory.data(32, 16);
const PAIR_T: usize = memory.data(16, 16);

let nodesVisited: i32 = 0;
let trianglesTested: i32 = 0;

/** Where JavaScript may start placing data. */
export function heapBase(): usize {
  return __heap_base;
}
export function countersNodes(): i32 {
  return nodesVisited;
}
export function countersTriangles(): i32 {
  return trianglesTested;
}

function isValidRay(ox: f64, oy: f64, oz: f64, dx: f64, dy: f64, dz: f64, tMax: f64): bool {
  const inf = Infinity;
  const finite = Math.abs(ox) < inf && Math.abs(oy) < inf && Math.abs(oz) < inf && Math.abs(dx) < inf && Math.abs(dy) < inf && Math.abs(dz) < inf;
  return finite && (dx != 0 || dy != 0 || dz != 0) && tMax > 0;
}

/**
 * Casts `count` rays (origins, directions: 3 × f32 each; tMaxs: f32) and writes hitT (f32: t, +∞ on a
 * miss, NaN for an invalid ray) and hitTriangle (i32: the caller's triangle id or −1). Returns the
 * number of invalid rays. `order`: u32 per leaf reference, or 0 when leaves name triangles directly.
 * rootFrame: the root's frame (min xyz, max xyz) then, per axis, the bound on |min| + |max| + extent of
 * every frame (f64 each).
 * flags: bit 0 double-sided, bit 1 any hit.
 */
export function castRays(
  nodes: usize, nodeCount: i32, firstShared: i32, sharedFrames: usize, rootFrame: usize,
  triangles: usize, order: usize,
  origins: usize, directions: usize, tMaxs: usize, hitT: usize, hitTriangle: usize, count: i32,
  stack: usize, flags: i32,
): i32 {
  const twoSided: bool = (flags & 1) != 0;
  const anyHit: bool = (flags & 2) != 0;
  let invalid = 0;
  nodesVisited = 0;
  trianglesTested = 0;
  if (count <= 0) return 0;
  let ray = 0;
  do {
    const r3 = <usize>(12 * ray);
    const ox = <f64>load<f32>(origins + r3), oy = <f64>load<f32>(origins + r3, 4), oz = <f64>load<f32>(origins + r3, 8);
    const dx = <f64>load<f32>(directions + r3), dy = <f64>load<f32>(directions + r3, 4), dz = <f64>load<f32>(directions + r3, 8);
    const rayTMax = <f64>load<f32>(tMaxs + <usize>(4 * ray));
    if (!isValidRay(ox, oy, oz, dx, dy, dz, rayTMax)) {
      store<f32>(hitT + <usize>(4 * ray), NaN);
      store<i32>(hitTriangle + <usize>(4 * ray), -1);
      invalid++;
      continue;
    }
    setTriangleRay(ox, oy, oz, dx, dy, dz, twoSided);
    const best = walk(nodes, nodeCount, firstShared, sharedFrames, rootFrame, triangles, order, stack, ox, oy, oz, dx, dy, dz, rayTMax, anyHit);
    store<f32>(hitT + <usize>(4 * ray), best < 0 ? Infinity : <f32>bestT);
    store<i32>(hitTriangle + <usize>(4 * ray), best);
  } while (++ray < count);
  return invalid;
}

/** The last walk's hit distance (valid when walk returned a triangle). */
let bestT: f64 = 0;
/** Where the words read only to start cache-line fetches early end up, so no optimizer drops the reads. */
let touchSink: u32 = 0;

function walk(
  nodes: usize, nodeCount: i32, firstShared: i32, sharedFrames: usize, rootFrame: usize,
  triangles: usize, order: usize, stack: usize,
  ox: f64, oy: f64, oz: f64, dx: f64, dy: f64, dz: f64, rayTMax: f64, anyHit: bool,
): i32 {
  if (nodeCount <= 0) return -1;
  const inverseX: f64 = 1 / (dx + 0);
  const inverseY: f64 = 1 / (dy + 0);
  const inverseZ: f64 = 1 / (dz + 0);
  const invX = f32x4.splat(<f32>inverseX);
  const invY = f32x4.splat(<f32>inverseY);
  const invZ = f32x4.splat(<f32>inverseZ);
  // Byte offsets of each axis's near and far rows inside a node (row = 8 bytes).
  const nearX: usize = inverseX >= 0 ? 0 : 24, farX: usize = 24 - nearX;
  const nearY: usize = inverseY >= 0 ? 8 : 32, farY: usize = 40 - nearY;
  const nearZ: usize = inverseZ >= 0 ? 16 : 40, farZ: usize = 56 - nearZ;
  const signX: f64 = inverseX >= 0 ? 1 : -1;
  const signY: f64 = inverseY >= 0 ? 1 : -1;
  const signZ: f64 = inverseZ >= 0 ? 1 : -1;
  // Plane distance = q·step + (frameMin − shift), the shifts being the origin moved by the slack.
  const slackX = PLANE_SLACK * (load<f64>(rootFrame, 48) + Math.abs(ox));
  const slackY = PLANE_SLACK * (load<f64>(rootFrame, 56) + Math.abs(oy));
  const slackZ = PLANE_SLACK * (load<f64>(rootFrame, 64) + Math.abs(oz));
  const nearShiftX = ox + signX * slackX, farShiftX = ox - signX * slackX;
  const nearShiftY = oy + signY * slackY, farShiftY = oy - signY * slackY;
  const nearShiftZ = oz + signZ * slackZ, farShiftZ = oz - signZ * slackZ;
  const zero = f32x4.splat(0);
  const infinity = f32x4.splat(Infinity);
  const exitSlack = f32x4.splat(EXIT_SLACK);
  const emptyType = i32x4.splat(1 << 24);
  const typeMask = i32x4.splat(15 << 24);

  let tMax = rayTMax;
  let tMaxBox = f32x4.splat(<f32>(rayTMax * (1 + PLANE_SLACK)));
  let bestTriangle: i32 = -1;
  let visited = 0;
  let tested = 0;
  let touched: u32 = 0;

  // The root, with the frame of rootFrame.
  store<f64>(stack, load<f64>(rootFrame));
  store<f64>(stack, load<f64>(rootFrame, 8), 8);
  store<f64>(stack, load<f64>(rootFrame, 16), 16);
  store<f64>(stack, (load<f64>(rootFrame, 24) - load<f64>(rootFrame)) * QUANT_STEP_SCALE, 24);
  store<f64>(stack, (load<f64>(rootFrame, 32) - load<f64>(rootFrame, 8)) * QUANT_STEP_SCALE, 32);
  store<f64>(stack, (load<f64>(rootFrame, 40) - load<f64>(rootFrame, 16)) * QUANT_STEP_SCALE, 40);
  store<f64>(stack, 0, 48);
  store<i32>(stack, 0, 56);
  let top: usize = 1;

  do {
    top--;
    const entry = stack + top * STACK_ENTRY;
    if (load<f64>(entry, 48) > tMax) continue;
    const node = load<i32>(entry, 56);
    const minX = load<f64>(entry), minY = load<f64>(entry, 8), minZ = load<f64>(entry, 16);
    const stepX = load<f64>(entry, 24), stepY = load<f64>(entry, 32), stepZ = load<f64>(entry, 40);
    visited++;

    const p = nodes + <usize>node * 64;
    const qNearX = f32x4.convert_i32x4_s(v128.load16x4_u(p + nearX));
    const qNearY = f32x4.convert_i32x4_s(v128.load16x4_u(p + nearY));
    const qNearZ = f32x4.convert_i32x4_s(v128.load16x4_u(p + nearZ));
    const qFarX = f32x4.convert_i32x4_s(v128.load16x4_u(p + farX));
    const qFarY = f32x4.convert_i32x4_s(v128.load16x4_u(p + farY));
    const qFarZ = f32x4.convert_i32x4_s(v128.load16x4_u(p + farZ));
    const sX = f32x4.splat(<f32>stepX), sY = f32x4.splat(<f32>stepY), sZ = f32x4.splat(<f32>stepZ);
    let enter = f32x4.pmax(zero, f32x4.mul(f32x4.add(f32x4.mul(qNearX, sX), f32x4.splat(<f32>(minX - nearShiftX))), invX));
    enter = f32x4.pmax(enter, f32x4.mul(f32x4.add(f32x4.mul(qNearY, sY), f32x4.splat(<f32>(minY - nearShiftY))), invY));
    enter = f32x4.pmax(enter, f32x4.mul(f32x4.add(f32x4.mul(qNearZ, sZ), f32x4.splat(<f32>(minZ - nearShiftZ))), invZ));
    let exit = f32x4.pmin(infinity, f32x4.mul(f32x4.add(f32x4.mul(qFarX, sX), f32x4.splat(<f32>(minX - farShiftX))), invX));
    exit = f32x4.pmin(exit, f32x4.mul(f32x4.add(f32x4.mul(qFarY, sY), f32x4.splat(<f32>(minY - farShiftY))), invY));
    exit = f32x4.pmin(exit, f32x4.mul(f32x4.add(f32x4.mul(qFarZ, sZ), f32x4.splat(<f32>(minZ - farShiftZ))), invZ));
    exit = f32x4.add(exit, f32x4.mul(f32x4.abs(exit), exitSlack));
    const words = v128.load(p, 48);
    const notEmpty = v128.not(i32x4.eq(v128.and(words, typeMask), emptyType));
    const hitMask = v128.and(v128.and(f32x4.le(enter, exit), f32x4.le(enter, tMaxBox)), notEmpty);
    let bits = i32x4.bitmask(hitMask);
    if (bits == 0) continue;

    // Hit children in slot order, then ordered by exit (ties: lower slot first), as orderByExit.
    v128.store(LANES, enter);
    v128.store(LANES, exit, 16);
    let hits: usize = 0;
    do {
      const slot = <usize>ctz(bits);
      bits &= bits - 1;
      const far = load<f32>(LANES + 16 + 4 * slot);
      // Insertion: move later-exiting entries up (strictly later, so equal exits keep slot order).
      let at = hits;
      while (at > 0 && load<f32>(HIT_FAR + 4 * (at - 1)) > far) {
        store<i32>(HIT_SLOT + 4 * at, load<i32>(HIT_SLOT + 4 * (at - 1)));
        store<f32>(HIT_NEAR + 4 * at, load<f32>(HIT_NEAR + 4 * (at - 1)));
        store<f32>(HIT_FAR + 4 * at, load<f32>(HIT_FAR + 4 * (at - 1)));
        at--;
      }
      // Touch the child's first cache line now, so the misses of all hit children overlap (WebAssembly
      // has no prefetch; the loaded word only feeds `touched`, which nothing waits on).
      const word = load<u32>(p + 48 + 4 * slot);
      const type = (word >>> 24) & 15;
      touched ^= type == 0 ? load<u32>(nodes + <usize>(word & INDEX_MASK) * 64) : load<u32>(triangles + <usize>(word & INDEX_MASK) * 36);
      store<i32>(HIT_SLOT + 4 * at, <i32>slot);
      store<f32>(HIT_NEAR + 4 * at, load<f32>(LANES + 4 * slot));
      store<f32>(HIT_FAR + 4 * at, far);
      hits++;
    } while (bits != 0);

    // Leaves first, front to back, so the ray shrinks before any node is pushed.
    let i: usize = 0;
    do {
      const word = load<u32>(p + 48 + 4 * <usize>load<i32>(HIT_SLOT + 4 * i));
      const type = (word >>> 24) & 15;
      if (type == 0 || <f64>load<f32>(HIT_NEAR + 4 * i) > tMax) continue;
      let k = word & INDEX_MASK;
      const end = k + type - 1;
      // Pairs of triangles in f64x2 lanes, then the odd one alone.
      while (k + 1 < end) {
        tested += 2;
        intersectTrianglePair(triangles + <usize>k * 36, triangles + <usize>(k + 1) * 36, tMax, PAIR_T);
        let t = load<f64>(PAIR_T);
        if (t >= 0 && (bestTriangle < 0 || t < tMax)) {
          tMax = t;
          bestTriangle = order != 0 ? load<i32>(order + <usize>k * 4) : <i32>k;
          if (anyHit) break;
        }
        t = load<f64>(PAIR_T, 8);
        if (t >= 0 && (bestTriangle < 0 || t < tMax)) {
          tMax = t;
          bestTriangle = order != 0 ? load<i32>(order + <usize>(k + 1) * 4) : <i32>(k + 1);
          if (anyHit) break;
        }
        k += 2;
      }
      if (anyHit && bestTriangle >= 0) break;
      if (k < end) {
        tested++;
        const t = intersectTriangle(triangles + <usize>k * 36, tMax);
        if (t >= 0 && (bestTriangle < 0 || t < tMax)) {
          tMax = t;
          bestTriangle = order != 0 ? load<i32>(order + <usize>k * 4) : <i32>k;
          if (anyHit) break;
        }
      }
    } while (++i < hits);
    if (anyHit && bestTriangle >= 0) break;
    tMaxBox = f32x4.splat(<f32>(tMax * (1 + PLANE_SLACK)));

    // Then inner nodes, farthest first, so the nearest is popped next.
    i = hits;
    do {
      i--;
      const slot = <usize>load<i32>(HIT_SLOT + 4 * i);
      const word = load<u32>(p + 48 + 4 * slot);
      const near = <f64>load<f32>(HIT_NEAR + 4 * i);
      if (((word >>> 24) & 15) != 0 || near > tMax) continue;
      const child = <i32>(word & INDEX_MASK);
      const out = stack + top * STACK_ENTRY;
      store<f64>(out, near, 48);
      store<i32>(out, child, 56);
      if (child >= firstShared) {
        const g = sharedFrames + <usize>(child - firstShared) * 48;
        const gx = load<f64>(g), gy = load<f64>(g, 8), gz = load<f64>(g, 16);
        store<f64>(out, gx);
        store<f64>(out, gy, 8);
        store<f64>(out, gz, 16);
        store<f64>(out, (load<f64>(g, 24) - gx) * QUANT_STEP_SCALE, 24);
        store<f64>(out, (load<f64>(g, 32) - gy) * QUANT_STEP_SCALE, 32);
        store<f64>(out, (load<f64>(g, 40) - gz) * QUANT_STEP_SCALE, 40);
      } else {
        const q = p + 2 * slot;
        const loX = minX + <f64>load<u16>(q) * stepX;
        const loY = minY + <f64>load<u16>(q, 8) * stepY;
        const loZ = minZ + <f64>load<u16>(q, 16) * stepZ;
        store<f64>(out, loX);
        store<f64>(out, loY, 8);
        store<f64>(out, loZ, 16);
        store<f64>(out, (minX + <f64>load<u16>(q, 24) * stepX - loX) * QUANT_STEP_SCALE, 24);
        store<f64>(out, (minY + <f64>load<u16>(q, 32) * stepY - loY) * QUANT_STEP_SCALE, 32);
        store<f64>(out, (minZ + <f64>load<u16>(q, 40) * stepZ - loZ) * QUANT_STEP_SCALE, 40);
      }
      top++;
    } while (i > 0);
  } while (top > 0);

  touchSink ^= touched;
  nodesVisited += visited;
  trianglesTested += tested;
  bestT = tMax;
  return bestTriangle;
}
