import { bit } from './bit';
import { SURFACE_CODE, directionCode } from './cacheKey';
import type { ParticleEffectParams } from './effectParams';
import { PLANE_CONTACT, PLANE_NONE, PLANE_RAY, cellStamp, type ParticleBuffers } from './particleBuffers';

/** What one step of motion needs beyond the particles and their effect. */
export interface MoveStep {
  dt: number;
  gravity: number;
  withWind: boolean;
  /** Ask the cache on entering a new cell (not only after a bounce). */
  cellLookups: boolean;
  /** Cache keys are surface cells (SURFACE_CODE), not trajectory directions. */
  surfaceKeys: boolean;
  /** Particles beyond ±half in x or z, or below floor, are killed: nothing is left there to hit. */
  half: number;
  floor: number;
}

/**
 * How far the move filled the buffers' lists (ParticleBuffers.live, askers, needy) for the later
 * phases of the step. live, within each effect's slot range: its live slots, live[start .. start +
 * alive of that effect). askers (a prefix, all effects in turn, askCount long): particles that ask the
 * cache (they bounced, or entered a new cell). needy, within each effect's own slot range [start,
 * end): particles whose plane is not their own look-ahead and that need a raycast — urgent ones
 * (meeting their plane within a few frames) from the front up to urgentEnd, the others (meeting it
 * within the look-ahead, sliding, or planeless and falling) from the back down from laterStart.
 */
export interface MoveLists {
  askCount: number;
  urgentEnd: number;
  laterStart: number;
  bounces: number;
  alive: number;
}

/** The numbers one effect's move derives from its parameters and the step (both kernels use these). */
export interface MoveConstants {
  gravityStep: number;
  /** Slower than two frames of gravity into the plane is resting contact, not a bounce. */
  restSpeed: number;
  /** The drag's factor over one step. */
  decay: number;
  /** How far gravity bends the arc below its chord over the look-ahead, for the heading's direction code. */
  halfDrop: number;
  inverseSide: number;
  inverseHeight: number;
  urgentTime: number;
  /**
   * On entering a new cell, a particle with a guessed plane asks the cache only while it is within
   * this far of meeting that plane over the look-ahead (or has no plane at all): three cell heights.
   * Surface entries sit in the surface's band and the one above, so from higher up a lookup finds one
   * only where the guess is a band or more too low; the third height keeps those. On the showcase it
   * saves a fifth of the lookups, nearly all of them misses, for the same fall-through (two heights
   * saved a third and let 0.13% more particles through).
   */
  askMargin: number;
}

export function moveConstants(p: ParticleEffectParams, step: MoveStep, out: MoveConstants): MoveConstants {
  out.gravityStep = step.gravity * step.dt;
  out.restSpeed = 2 * out.gravityStep;
  out.decay = Math.exp(-p.drag * step.dt);
  out.halfDrop = 0.5 * step.gravity * p.lookahead;
  out.inverseSide = 1 / p.cellSide;
  out.inverseHeight = 1 / p.cellHeight;
  out.urgentTime = URGENT_FRAMES * step.dt;
  out.askMargin = 3 * p.cellHeight;
  return out;
}

/** A MoveConstants to fill with moveConstants (one per caller, reused every step). */
export function emptyMoveConstants(): MoveConstants {
  return { gravityStep: 0, restSpeed: 0, decay: 0, halfDrop: 0, inverseSide: 0, inverseHeight: 0, urgentTime: 0, askMargin: 0 };
}

const constants = emptyMoveConstants();

/** Frames ahead within which meeting a plane that is only a guess is urgent. */
const URGENT_FRAMES = 4;

/** The least tangential speed friction divides by (float32, as the move computes). */
const TINY = Math.fround(1e-9);

/** Speeds below this are at rest: a resting particle needs no new plane. */
const SLIDING_SPEED_SQUARED = 0.25;

/**
 * Moves the live particles of one effect, slots [start, end): ages them (killing the old and the
 * lost), applies gravity and drag (towards the wind when it blows), tests each against its own plane
 * and bounces with restitution and Coulomb friction. Near-zero approach speeds are resting contact,
 * not bounces.
 *
 * The loop is written to be branch-light: whether a particle bounces, changes cell or needs a ray is
 * data that flips from one particle to the next, so those become 0/1 integers that scale the updates,
 * and list appends always write and advance by the flag. The branches left (dead slots, deaths,
 * touching the plane) are rare or come in runs.
 *
 * The arithmetic is float32's, like the storage: each result is rounded with Math.fround (an operation
 * on two float32 values computed in float64 and rounded once is the float32 operation), so the
 * WebAssembly SIMD twin, four particles per f32x4, writes the same bits.
 */
export function moveEffect(b: ParticleBuffers, start: number, end: number, p: ParticleEffectParams, step: MoveStep, lists: MoveLists): void {
  const positions = b.positions;
  const velocities = b.velocities;
  const planes = b.planes;
  const ages = b.ages;
  const lifetimes = b.lifetimes;
  const colours = b.colours;
  const sources = b.planeSources;
  const wind = b.wind;
  const cellStamps = b.cellStamps;
  const codes = b.codes;
  const touchingBefore = b.touching;
  const askers = b.askers;
  const needy = b.needy;
  const live = b.live;
  const f = Math.fround;
  const c = moveConstants(p, step, constants);
  const dt = f(step.dt);
  const gravityStep = f(c.gravityStep),
    restSpeed = f(c.restSpeed),
    decay = f(c.decay),
    halfDrop = f(c.halfDrop);
  const inverseSide = f(c.inverseSide),
    inverseHeight = f(c.inverseHeight),
    urgentTime = f(c.urgentTime),
    askMargin = f(c.askMargin);
  const withWind = step.withWind;
  const cellLookups = step.cellLookups ? 1 : 0;
  const surfaceKeys = step.surfaceKeys;
  const half = f(step.half);
  const floor = f(step.floor);
  const negRestitution = f(-p.restitution);
  const friction = f(p.friction);
  const radius = f(p.radius);
  const lookahead = f(p.lookahead);
  const twiceLookahead = 2 * lookahead;
  let askCount = lists.askCount;
  let urgentEnd = start;
  let laterStart = end;
  let bounces = 0;
  let alive = 0;

  for (let i = start; i < end; i++) {
    const life = lifetimes[i]!;
    if (life === 0) continue;
    const age = f(ages[i]! + dt);
    const i4 = 4 * i;
    if (!(age < life)) {
      lifetimes[i] = 0;
      colours[i4 + 3] = 0;
      continue;
    }
    ages[i] = age;
    let vx = velocities[i4]!;
    let vy = f(velocities[i4 + 1]! - gravityStep);
    let vz = velocities[i4 + 2]!;
    if (withWind) {
      const wx = wind[i4]!,
        wy = wind[i4 + 1]!,
        wz = wind[i4 + 2]!;
      vx = f(wx + f(f(vx - wx) * decay));
      vy = f(wy + f(f(vy - wy) * decay));
      vz = f(wz + f(f(vz - wz) * decay));
    } else {
      vx = f(vx * decay);
      vy = f(vy * decay);
      vz = f(vz * decay);
    }
    let px = f(positions[i4]! + f(vx * dt));
    let py = f(positions[i4 + 1]! + f(vy * dt));
    let pz = f(positions[i4 + 2]! + f(vz * dt));
    if (!(px >= -half && px <= half && pz >= -half && pz <= half && py >= floor)) {
      lifetimes[i] = 0;
      colours[i4 + 3] = 0;
      continue;
    }

    // The plane test: a dot product and a compare; penetration is pushed out along the normal.
    const nx = planes[i4]!,
      ny = planes[i4 + 1]!,
      nz = planes[i4 + 2]!;
    const distance = f(f(f(f(nx * px) + f(ny * py)) + f(nz * pz)) - planes[i4 + 3]!);
    const push = Math.max(0, f(radius - distance));
    px = f(px + f(nx * push));
    py = f(py + f(ny * push));
    pz = f(pz + f(nz * push));
    const touching = bit(push > 0);
    const landing = touching & (1 - touchingBefore[i]!);
    touchingBefore[i] = touching;
    let bounce = 0;
    if (touching !== 0) {
      // Touching is the rare case (most particles are in flight), so the contact response is a branch
      // that predicts well; computing it for everyone cost a fifth of the loop.
      const vn = f(f(f(vx * nx) + f(vy * ny)) + f(vz * nz));
      if (vn < 0) {
        bounce = bit(vn < -restSpeed);
        const outgoing = f(negRestitution * vn) * bounce;
        const impulse = f(outgoing - vn);
        const tx = f(vx - f(vn * nx)),
          ty = f(vy - f(vn * ny)),
          tz = f(vz - f(vn * nz));
        const tangential = f(Math.sqrt(f(f(f(tx * tx) + f(ty * ty)) + f(tz * tz))));
        // Coulomb friction: the normal impulse bounds how much tangential speed is lost.
        const keep = Math.max(0, f(1 - f(f(friction * impulse) / Math.max(tangential, TINY))));
        vx = f(f(tx * keep) + f(nx * outgoing));
        vy = f(f(ty * keep) + f(ny * outgoing));
        vz = f(f(tz * keep) + f(nz * outgoing));
      }
    }
    positions[i4] = px;
    positions[i4 + 1] = py;
    positions[i4 + 2] = pz;
    velocities[i4] = vx;
    velocities[i4 + 1] = vy;
    velocities[i4 + 2] = vz;
    bounces += bounce;
    live[start + alive] = i;
    alive++;

    // The cache cell of the coming arc (the direction is the raycast chord's).
    const ix = Math.floor(f(px * inverseSide)) | 0;
    const iy = Math.floor(f(py * inverseHeight)) | 0;
    const iz = Math.floor(f(pz * inverseSide)) | 0;
    // A landing or a bounce asks about the surface it arrived at: the direction it came in with is
    // kept one more frame (the change to the new one is seen, and asked about, next frame).
    const arrived = codes[i]!;
    const heading = surfaceKeys ? SURFACE_CODE : directionCode(vx, f(vy - halfDrop), vz);
    const arrival = landing | bounce;
    const direction = heading + arrival * (arrived - heading);
    const stamp = cellStamp(ix, iy, iz);
    const changed = bit(stamp !== cellStamps[i]) | bit(direction !== arrived);
    cellStamps[i] = stamp;
    codes[i] = direction;
    // A plane from the particle's own raycast holds while the particle is on its way to it. A bounce,
    // sliding into another cell, or no longer meeting it within twice the look-ahead (the arc left the
    // chord the ray followed) makes it a guess: the plane last touched.
    const vnAfter = f(f(f(vx * nx) + f(vy * ny)) + f(vz * nz));
    const gap = f(f(distance + push) - radius);
    let source = sources[i]!;
    const offCourse = bit(source === PLANE_RAY) & (1 - touching) & bit(f(gap + f(vnAfter * twiceLookahead)) > 0);
    const stale = bounce | (touching & changed) | offCourse;
    source += stale * (PLANE_CONTACT - source);
    sources[i] = source;
    const guess = 1 - bit(source === PLANE_RAY);
    const urgent = guess & bit(f(gap + f(vnAfter * urgentTime)) < 0);
    const gapAhead = f(gap + f(vnAfter * lookahead));
    const approaching = bit(gapAhead < 0);
    const withinReach = bit(gapAhead < askMargin);
    const sliding = touching & bit(f(f(f(vx * vx) + f(vy * vy)) + f(vz * vz)) > SLIDING_SPEED_SQUARED);
    const planeless = bit(source === PLANE_NONE);
    const later = guess & (1 - urgent) & (approaching | sliding | (planeless & bit(vy < 0)));
    // A guess asks the cache on entering a cell while within reach of its plane (see askMargin) or
    // planeless, and every frame once meeting it is urgent: an entry may have appeared since it
    // entered its cell.
    askers[askCount] = i;
    askCount += arrival | (cellLookups & guess & ((changed & (withinReach | planeless)) | urgent));
    // Both ends are written every time; only the chosen one advances (urgentEnd ≤ laterStart holds
    // since each particle takes at most one place).
    needy[urgentEnd] = i;
    urgentEnd += urgent;
    needy[laterStart - 1] = i;
    laterStart -= later;
  }
  lists.askCount = askCount;
  lists.urgentEnd = urgentEnd;
  lists.laterStart = laterStart;
  lists.bounces += bounces;
  lists.alive += alive;
}
