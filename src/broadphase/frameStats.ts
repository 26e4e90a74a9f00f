/** Per-frame milliseconds over a sliding window: the last value, the mean, the min and the max. */
export class FrameStats {
  private readonly values: Float64Array;
  private next = 0;
  private filled = 0;
  last = 0;

  constructor(window = 120) {
    this.values = new Float64Array(Math.max(1, window));
  }

  add(value: number): void {
    this.last = value;
    this.values[this.next] = value;
    this.next = (this.next + 1) % this.values.length;
    this.filled = Math.min(this.filled + 1, this.values.length);
  }

  clear(): void {
    this.next = 0;
    this.filled = 0;
    this.last = 0;
  }

  get count(): number {
    return this.filled;
  }

  get mean(): number {
    let sum = 0;
    for (let i = 0; i < this.filled; i++) sum += this.values[i]!;
    return this.filled > 0 ? sum / this.filled : 0;
  }

  get min(): number {
    let min = Infinity;
    for (let i = 0; i < this.filled; i++) min = Math.min(min, this.values[i]!);
    return this.filled > 0 ? min : 0;
  }

  get max(): number {
    let max = 0;
    for (let i = 0; i < this.filled; i++) max = Math.max(max, this.values[i]!);
    return max;
  }
}
