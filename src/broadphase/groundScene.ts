import { cos, sin } from '../math/trig';
import { InvalidParameterError } from '../errors';
import { Random } from '../math/random';
import { KIND_DYNAMIC, KIND_STATIC } from './broadPhase';
import type { BroadPhaseScene } from './broadPhaseScene';

export interface GroundSceneOptions {
  /** Static boxes: half of them ground patches on a square grid, the rest rocks on the ground. */
  statics: number;
  /** Dynamic boxes wandering over the ground, all moving. */
  dynamics: number;
  /** Side of the square world (x and z), centred on the origin. */
  worldSize: number;
  /** Motion per frame, as a multiple of the default wandering speed. */
  speed: number;
  seed: number;
}

export const DEFAULT_GROUND_SCENE_OPTIONS: GroundSceneOptions = { statics: 6000, dynamics: 300, worldSize: 400, speed: 1, seed: 1 };

/** Gentle rolling ground, y up. */
function groundHeight(x: number, z: number): number {
  return 6 * sin(x / 37) * cos(z / 29) + 3 * sin((x + z) / 17);
}

/**
 * Statics and dynamics, the bipartite case: thousands of static boxes — ground patches covering a
 * rolling landscape and rocks scattered on it — and a few hundred dynamic boxes wandering over the
 * ground on looping paths, bobbing so they keep touching patches and rocks.
 */
export class GroundScene implements BroadPhaseScene {
  readonly name = 'ground';
  readonly count: number;
  readonly boxes: Float64Array;
  readonly kinds: Uint8Array;
  readonly moved: Int32Array;
  movedCount = 0;
  readonly staticCount: number;
  private readonly centre: Float64Array;
  private readonly radius: Float64Array;
  private readonly angularSpeed: Float64Array;
  private readonly phase: Float64Array;
  private readonly halfExtent: Float64Array;
  private time = 0;
  private readonly options: GroundSceneOptions;

  constructor(options: Partial<GroundSceneOptions> = {}) {
    const o = { ...DEFAULT_GROUND_SCENE_OPTIONS, ...options };
    for (const field of ['statics', 'dynamics'] as const) {
      if (!Number.isInteger(o[field]) || o[field] < 0 || o[field] > 1 << 21)
        throw new InvalidParameterError(field, 'an integer in [0, 2097152]', o[field]);
    }
    if (!(o.worldSize > 0 && Number.isFinite(o.worldSize))) throw new InvalidParameterError('worldSize', 'a finite number > 0', o.worldSize);
    this.options = o;
    this.staticCount = o.statics;
    this.count = o.statics + o.dynamics;
    this.boxes = new Float64Array(6 * this.count);
    this.kinds = new Uint8Array(this.count);
    this.moved = new Int32Array(o.dynamics);
    const random = new Random(o.seed);
    const half = o.worldSize / 2;
    const side = Math.max(1, Math.floor(Math.sqrt(o.statics / 2)));
    const patches = Math.min(o.statics, side * side);
    const cell = o.worldSize / side;
    let id = 0;
    for (let row = 0; row < side && id < patches; row++) {
      for (let col = 0; col < side && id < patches; col++) {
        const x0 = -half + col * cell;
        const z0 = -half + row * cell;
        let lo = Infinity;
        let hi = -Infinity;
        for (let s = 0; s <= 4; s++) {
          for (let t = 0; t <= 4; t++) {
            const h = groundHeight(x0 + (s * cell) / 4, z0 + (t * cell) / 4);
            lo = Math.min(lo, h);
            hi = Math.max(hi, h);
          }
        }
        this.write(id++, x0, lo - 1, z0, x0 + cell, hi, z0 + cell);
      }
    }
    while (id < o.statics) {
      const x = random.range(-half, half);
      const z = random.range(-half, half);
      const r = random.range(0.5, 4);
      const y = groundHeight(x, z);
      this.write(id++, x - r, y - r * 0.5, z - r, x + r, y + r * 1.2, z + r);
    }
    this.kinds.fill(KIND_STATIC, 0, o.statics);
    this.kinds.fill(KIND_DYNAMIC, o.statics);
    const n = o.dynamics;
    this.centre = new Float64Array(2 * n);
    this.radius = new Float64Array(n);
    this.angularSpeed = new Float64Array(n);
    this.phase = new Float64Array(n);
    this.halfExtent = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      this.centre[2 * k] = random.range(-half * 0.8, half * 0.8);
      this.centre[2 * k + 1] = random.range(-half * 0.8, half * 0.8);
      this.radius[k] = random.range(5, half * 0.3);
      // About half a unit per frame along the path at speed 1.
      this.angularSpeed[k] = ((random.next() < 0.5 ? -1 : 1) * random.range(0.3, 0.7)) / this.radius[k]!;
      this.phase[k] = random.range(0, 2 * Math.PI);
      this.halfExtent[k] = random.range(0.8, 2);
      this.placeDynamic(k);
    }
  }

  get speed(): number {
    return this.options.speed;
  }

  set speed(speed: number) {
    if (!Number.isFinite(speed)) throw new InvalidParameterError('speed', 'a finite number', speed);
    this.options.speed = speed;
  }

  advance(dt = 1): void {
    this.time += this.options.speed * dt;
    const n = this.options.dynamics;
    for (let k = 0; k < n; k++) {
      this.placeDynamic(k);
      this.moved[k] = this.staticCount + k;
    }
    this.movedCount = n;
  }

  saveClock(): number {
    return this.time;
  }

  loadClock(time: number): void {
    this.time = time;
  }

  private placeDynamic(k: number): void {
    const angle = this.phase[k]! + this.angularSpeed[k]! * this.time;
    const x = this.centre[2 * k]! + this.radius[k]! * cos(angle);
    const z = this.centre[2 * k + 1]! + this.radius[k]! * sin(angle);
    const h = this.halfExtent[k]!;
    const y = groundHeight(x, z) + h + 1.5 * Math.abs(sin(0.05 * this.time + this.phase[k]!)) - 0.5;
    this.write(this.staticCount + k, x - h, y - h, z - h, x + h, y + h, z + h);
  }

  private write(id: number, lx: number, ly: number, lz: number, hx: number, hy: number, hz: number): void {
    const b = this.boxes;
    const o = 6 * id;
    b[o] = lx;
    b[o + 1] = ly;
    b[o + 2] = lz;
    b[o + 3] = hx;
    b[o + 4] = hy;
    b[o + 5] = hz;
  }
}
