import type { BVH } from '../../bvh/buildBVH';
import { MASK_ALL, checkFilter } from '../../bvh/collisionMasks';
import { InvalidParameterError } from '../../errors';
import {
  addSweepCounters,
  createCapsuleBatch,
  createCapsuleHits,
  createSweepCounters,
  resetSweepCounters,
  type CapsuleSweeper,
  type SweepCounters,
} from './capsuleTypes';
import { sweepCapsules } from './sweepCapsules';

export interface CharacterSettings {
  radius: number;
  /** Half the length of the capsule's vertical axis (the capsule is 2·(halfHeight + radius) tall). */
  halfHeight: number;
  /** Ground speed, world units per second. */
  speed: number;
  jumpSpeed: number;
  gravity: number;
  /** Ledges up to this height are climbed without jumping. */
  stepHeight: number;
  /** Steeper ground is a wall: the character slides down it and cannot walk up it. */
  maxSlopeDegrees: number;
  /** Distance kept from every surface, so rounding never starts a sweep in contact. */
  skin: number;
  /** How fast the velocity follows the input in the air (1/s). */
  airControl: number;
  /** Collision filter of every sweep (bvh.masks): triangles whose material mask misses it are not
   *  there for the character (a filter without the terrain's water bit wades through lakes). */
  filter: number;
}

export const DEFAULT_CHARACTER_SETTINGS: Readonly<CharacterSettings> = Object.freeze({
  radius: 0.6,
  halfHeight: 0.9,
  speed: 9,
  jumpSpeed: 9,
  gravity: 25,
  stepHeight: 0.6,
  maxSlopeDegrees: 50,
  skin: 0.02,
  airControl: 3,
  filter: MASK_ALL,
});

const SLIDE_ITERATIONS = 4;

/**
 * A capsule walked over a mesh with swept tests only (a kinematic character controller): every move
 * is a sweep from a position that does not touch the mesh, stopped `skin` short of the first contact,
 * with the rest of the move projected onto the contact plane (collide and slide). Walkable ground
 * (not steeper than maxSlopeDegrees) is projected onto; steeper ground counts as a vertical wall, so it
 * cannot be climbed, and gravity slides the character down it. Ledges up to stepHeight are climbed by
 * moving up, across and back down. A sweep that starts in contact (rounding) pushes out along its
 * separating normal first. `position` is the capsule's centre.
 */
export class CapsuleCharacter {
  readonly settings: CharacterSettings;
  readonly position = new Float64Array(3);
  readonly velocity = new Float64Array(3);
  grounded = false;
  readonly groundNormal = new Float64Array([0, 1, 0]);
  /** Sweeps and their work in the last step. */
  sweeps = 0;
  readonly counters: SweepCounters = createSweepCounters();
  /** Whether the last step had to push out of a contact it started in. */
  depenetrated = false;
  /** The sweep every move goes through (swappable between steps: same contacts either way). */
  sweeper: CapsuleSweeper = sweepCapsules;
  private readonly batch = createCapsuleBatch(1);
  private readonly hit = createCapsuleHits(1);
  /** The options of every sweep (one object, so a sweep allocates none of its own). */
  private readonly sweepOptions: { filter: number };
  private readonly cosMaxSlope: number;
  // Last sweep's result.
  private hitToi = 1;
  private hitTriangle = -1;
  private readonly hitNormal = new Float64Array(3);
  private readonly delta = new Float64Array(3);

  constructor(settings: Partial<CharacterSettings> = {}) {
    const resolved = { ...DEFAULT_CHARACTER_SETTINGS, ...settings };
    for (const [name, value] of Object.entries(resolved)) {
      if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value)) throw new InvalidParameterError(name, 'a finite number ≥ 0', value);
    }
    if (!(resolved.radius > 0)) throw new InvalidParameterError('radius', 'a number > 0', resolved.radius);
    if (resolved.maxSlopeDegrees > 89) throw new InvalidParameterError('maxSlopeDegrees', 'at most 89', resolved.maxSlopeDegrees);
    checkFilter(resolved.filter, 'filter');
    this.settings = resolved;
    this.sweepOptions = { filter: resolved.filter };
    this.cosMaxSlope = Math.cos((resolved.maxSlopeDegrees * Math.PI) / 180);
    this.batch.radius[0] = resolved.radius;
  }

  /** The collision filter of the next sweeps (checked: a bad one throws and changes nothing). */
  get filter(): number {
    return this.sweepOptions.filter;
  }
  set filter(filter: number) {
    this.sweepOptions.filter = checkFilter(filter, 'filter');
  }

  place(x: number, y: number, z: number): void {
    this.position[0] = x;
    this.position[1] = y;
    this.position[2] = z;
    this.velocity.fill(0);
    this.grounded = false;
  }

  /**
   * Puts the capsule at (x, ·, z) without sweeping across (e.g. pulled back inside a terrain's footprint):
   * it is swept down from `clearY`, a height where it touches nothing, to its present height, and stops
   * `skin` above the first contact, so the move never leaves it inside the ground. Landing on walkable
   * ground grounds it.
   */
  teleport(bvh: BVH, x: number, z: number, clearY: number): void {
    const p = this.position;
    const targetY = p[1]!;
    p[0] = x;
    p[2] = z;
    if (!(clearY > targetY)) return;
    p[1] = clearY;
    const drop = targetY - clearY;
    const toi = this.sweep(bvh, 0, drop, 0);
    if (this.hitTriangle < 0) {
      p[1] = targetY;
      return;
    }
    this.advance(0, drop, 0, toi);
    if (this.hitNormal[1]! >= this.cosMaxSlope) {
      this.grounded = true;
      this.groundNormal.set(this.hitNormal);
      if (this.velocity[1]! < 0) this.velocity[1] = 0;
    }
  }

  /** Lowest point of the capsule. */
  get footY(): number {
    return this.position[1]! - this.settings.halfHeight - this.settings.radius;
  }

  /**
   * One step: `wishX`, `wishZ` the wanted horizontal direction (length ≤ 1; scaled by speed and by
   * `run`, e.g. 2 to run), `jump` to leave walkable ground.
   */
  step(bvh: BVH, wishX: number, wishZ: number, jump: boolean, dt: number, run = 1): void {
    const s = this.settings;
    const v = this.velocity;
    this.sweeps = 0;
    this.depenetrated = false;
    resetSweepCounters(this.counters);
    if (!(dt > 0)) return;
    dt = Math.min(dt, 0.05);
    const wish = Math.hypot(wishX, wishZ);
    if (wish > 1) {
      wishX /= wish;
      wishZ /= wish;
    }
    wishX *= run;
    wishZ *= run;
    if (this.grounded) {
      v[0] = wishX * s.speed;
      v[2] = wishZ * s.speed;
    } else {
      const follow = Math.min(1, s.airControl * dt);
      v[0]! += (wishX * s.speed - v[0]!) * follow;
      v[2]! += (wishZ * s.speed - v[2]!) * follow;
    }
    if (jump && this.grounded) {
      v[1] = s.jumpSpeed;
      this.grounded = false;
    }
    v[1]! -= s.gravity * dt;
    if (this.grounded && v[1]! < 0) v[1] = 0;

    // Across: collide and slide, climbing ledges when walking.
    const dx = v[0]! * dt,
      dz = v[2]! * dt;
    if (dx !== 0 || dz !== 0) {
      const blocked = this.slide(bvh, dx, 0, dz, true);
      if (blocked && this.grounded) this.stepUp(bvh, dx, dz);
    }

    // Up or down: fall, land, or follow the ground down slopes and small drops.
    if (this.grounded) {
      const snap = s.stepHeight + 2 * s.skin;
      const toi = this.sweep(bvh, 0, -snap, 0);
      if (this.hitTriangle >= 0 && toi === 0) this.pushOut();
      else if (this.hitTriangle >= 0 && this.hitNormal[1]! >= this.cosMaxSlope) {
        this.advance(0, -snap, 0, toi);
        this.groundNormal.set(this.hitNormal);
      } else {
        this.grounded = false;
        this.slide(bvh, 0, v[1]! * dt, 0, false);
      }
    } else {
      this.slide(bvh, 0, v[1]! * dt, 0, false);
    }
  }

  /**
   * Moves by (dx, dy, dz) with collide-and-slide. Returns whether a wall (not walkable ground) stopped
   * part of the move. Updates grounded, groundNormal and the vertical velocity on landing or on a ceiling.
   */
  private slide(bvh: BVH, dx: number, dy: number, dz: number, horizontal: boolean): boolean {
    const d = this.delta;
    d[0] = dx;
    d[1] = dy;
    d[2] = dz;
    let blocked = false;
    for (let iteration = 0; iteration < SLIDE_ITERATIONS; iteration++) {
      const length = Math.hypot(d[0], d[1], d[2]);
      if (length < 1e-9) break;
      const toi = this.sweep(bvh, d[0], d[1], d[2]);
      if (this.hitTriangle < 0) {
        this.advance(d[0], d[1], d[2], 1);
        break;
      }
      const n = this.hitNormal;
      if (toi === 0) this.pushOut();
      else this.advance(d[0], d[1], d[2], toi);
      const walkable = n[1]! >= this.cosMaxSlope;
      if (walkable && d[1] < 0) {
        this.grounded = true;
        this.groundNormal.set(n);
        if (this.velocity[1]! < 0) this.velocity[1] = 0;
      }
      if (n[1]! < -0.3 && this.velocity[1]! > 0) this.velocity[1] = 0; // a ceiling
      // The plane the rest of the move slides on: walls (steep ground included) are vertical when walking.
      let px = n[0]!,
        py = n[1]!,
        pz = n[2]!;
      if (!walkable && horizontal) {
        blocked = true;
        const across = Math.hypot(px, pz);
        if (across > 1e-6) {
          px /= across;
          pz /= across;
          py = 0;
        }
      }
      const rest = toi === 0 ? 1 : Math.max(0, 1 - toi);
      d[0] *= rest;
      d[1] *= rest;
      d[2] *= rest;
      const into = d[0] * px + d[1] * py + d[2] * pz;
      if (into < 0) {
        d[0] -= into * px;
        d[1] -= into * py;
        d[2] -= into * pz;
      }
      if (horizontal) d[1] = Math.max(d[1], 0); // walking never pushes down into the ground
    }
    return blocked;
  }

  /** Up by stepHeight, across, then down onto walkable ground; undone if there is none within reach. */
  private stepUp(bvh: BVH, dx: number, dz: number): void {
    const s = this.settings;
    const saved = [this.position[0]!, this.position[1]!, this.position[2]!];
    const up = this.sweep(bvh, 0, s.stepHeight, 0);
    const lift = this.hitTriangle < 0 ? s.stepHeight : up * s.stepHeight;
    this.advance(0, s.stepHeight, 0, this.hitTriangle < 0 ? 1 : up);
    const before = [this.position[0]!, this.position[2]!];
    this.slide(bvh, dx, 0, dz, true);
    const moved = Math.hypot(this.position[0]! - before[0]!, this.position[2]! - before[1]!);
    const down = lift + s.skin;
    const toi = this.sweep(bvh, 0, -down, 0);
    if (moved > 1e-6 && this.hitTriangle >= 0 && this.hitNormal[1]! >= this.cosMaxSlope && toi > 0) {
      this.advance(0, -down, 0, toi);
      this.groundNormal.set(this.hitNormal);
      return;
    }
    this.position[0] = saved[0]!;
    this.position[1] = saved[1]!;
    this.position[2] = saved[2]!;
  }

  /** Moves by t·(dx, dy, dz), stopping `skin` short of the contact when t < 1. */
  private advance(dx: number, dy: number, dz: number, t: number): void {
    if (t < 1) {
      const length = Math.hypot(dx, dy, dz);
      t = Math.max(0, t - (length > 0 ? this.settings.skin / length : 0));
    }
    this.position[0]! += t * dx;
    this.position[1]! += t * dy;
    this.position[2]! += t * dz;
  }

  /** Started in contact: step out along the separating normal until a zero-length sweep is clear. */
  private pushOut(): void {
    this.depenetrated = true;
    const n = this.hitNormal;
    const step = this.settings.skin;
    this.position[0]! += n[0]! * step;
    this.position[1]! += n[1]! * step;
    this.position[2]! += n[2]! * step;
  }

  /** Sweeps the capsule from its position by (dx, dy, dz); returns the toi and keeps triangle and normal. */
  private sweep(bvh: BVH, dx: number, dy: number, dz: number): number {
    const b = this.batch;
    const p = this.position;
    const h = this.settings.halfHeight;
    b.start[0] = p[0]!;
    b.start[1] = p[1]! - h;
    b.start[2] = p[2]!;
    b.end[0] = p[0]!;
    b.end[1] = p[1]! + h;
    b.end[2] = p[2]!;
    b.motion[0] = dx;
    b.motion[1] = dy;
    b.motion[2] = dz;
    const work = this.sweeper(bvh, b, this.hit, this.sweepOptions);
    this.sweeps++;
    addSweepCounters(this.counters, work);
    this.hitTriangle = this.hit.triangle[0]!;
    this.hitToi = this.hit.toi[0]!;
    this.hitNormal[0] = this.hit.normal[0]!;
    this.hitNormal[1] = this.hit.normal[1]!;
    this.hitNormal[2] = this.hit.normal[2]!;
    return this.hitToi;
  }
}
