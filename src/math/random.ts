/**
 * Seeded randomness. Every random choice in the core goes through one of these so that a scene file plus
 * its seed reproduces a run exactly.
 */

/** Mixes a 32-bit seed into a well-spread 32-bit state (the splitmix32 finaliser). */
export function mixSeed(seed: number): number {
  let z = (seed + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** A small, fast generator (mulberry32): uniform floats in [0, 1) and integers, from a 32-bit seed. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = mixSeed(seed >>> 0);
  }

  /** A uniform 32-bit unsigned integer. */
  /** The generator's whole state, for snapshots (step back, restart). */
  saveState(): number {
    return this.state;
  }

  loadState(state: number): void {
    this.state = state | 0;
  }

  nextUint32(): number {
    return this.nextInt32() >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return (this.nextInt32() >>> 0) / 4294967296;
  }

  /**
   * `count` uniforms in [0, 1) into out[0 .. count): the same numbers as `count` calls of next(), for
   * hot loops (a float returned from a call the engine does not inline is allocated).
   */
  fill(out: Float64Array, count: number): void {
    for (let k = 0; k < count; k++) out[k] = (this.nextInt32() >>> 0) / 4294967296;
  }

  /**
   * The next 32 random bits as a signed integer: a small integer to the engine, where an unsigned one
   * of 2^31 or more is a float, allocated when returned from a call that is not inlined.
   */
  private nextInt32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return t ^ (t >>> 14);
  }

  /** Uniform in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** A uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}
