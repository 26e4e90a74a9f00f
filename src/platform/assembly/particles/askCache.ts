// The cache phase for one effect: the twin of src/particles/askCache.ts (askCache), which documents the
// rule, with the plane cache's slot records (src/particles/planeCache.ts) in this module's memory beside
// the particles. Each asker looks up the cell it is in with the code it last asked with and, on a hit,
// takes the entry's plane. Every float is computed in float64 with the same operations in the same order
// as the TypeScript, and the key is the same murmur mix, so both write the same bits. Cell coordinates
// saturate where the TypeScript's `| 0` wraps (beyond 2^31 cells from the origin).
//
// The parameters arrive in one block written by src/particles/particleKernel.ts (the offsets below).

/** Int32 slots of the ask block. */
const FROM = 0;
const TO = 4;
const RECORDS = 8;
const MASK = 12;
const POSITIONS = 16;
const VELOCITIES = 20;
const PLANES = 24;
const SOURCES = 28;
const CODES = 32;
const ASKERS = 36;
/** Float64 slots of the ask block. */
const INVERSE_SIDE = 48;
const INVERSE_HEIGHT = 56;
const CELL_HEIGHT = 64;
const RADIUS = 72;
const DT = 80;
const ASK_BLOCK_BYTES = 88;

// Plane sources, as in src/particles/particleBuffers.ts; a slot record, as in planeCache.ts.
const PLANE_RAY: u8 = 1;
const PLANE_CACHE: u8 = 2;
const RECORD_SHIFT = 5; // 32-byte records: key, ix, iz, iy · 8 + code, nx, ny, nz, d

const ASK_BLOCK: usize = memory.data(ASK_BLOCK_BYTES, 16);

/** Where JavaScript writes the ask block. */
export function askBlock(): usize {
  return ASK_BLOCK;
}
export function askBlockBytes(): i32 {
  return ASK_BLOCK_BYTES;
}

/** One block of murmur3's 32-bit body (src/particles/cacheKey.ts). */
function murmurRound(hash: i32, word: i32): i32 {
  const k = rotl<i32>(word * <i32>0xcc9e2d51, 15) * <i32>0x1b873593;
  return rotl<i32>(hash ^ k, 13) * 5 + <i32>0xe6546b64;
}

/** planeCacheKey of src/particles/cacheKey.ts. */
function planeCacheKey(ix: i32, iy: i32, iz: i32, direction: i32): i32 {
  let h = murmurRound(<i32>0x9747b28c, (ix & 0xffff) | (iz << 16));
  h = murmurRound(h, (iy << 3) | (direction & 7));
  h ^= 8;
  h ^= h >>> 16;
  h *= <i32>0x85ebca6b;
  h ^= h >>> 13;
  h *= <i32>0xc2b2ae35;
  h ^= h >>> 16;
  return h == 0 ? 1 : h;
}

/** Askers whose records are touched ahead of their lookups (see askRange). */
const AHEAD = 64;
/**
 * Bytes of an ask's scratch: per asker of a block its key, ix, iz and iy · 8 + code (a slot record's
 * first four words), then a word where the touches' sum goes, so that those loads stay.
 */
export const ASK_SCRATCH_BYTES: i32 = AHEAD * 16 + 16;
const ASK_SCRATCH: usize = memory.data(ASK_SCRATCH_BYTES, 16);

/** The askers [FROM, TO) of the ask block written by JavaScript; returns the hits. */
export function askCache(): i32 {
  const block = ASK_BLOCK;
  return askRange(block, load<i32>(block + FROM), load<i32>(block + TO), ASK_SCRATCH);
}

/**
 * Askers [from, to) with the parameters of the ask block at `block`, in a scratch of ASK_SCRATCH_BYTES
 * at `scratch` (16-byte aligned; a pool's threads each have their own); returns the hits.
 */
export function askRange(block: usize, from: i32, to: i32, scratch: usize): i32 {
  const records = <usize>load<i32>(block + RECORDS);
  const mask = load<i32>(block + MASK);
  const positions = <usize>load<i32>(block + POSITIONS);
  const velocities = <usize>load<i32>(block + VELOCITIES);
  const planes = <usize>load<i32>(block + PLANES);
  const sources = <usize>load<i32>(block + SOURCES);
  const codes = <usize>load<i32>(block + CODES);
  const askers = <usize>load<i32>(block + ASKERS);
  const inverseSide = load<f64>(block + INVERSE_SIDE);
  const inverseHeight = load<f64>(block + INVERSE_HEIGHT);
  const cellHeight = load<f64>(block + CELL_HEIGHT);
  const radius = load<f64>(block + RADIUS);
  const dt = load<f64>(block + DT);
  let hits: i32 = 0;
  let touched: i32 = 0;
  // The home records lie anywhere in a table bigger than the cache, and the probe branches on what it
  // reads, so one asker at a time waits out each miss alone. A block's keys are computed first, each
  // home record read once with nothing waiting on it, so the block's misses overlap; the probes follow.
  for (let k0 = from; k0 < to; k0 += AHEAD) {
    const k1 = min(k0 + AHEAD, to);
    for (let k = k0; k < k1; k++) {
      const i = <usize>load<i32>(askers + ((<usize>k) << 2));
      const p = positions + (i << 4);
      const ix = <i32>Math.floor(<f64>load<f32>(p) * inverseSide);
      const iy = <i32>Math.floor(<f64>load<f32>(p, 4) * inverseHeight);
      const iz = <i32>Math.floor(<f64>load<f32>(p, 8) * inverseSide);
      const code = <i32>load<u8>(codes + i);
      const key = planeCacheKey(ix, iy, iz, code);
      const at = scratch + ((<usize>(k - k0)) << 4);
      store<i32>(at, key);
      store<i32>(at, ix, 4);
      store<i32>(at, iz, 8);
      store<i32>(at, (iy << 3) | (code & 7), 12);
      touched += load<i32>(records + ((<usize>(key & mask)) << RECORD_SHIFT));
    }
    for (let k = k0; k < k1; k++) {
      const i = <usize>load<i32>(askers + ((<usize>k) << 2));
      const at = scratch + ((<usize>(k - k0)) << 4);
      const key = load<i32>(at);
      const ix = load<i32>(at, 4);
      const iz = load<i32>(at, 8);
      const yCode = load<i32>(at, 12);
      let slot = key & mask;
      let r = records + ((<usize>slot) << RECORD_SHIFT);
      let found = load<i32>(r);
      while (found != 0 && !(found == key && load<i32>(r, 4) == ix && load<i32>(r, 8) == iz && load<i32>(r, 12) == yCode)) {
        slot = (slot + 1) & mask;
        r = records + ((<usize>slot) << RECORD_SHIFT);
        found = load<i32>(r);
      }
      if (found == 0) continue;
      hits++;
      const p = positions + (i << 4);
      const px = <f64>load<f32>(p),
        py = <f64>load<f32>(p, 4),
        pz = <f64>load<f32>(p, 8);
      const nx = <f64>load<f32>(r, 16),
        ny = <f64>load<f32>(r, 20),
        nz = <f64>load<f32>(r, 24),
        d = <f64>load<f32>(r, 28);
      const distance = nx * px + ny * py + nz * pz - d;
      const plane = planes + (i << 4);
      // The particle's own look-ahead gives way only to an entry higher where the particle is.
      if (
        load<u8>(sources + i) == PLANE_RAY &&
        !(distance < <f64>load<f32>(plane) * px + <f64>load<f32>(plane, 4) * py + <f64>load<f32>(plane, 8) * pz - <f64>load<f32>(plane, 12))
      )
        continue;
      const push = radius - distance;
      if (push > 0) {
        const v = velocities + (i << 4);
        const vx = <f64>load<f32>(v),
          vy = <f64>load<f32>(v, 4),
          vz = <f64>load<f32>(v, 8);
        // lookBehind of src/particles/raycastPlanes.ts, plus a cell height.
        if (push > 2 * radius + 2 * Math.sqrt(vx * vx + vy * vy + vz * vz) * dt + 0.01 + cellHeight) continue;
        store<f32>(p, <f32>(px + nx * push));
        store<f32>(p, <f32>(py + ny * push), 4);
        store<f32>(p, <f32>(pz + nz * push), 8);
        const vn = nx * vx + ny * vy + nz * vz;
        if (vn < 0) {
          store<f32>(v, <f32>(vx - vn * nx));
          store<f32>(v, <f32>(vy - vn * ny), 4);
          store<f32>(v, <f32>(vz - vn * nz), 8);
        }
      }
      store<f32>(plane, <f32>nx);
      store<f32>(plane, <f32>ny, 4);
      store<f32>(plane, <f32>nz, 8);
      store<f32>(plane, <f32>d, 12);
      store<u8>(sources + i, PLANE_CACHE);
    }
  }
  store<i32>(scratch + ((<usize>AHEAD) << 4), touched);
  return hits;
}
