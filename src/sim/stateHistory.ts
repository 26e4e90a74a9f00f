/**
 * A bounded stack of recent states: push one per step, pop to step back. When full, the oldest state is
 * dropped, so memory stays at `capacity` states however long the run.
 */
export class StateHistory<T> {
  private readonly states: (T | undefined)[];
  private head = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`history capacity must be a whole number ≥ 0, got ${capacity}`);
    this.states = new Array<T | undefined>(capacity).fill(undefined);
  }

  get length(): number {
    return this.size;
  }

  push(state: T): void {
    if (this.capacity === 0) return;
    this.states[this.head] = state;
    this.head = (this.head + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
  }

  /** The newest state, removed; undefined when empty. */
  pop(): T | undefined {
    if (this.size === 0) return undefined;
    this.head = (this.head - 1 + this.capacity) % this.capacity;
    this.size--;
    const state = this.states[this.head];
    this.states[this.head] = undefined;
    return state;
  }

  clear(): void {
    this.states.fill(undefined);
    this.head = 0;
    this.size = 0;
  }
}
