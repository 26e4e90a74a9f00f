import { InvalidParameterError } from '../errors';
import { KIND_DYNAMIC, KIND_NONE, KIND_STATIC, MAX_BROAD_PHASE_ID, type BodyKind, type BoxSource } from './broadPhase';

/**
 * Every strategy's copy of the boxes, indexed by id: six float32 per box (min xyz, max xyz) interleaved so
 * that one box is one cache line, a Uint32 view of the same memory for integer keys, the kind per id and a
 * dense list of live ids. Capacity doubles as larger ids arrive; hot loops re-read the arrays after calls
 * that can grow them.
 */
export class BoxTable {
  capacity = 0;
  boxes = new Float32Array(0);
  bits = new Uint32Array(0);
  /** The same bits as int32: V8 reads these on its integer fast path (the sweep keys come from here). */
  ibits = new Int32Array(0);
  kind = new Uint8Array(0);
  /** Live ids, densely packed, and each live id's position in that list. */
  live = new Int32Array(0);
  livePosition = new Int32Array(0);
  liveCount = 0;
  staticCount = 0;

  constructor(initialCapacity = 64) {
    this.grow(Math.max(1, initialCapacity));
  }

  /** Makes room for `id`; ids are checked here, at the boundary. */
  reserve(id: number): void {
    if (!Number.isInteger(id) || id < 0 || id >= MAX_BROAD_PHASE_ID) {
      throw new InvalidParameterError('id', `an integer in [0, ${MAX_BROAD_PHASE_ID})`, id);
    }
    if (id >= this.capacity) {
      let capacity = this.capacity;
      while (capacity <= id) capacity *= 2;
      this.grow(capacity);
    }
  }

  has(id: number): boolean {
    return Number.isInteger(id) && id >= 0 && id < this.capacity && this.kind[id] !== KIND_NONE;
  }

  /** Throws unless `id` is live. */
  require(id: number): void {
    if (!this.has(id)) throw new InvalidParameterError('id', 'the id of a box in the broad-phase', id);
  }

  add(id: number, source: BoxSource, offset: number, kind: BodyKind): void {
    this.reserve(id);
    if (this.kind[id] !== KIND_NONE) throw new InvalidParameterError('id', 'an id not already in the broad-phase', id);
    if (kind !== 'static' && kind !== 'dynamic') throw new InvalidParameterError('kind', '"static" or "dynamic"', kind);
    this.write(id, source, offset);
    this.kind[id] = kind === 'static' ? KIND_STATIC : KIND_DYNAMIC;
    if (kind === 'static') this.staticCount++;
    this.livePosition[id] = this.liveCount;
    this.live[this.liveCount++] = id;
  }

  delete(id: number): void {
    if (this.kind[id] === KIND_STATIC) this.staticCount--;
    this.kind[id] = KIND_NONE;
    const position = this.livePosition[id]!;
    const last = this.live[--this.liveCount]!;
    this.live[position] = last;
    this.livePosition[last] = position;
  }

  /**
   * Stores a box rounded outward to float32 after checking it: six finite numbers within float32 range,
   * min ≤ max on every axis. On error nothing is written.
   */
  write(id: number, source: BoxSource, offset = 0): void {
    if (source === null || typeof source !== 'object' || !(source.length >= offset + 6)) {
      throw new InvalidParameterError('box', 'six numbers minX, minY, minZ, maxX, maxY, maxZ', source);
    }
    const lx = source[offset]!;
    const ly = source[offset + 1]!;
    const lz = source[offset + 2]!;
    const hx = source[offset + 3]!;
    const hy = source[offset + 4]!;
    const hz = source[offset + 5]!;
    // One test for the common case; NaN and infinities fail it too.
    if (!(
      lx <= hx &&
      ly <= hy &&
      lz <= hz &&
      lx >= -MAX_FLOAT32 &&
      ly >= -MAX_FLOAT32 &&
      lz >= -MAX_FLOAT32 &&
      hx <= MAX_FLOAT32 &&
      hy <= MAX_FLOAT32 &&
      hz <= MAX_FLOAT32
    )) {
      explainBadBox(source, offset);
    }
    const boxes = this.boxes;
    const base = 6 * id;
    boxes[base] = roundDown(lx);
    boxes[base + 1] = roundDown(ly);
    boxes[base + 2] = roundDown(lz);
    boxes[base + 3] = roundUp(hx);
    boxes[base + 4] = roundUp(hy);
    boxes[base + 5] = roundUp(hz);
  }

  private grow(capacity: number): void {
    const boxes = new Float32Array(6 * capacity);
    boxes.set(this.boxes);
    this.boxes = boxes;
    this.bits = new Uint32Array(boxes.buffer);
    this.ibits = new Int32Array(boxes.buffer);
    const kind = new Uint8Array(capacity);
    kind.set(this.kind);
    this.kind = kind;
    const live = new Int32Array(capacity);
    live.set(this.live);
    this.live = live;
    const livePosition = new Int32Array(capacity);
    livePosition.set(this.livePosition);
    this.livePosition = livePosition;
    this.capacity = capacity;
  }
}

const scratchFloat = new Float32Array(1);
const scratchBits = new Uint32Array(scratchFloat.buffer);
const MIN_NORMAL_FLOAT32 = 1.1754943508222875e-38;
/**
 * 1.25·2^-24: for a normal float32 n, n ± |n|·NUDGE rounds (once, exactly: the sum fits a double) to the
 * float32 next to n in that direction, power-of-two boundaries included. This keeps the common path free
 * of typed-array aliasing and of a data-dependent branch (half of all coordinates need the nudge).
 */
const NUDGE = 7.450580596923828e-8;

/** The largest float32 ≤ value, as +0 rather than −0 (the integer keys order −0 below +0). */
function roundDown(value: number): number {
  const nearest = Math.fround(value);
  if (!(Math.abs(nearest) >= MIN_NORMAL_FLOAT32)) return roundDownSlowly(value, nearest);
  // Clamped: beyond ±MAX the step would be infinite, and 0·∞ is NaN (the step is never taken there).
  const below = Math.max(Math.fround(nearest - Math.abs(nearest) * NUDGE), -MAX_FLOAT32);
  // nearest, or `below` when nearest > value, without a branch; + 0 turns −0 into +0.
  return nearest - (nearest - below) * +(nearest > value) + 0;
}

/** The smallest float32 ≥ value, as +0 rather than −0. */
function roundUp(value: number): number {
  const nearest = Math.fround(value);
  if (!(Math.abs(nearest) >= MIN_NORMAL_FLOAT32)) return roundUpSlowly(value, nearest);
  const above = Math.min(Math.fround(nearest + Math.abs(nearest) * NUDGE), MAX_FLOAT32);
  return nearest + (above - nearest) * +(nearest < value) + 0;
}

/** Zero and subnormals: step the bit pattern. */
function roundDownSlowly(value: number, nearest: number): number {
  if (nearest <= value) return nearest === 0 ? 0 : nearest;
  if (nearest === 0) return -1.401298464324817e-45;
  scratchFloat[0] = nearest;
  scratchBits[0] = nearest > 0 ? scratchBits[0]! - 1 : scratchBits[0]! + 1;
  return scratchFloat[0];
}

function roundUpSlowly(value: number, nearest: number): number {
  if (nearest >= value) return nearest === 0 ? 0 : nearest;
  if (nearest === 0) return 1.401298464324817e-45;
  scratchFloat[0] = nearest;
  scratchBits[0] = nearest > 0 ? scratchBits[0]! + 1 : scratchBits[0]! - 1;
  // Stepping up from the smallest negative subnormal lands on −0, which the integer keys order below +0.
  return scratchFloat[0] + 0;
}

/** Throws the error that says what is wrong with a box that failed the combined check. */
function explainBadBox(source: BoxSource, offset: number): never {
  for (let axis = 0; axis < 3; axis++) {
    const lo = source[offset + axis]!;
    const hi = source[offset + 3 + axis]!;
    if (!(Number.isFinite(lo) && Number.isFinite(hi))) {
      throw new InvalidParameterError(`box[${Number.isFinite(lo) ? axis + 3 : axis}]`, 'finite coordinates', Number.isFinite(lo) ? hi : lo);
    }
  }
  for (let axis = 0; axis < 3; axis++) {
    const lo = source[offset + axis]!;
    const hi = source[offset + 3 + axis]!;
    if (Math.abs(lo) > MAX_FLOAT32 || Math.abs(hi) > MAX_FLOAT32) {
      throw new InvalidParameterError(
        `box[${Math.abs(lo) > MAX_FLOAT32 ? axis : axis + 3}]`,
        `coordinates within float32 range (±${MAX_FLOAT32})`,
        Math.abs(lo) > MAX_FLOAT32 ? lo : hi,
      );
    }
    if (!(lo <= hi)) throw new InvalidParameterError(`box[${axis + 3}]`, `max ≥ min (${lo})`, hi);
  }
  throw new InvalidParameterError('box', 'a valid box', source);
}

/** The largest finite float32. */
export const MAX_FLOAT32 = 3.4028234663852886e38;

/** Grows a typed array to at least `length`, doubling, keeping the contents. */
export function grown<T extends Int32Array | Uint32Array | Float32Array | Float64Array | Uint8Array>(array: T, length: number): T {
  if (array.length >= length) return array;
  let size = Math.max(16, array.length);
  while (size < length) size *= 2;
  const next = new (array.constructor as new (n: number) => T)(size);
  next.set(array);
  return next;
}
