import { cos, sin } from '../math/trig';
import { InvalidParameterError } from '../errors';
import { Random } from '../math/random';
import { KIND_DYNAMIC } from './broadPhase';
import type { BroadPhaseScene } from './broadPhaseScene';

export interface OrbitSceneOptions {
  /** Boxes (the reference runs use 1,024, 8,192 and 32,768). */
  count: number;
  /** Percentage of the boxes moving each frame (the first ones); the rest stay still. */
  movingPercent: number;
  /** Orbit time advanced per frame. */
  speed: number;
  /** Orbit amplitude A. */
  amplitude: number;
  seed: number;
}

export const DEFAULT_ORBIT_SCENE_OPTIONS: OrbitSceneOptions = { count: 8192, movingPercent: 10, speed: 0.005, amplitude: 100, seed: 1 };

/**
 * The scene of Bullet's CDTestFramework broad-phase test: N boxes with half-extents in [2, 4] per axis,
 * each with a random phase t on a smooth orbit
 *   x = cos(2.17t)·A + sin(t)·A/2,  y = cos(1.38t)·A + sin(A·t),  z = sin(0.777t)·A,
 * and a percentage of them advancing along it every frame while the others stay where they are.
 * All boxes are dynamic (still ones are simply not updated).
 */
export class OrbitScene implements BroadPhaseScene {
  readonly name = 'orbits';
  readonly count: number;
  readonly boxes: Float64Array;
  readonly kinds: Uint8Array;
  readonly moved: Int32Array;
  movedCount = 0;
  private readonly time: Float64Array;
  private readonly halfExtents: Float64Array;
  private readonly options: OrbitSceneOptions;

  constructor(options: Partial<OrbitSceneOptions> = {}) {
    const o = { ...DEFAULT_ORBIT_SCENE_OPTIONS, ...options };
    if (!Number.isInteger(o.count) || o.count < 0 || o.count > 1 << 22)
      throw new InvalidParameterError('count', 'an integer in [0, 4194304]', o.count);
    if (!(Number.isFinite(o.amplitude) && o.amplitude >= 0)) throw new InvalidParameterError('amplitude', 'a finite number ≥ 0', o.amplitude);
    this.options = o;
    this.movingPercent = o.movingPercent;
    this.speed = o.speed;
    this.count = o.count;
    this.boxes = new Float64Array(6 * o.count);
    this.kinds = new Uint8Array(o.count).fill(KIND_DYNAMIC);
    this.moved = new Int32Array(o.count);
    this.time = new Float64Array(o.count);
    this.halfExtents = new Float64Array(3 * o.count);
    const random = new Random(o.seed);
    for (let i = 0; i < o.count; i++) {
      for (let axis = 0; axis < 3; axis++) this.halfExtents[3 * i + axis] = 2 + 2 * random.next();
      this.time[i] = 2000 * random.next();
      this.place(i);
    }
  }

  get movingPercent(): number {
    return this.options.movingPercent;
  }

  set movingPercent(percent: number) {
    if (!(percent >= 0 && percent <= 100)) throw new InvalidParameterError('movingPercent', 'a number in [0, 100]', percent);
    this.options.movingPercent = percent;
  }

  get speed(): number {
    return this.options.speed;
  }

  set speed(speed: number) {
    if (!Number.isFinite(speed)) throw new InvalidParameterError('speed', 'a finite number', speed);
    this.options.speed = speed;
  }

  advance(dt = 1): void {
    const moving = Math.round((this.count * this.options.movingPercent) / 100);
    const step = this.options.speed * dt;
    for (let i = 0; i < moving; i++) {
      this.time[i]! += step;
      this.place(i);
      this.moved[i] = i;
    }
    this.movedCount = moving;
  }

  /** The orbit phases, for saving a state. */
  saveClock(): Float64Array {
    return this.time.slice();
  }

  loadClock(clock: Float64Array): void {
    if (clock.length === this.time.length) this.time.set(clock);
  }

  private place(i: number): void {
    const a = this.options.amplitude;
    const t = this.time[i]!;
    const x = cos(t * 2.17) * a + sin(t) * a * 0.5;
    const y = cos(t * 1.38) * a + sin(t * a);
    const z = sin(t * 0.777) * a;
    const h = this.halfExtents;
    const b = this.boxes;
    const o = 6 * i;
    b[o] = x - h[3 * i]!;
    b[o + 1] = y - h[3 * i + 1]!;
    b[o + 2] = z - h[3 * i + 2]!;
    b[o + 3] = x + h[3 * i]!;
    b[o + 4] = y + h[3 * i + 1]!;
    b[o + 5] = z + h[3 * i + 2]!;
  }
}
