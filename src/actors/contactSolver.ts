import type { ActorBuffers } from './actorBuffers';
import * as Layout from './contactBuffer';
import type { ContactBuffer } from './contactBuffer';
import { IMPULSE_STRIDE, type ContactCache } from './contactCache';

// The record layout as module-local constants: hot loops then read plain bindings, not imported ones
// (which some module loaders turn into property getters).
const CONTACT_STRIDE = Layout.CONTACT_STRIDE;
const C_PX = Layout.C_PX;
const C_DEPTH = Layout.C_DEPTH;
const C_RA = Layout.C_RA;
const C_RB = Layout.C_RB;
const C_T1 = Layout.C_T1;
const C_T2 = Layout.C_T2;
const C_MASS_N = Layout.C_MASS_N;
const C_MASS_T1 = Layout.C_MASS_T1;
const C_MASS_T2 = Layout.C_MASS_T2;
const C_TARGET = Layout.C_TARGET;
const C_LAMBDA_N = Layout.C_LAMBDA_N;
const C_LAMBDA_T1 = Layout.C_LAMBDA_T1;
const C_LAMBDA_T2 = Layout.C_LAMBDA_T2;
const C_PUSH_TARGET = Layout.C_PUSH_TARGET;
const C_LAMBDA_PUSH = Layout.C_LAMBDA_PUSH;
const C_ROLL_RADIUS = Layout.C_ROLL_RADIUS;
const C_ROLL_MASS1 = Layout.C_ROLL_MASS1;
const C_ROLL_MASS2 = Layout.C_ROLL_MASS2;
const C_ROLL_MASS3 = Layout.C_ROLL_MASS3;
const C_LAMBDA_ROLL1 = Layout.C_LAMBDA_ROLL1;
const C_LAMBDA_ROLL2 = Layout.C_LAMBDA_ROLL2;
const C_LAMBDA_ROLL3 = Layout.C_LAMBDA_ROLL3;
const C_NX = Layout.C_NX;
const C_ANG_A_N = Layout.C_ANG_A_N;
const C_ANG_A_T1 = Layout.C_ANG_A_T1;
const C_ANG_A_T2 = Layout.C_ANG_A_T2;
const C_ANG_B_N = Layout.C_ANG_B_N;
const C_ANG_B_T1 = Layout.C_ANG_B_T1;
const C_ANG_B_T2 = Layout.C_ANG_B_T2;
const C_INV_MASS_A = Layout.C_INV_MASS_A;
const C_INV_MASS_B = Layout.C_INV_MASS_B;

export interface SolverSettings {
  restitution: number;
  friction: number;
  /** Rolling resistance: the torque opposing rolling is at most this × normal impulse × contact radius. */
  rollingResistance: number;
  /** Approach speed (m/s) below which contacts do not bounce: resting contacts must not jitter. */
  restitutionThreshold: number;
  /** Overlap (m) left alone, so resting contacts stay touching instead of flickering. */
  slop: number;
  /** Fraction of the overlap removed per substep by the push-out pass. */
  pushFactor: number;
  /** Cap on the push-out speed (m/s), so a deep overlap resolves over a few substeps, not in one kick. */
  maxPushSpeed: number;
}

/**
 * Sequential impulses (Catto) on the contact points, with split impulses for the overlap: the velocity
 * pass makes the contacts non-penetrating, bouncy by `restitution` above a threshold, Coulomb-frictional
 * (each tangent clamped to ±μ·normal impulse) and resistant to rolling and spinning (the relative spin
 * about each tangent and the normal clamped to ±rollingResistance·normal impulse·radius: without it a
 * sphere or a capsule rolls down the gentlest slope for ever, or spins in place, and never sleeps); a
 * second pass on separate push-out velocities removes
 * overlap, and those velocities move the actors this substep only — position correction that adds no
 * kinetic energy, which is what keeps a pile from popping.
 *
 * Sleeping actors take part as immovable bodies (infinite mass); the terrain is body TERRAIN.
 */
export function prepareContacts(actors: ActorBuffers, contacts: ContactBuffer, substep: number, settings: SolverSettings): void {
  const data = contacts.data;
  const bodies = contacts.bodies;
  const position = actors.position;
  const awake = actors.awake;
  const invMass = actors.invMass;
  const inertia = actors.invInertiaWorld;
  const velocity = actors.velocity;
  const angular = actors.angularVelocity;
  const { restitution, restitutionThreshold, slop, pushFactor, maxPushSpeed } = settings;
  const inverseStep = 1 / substep;
  for (let c = 0; c < contacts.count; c++) {
    const o = CONTACT_STRIDE * c;
    const a = bodies[2 * c]!;
    const b = bodies[2 * c + 1]!;
    const nx = data[o]!,
      ny = data[o + 1]!,
      nz = data[o + 2]!;
    const px = data[o + C_PX]!,
      py = data[o + C_PX + 1]!,
      pz = data[o + C_PX + 2]!;
    const depth = data[o + C_DEPTH]!;
    const dynamicA = awake[a] !== 0;
    const dynamicB = b >= 0 && awake[b] !== 0;
    const rax = px - position[3 * a]!,
      ray = py - position[3 * a + 1]!,
      raz = pz - position[3 * a + 2]!;
    let rbx = 0,
      rby = 0,
      rbz = 0;
    if (b >= 0) {
      rbx = px - position[3 * b]!;
      rby = py - position[3 * b + 1]!;
      rbz = pz - position[3 * b + 2]!;
    }
    data[o + C_RA] = rax;
    data[o + C_RA + 1] = ray;
    data[o + C_RA + 2] = raz;
    data[o + C_RB] = rbx;
    data[o + C_RB + 1] = rby;
    data[o + C_RB + 2] = rbz;
    // Tangents: any orthonormal pair across the normal.
    let t1x: number, t1y: number, t1z: number;
    if (Math.abs(nx) > 0.57735) {
      const l = 1 / Math.sqrt(nx * nx + ny * ny);
      t1x = ny * l;
      t1y = -nx * l;
      t1z = 0;
    } else {
      const l = 1 / Math.sqrt(ny * ny + nz * nz);
      t1x = 0;
      t1y = nz * l;
      t1z = -ny * l;
    }
    const t2x = ny * t1z - nz * t1y,
      t2y = nz * t1x - nx * t1z,
      t2z = nx * t1y - ny * t1x;
    data[o + C_T1] = t1x;
    data[o + C_T1 + 1] = t1y;
    data[o + C_T1 + 2] = t1z;
    data[o + C_T2] = t2x;
    data[o + C_T2 + 1] = t2y;
    data[o + C_T2 + 2] = t2z;
    const ma = dynamicA ? invMass[a]! : 0;
    const mb = dynamicB ? invMass[b]! : 0;
    const ia = dynamicA ? 9 * a : -1;
    const ib = dynamicB ? 9 * b : -1;
    data[o + C_INV_MASS_A] = ma;
    data[o + C_INV_MASS_B] = mb;
    writeEffectiveMasses(data, o, inertia, ia, ib);

    // Normal velocity before the solve, for restitution.
    let vx = velocity[3 * a]! + angular[3 * a + 1]! * raz - angular[3 * a + 2]! * ray;
    let vy = velocity[3 * a + 1]! + angular[3 * a + 2]! * rax - angular[3 * a]! * raz;
    let vz = velocity[3 * a + 2]! + angular[3 * a]! * ray - angular[3 * a + 1]! * rax;
    if (b >= 0) {
      vx -= velocity[3 * b]! + angular[3 * b + 1]! * rbz - angular[3 * b + 2]! * rby;
      vy -= velocity[3 * b + 1]! + angular[3 * b + 2]! * rbx - angular[3 * b]! * rbz;
      vz -= velocity[3 * b + 2]! + angular[3 * b]! * rby - angular[3 * b + 1]! * rbx;
    }
    const normalSpeed = vx * nx + vy * ny + vz * nz;
    // A gap may close within the substep and no more (speculative contact); touching contacts bounce.
    let target = depth < 0 ? depth * inverseStep : 0;
    if (depth >= -slop && normalSpeed < -restitutionThreshold) target = Math.max(target, -restitution * normalSpeed);
    data[o + C_TARGET] = target;
    data[o + C_PUSH_TARGET] = depth > slop ? Math.min(pushFactor * (depth - slop) * inverseStep, maxPushSpeed) : 0;
    data[o + C_LAMBDA_N] = 0;
    data[o + C_LAMBDA_T1] = 0;
    data[o + C_LAMBDA_T2] = 0;
    data[o + C_LAMBDA_PUSH] = 0;
    data[o + C_LAMBDA_ROLL1] = 0;
    data[o + C_LAMBDA_ROLL2] = 0;
    data[o + C_LAMBDA_ROLL3] = 0;
  }
}

/**
 * Warm starting: every contact the cache knows (same bodies, same features) starts from the impulses it
 * ended the last substep with — scaled by the ratio of the substeps, clamped to this substep's friction
 * cone and rolling limit — and those impulses are applied to the velocities before the sweeps. Call it
 * after prepareContacts. Returns how many contacts the cache knew (some of them with no impulse).
 */
export function warmStartContacts(
  actors: ActorBuffers,
  contacts: ContactBuffer,
  cache: ContactCache,
  substep: number,
  friction: number,
  rollingResistance: number,
): number {
  if (cache.count === 0 || !(cache.substep > 0)) return 0;
  const data = contacts.data;
  const bodies = contacts.bodies;
  const features = contacts.features;
  const awake = actors.awake;
  const inertia = actors.invInertiaWorld;
  const v = actors.velocity;
  const w = actors.angularVelocity;
  const impulses = cache.impulses;
  const scale = substep / cache.substep;
  let started = 0;
  for (let c = 0; c < contacts.count; c++) {
    const a = bodies[2 * c]!;
    const b = bodies[2 * c + 1]!;
    const entry = cache.find(a, b, features[2 * c]!, features[2 * c + 1]!);
    if (entry < 0) continue;
    started++;
    const e = IMPULSE_STRIDE * entry;
    const normal = impulses[e]! * scale;
    if (!(normal > 0)) continue;
    const o = CONTACT_STRIDE * c;
    const nx = data[o]!,
      ny = data[o + 1]!,
      nz = data[o + 2]!;
    const t1x = data[o + C_T1]!,
      t1y = data[o + C_T1 + 1]!,
      t1z = data[o + C_T1 + 2]!;
    const t2x = data[o + C_T2]!,
      t2y = data[o + C_T2 + 1]!,
      t2z = data[o + C_T2 + 2]!;
    const limit = friction * normal;
    const fx = impulses[e + 1]! * scale,
      fy = impulses[e + 2]! * scale,
      fz = impulses[e + 3]! * scale;
    const f1 = clamp(fx * t1x + fy * t1y + fz * t1z, limit);
    const f2 = clamp(fx * t2x + fy * t2y + fz * t2z, limit);
    const rollLimit = rollingResistance * normal * data[o + C_ROLL_RADIUS]!;
    const rx = impulses[e + 4]! * scale,
      ry = impulses[e + 5]! * scale,
      rz = impulses[e + 6]! * scale;
    const r1 = clamp(rx * t1x + ry * t1y + rz * t1z, rollLimit);
    const r2 = clamp(rx * t2x + ry * t2y + rz * t2z, rollLimit);
    const r3 = clamp(rx * nx + ry * ny + rz * nz, rollLimit);
    data[o + C_LAMBDA_N] = normal;
    data[o + C_LAMBDA_T1] = f1;
    data[o + C_LAMBDA_T2] = f2;
    data[o + C_LAMBDA_ROLL1] = r1;
    data[o + C_LAMBDA_ROLL2] = r2;
    data[o + C_LAMBDA_ROLL3] = r3;
    const dynamicA = awake[a] !== 0;
    const dynamicB = b >= 0 && awake[b] !== 0;
    applyWarmStart(v, w, data, o, a, dynamicA, b, dynamicB);
    const ax = r1 * t1x + r2 * t2x + r3 * nx,
      ay = r1 * t1y + r2 * t2y + r3 * ny,
      az = r1 * t1z + r2 * t2z + r3 * nz;
    if (dynamicA) {
      const i = 9 * a;
      const a3 = 3 * a;
      w[a3] = w[a3]! + inertia[i]! * ax + inertia[i + 1]! * ay + inertia[i + 2]! * az;
      w[a3 + 1] = w[a3 + 1]! + inertia[i + 3]! * ax + inertia[i + 4]! * ay + inertia[i + 5]! * az;
      w[a3 + 2] = w[a3 + 2]! + inertia[i + 6]! * ax + inertia[i + 7]! * ay + inertia[i + 8]! * az;
    }
    if (dynamicB) {
      const i = 9 * b;
      const b3 = 3 * b;
      w[b3] = w[b3]! - (inertia[i]! * ax + inertia[i + 1]! * ay + inertia[i + 2]! * az);
      w[b3 + 1] = w[b3 + 1]! - (inertia[i + 3]! * ax + inertia[i + 4]! * ay + inertia[i + 5]! * az);
      w[b3 + 2] = w[b3 + 2]! - (inertia[i + 6]! * ax + inertia[i + 7]! * ay + inertia[i + 8]! * az);
    }
  }
  return started;
}

const clamp = (value: number, limit: number): number => (value > limit ? limit : value < -limit ? -limit : value);

const inverseOr0 = (k: number): number => (k > 0 ? 1 / k : 0);

/** Where a contact record keeps each direction of its basis: the normal, then the two tangents. */
const DIRECTION_OFFSETS = [C_NX, C_T1, C_T2] as const;

/**
 * The record's effective masses along the normal and the tangents, its rolling masses about them, and
 * the angular responses I⁻¹ (r × d) of both bodies (zeros for a body that does not move, i < 0), from
 * the record's offsets, basis and inverse masses. Plain integer arguments: a call V8 does not inline
 * would box every float passed to it.
 */
function writeEffectiveMasses(data: Float64Array, o: number, inertia: Float64Array, ia: number, ib: number): void {
  const linear = data[o + C_INV_MASS_A]! + data[o + C_INV_MASS_B]!;
  let massN = linear,
    massT1 = linear,
    massT2 = linear;
  let spinN = 0,
    spinT1 = 0,
    spinT2 = 0;
  for (let side = 0; side < 2; side++) {
    const i = side === 0 ? ia : ib;
    const at = o + C_ANG_A_N + 9 * side;
    if (i < 0) {
      // (Plain stores: a call to fill costs more than the nine of them.)
      for (let k = at; k < at + 9; k++) data[k] = 0;
      continue;
    }
    const r = o + (side === 0 ? C_RA : C_RB);
    const rx = data[r]!,
      ry = data[r + 1]!,
      rz = data[r + 2]!;
    const i00 = inertia[i]!,
      i01 = inertia[i + 1]!,
      i02 = inertia[i + 2]!,
      i10 = inertia[i + 3]!,
      i11 = inertia[i + 4]!,
      i12 = inertia[i + 5]!,
      i20 = inertia[i + 6]!,
      i21 = inertia[i + 7]!,
      i22 = inertia[i + 8]!;
    for (let direction = 0; direction < 3; direction++) {
      const d = o + DIRECTION_OFFSETS[direction]!;
      const dx = data[d]!,
        dy = data[d + 1]!,
        dz = data[d + 2]!;
      const cx = ry * dz - rz * dy,
        cy = rz * dx - rx * dz,
        cz = rx * dy - ry * dx;
      const ix = i00 * cx + i01 * cy + i02 * cz;
      const iy = i10 * cx + i11 * cy + i12 * cz;
      const iz = i20 * cx + i21 * cy + i22 * cz;
      const to = at + 3 * direction;
      data[to] = ix;
      data[to + 1] = iy;
      data[to + 2] = iz;
      const term = cx * ix + cy * iy + cz * iz;
      const spin = dx * (i00 * dx + i01 * dy + i02 * dz) + dy * (i10 * dx + i11 * dy + i12 * dz) + dz * (i20 * dx + i21 * dy + i22 * dz);
      if (direction === 0) {
        massN += term;
        spinN += spin;
      } else if (direction === 1) {
        massT1 += term;
        spinT1 += spin;
      } else {
        massT2 += term;
        spinT2 += spin;
      }
    }
  }
  data[o + C_MASS_N] = inverseOr0(massN);
  data[o + C_MASS_T1] = inverseOr0(massT1);
  data[o + C_MASS_T2] = inverseOr0(massT2);
  data[o + C_ROLL_MASS1] = inverseOr0(spinT1);
  data[o + C_ROLL_MASS2] = inverseOr0(spinT2);
  data[o + C_ROLL_MASS3] = inverseOr0(spinN);
}

/** Velocity pass: friction then the normal, `iterations` sweeps over all contacts. */
export function solveVelocities(
  actors: ActorBuffers,
  contacts: ContactBuffer,
  iterations: number,
  friction: number,
  rollingResistance: number,
): void {
  const data = contacts.data;
  const bodies = contacts.bodies;
  const count = contacts.count;
  const awake = actors.awake;
  const inertia = actors.invInertiaWorld;
  const v = actors.velocity;
  const w = actors.angularVelocity;
  for (let iteration = 0; iteration < iterations; iteration++) {
    for (let c = 0; c < count; c++) {
      const o = CONTACT_STRIDE * c;
      const a = bodies[2 * c]!;
      const b = bodies[2 * c + 1]!;
      const dynamicA = awake[a] !== 0;
      const dynamicB = b >= 0 && awake[b] !== 0;
      const rax = data[o + C_RA]!,
        ray = data[o + C_RA + 1]!,
        raz = data[o + C_RA + 2]!;
      const rbx = data[o + C_RB]!,
        rby = data[o + C_RB + 1]!,
        rbz = data[o + C_RB + 2]!;
      const a3 = 3 * a;
      const b3 = 3 * b;
      // Relative velocity of the contact point, a minus b.
      let vx = v[a3]! + w[a3 + 1]! * raz - w[a3 + 2]! * ray;
      let vy = v[a3 + 1]! + w[a3 + 2]! * rax - w[a3]! * raz;
      let vz = v[a3 + 2]! + w[a3]! * ray - w[a3 + 1]! * rax;
      if (b >= 0) {
        vx -= v[b3]! + w[b3 + 1]! * rbz - w[b3 + 2]! * rby;
        vy -= v[b3 + 1]! + w[b3 + 2]! * rbx - w[b3]! * rbz;
        vz -= v[b3 + 2]! + w[b3]! * rby - w[b3 + 1]! * rbx;
      }
      const limit = friction * data[o + C_LAMBDA_N]!;
      const rollLimit = rollingResistance * data[o + C_LAMBDA_N]! * data[o + C_ROLL_RADIUS]!;
      // (With no normal impulse yet and none applied before, the rows could only clamp to zero.)
      if (rollLimit > 0 || data[o + C_LAMBDA_ROLL1] !== 0 || data[o + C_LAMBDA_ROLL2] !== 0 || data[o + C_LAMBDA_ROLL3] !== 0) {
        // Rolling and spinning resistance: angular impulses about the tangents and the normal.
        let sx = w[a3]!,
          sy = w[a3 + 1]!,
          sz = w[a3 + 2]!;
        if (b >= 0) {
          sx -= w[b3]!;
          sy -= w[b3 + 1]!;
          sz -= w[b3 + 2]!;
        }
        let ax = 0,
          ay = 0,
          az = 0;
        // The three rows unrolled (same operations in the same order as a loop over them).
        {
          // Row about the first tangent.
          const tx = data[o + C_T1]!,
            ty = data[o + C_T1 + 1]!,
            tz = data[o + C_T1 + 2]!;
          const old = data[o + C_LAMBDA_ROLL1]!;
          let lambda = old - data[o + C_ROLL_MASS1]! * (sx * tx + sy * ty + sz * tz);
          if (lambda > rollLimit) lambda = rollLimit;
          else if (lambda < -rollLimit) lambda = -rollLimit;
          data[o + C_LAMBDA_ROLL1] = lambda;
          const d = lambda - old;
          ax += d * tx;
          ay += d * ty;
          az += d * tz;
        }
        {
          // Row about the second tangent.
          const tx = data[o + C_T2]!,
            ty = data[o + C_T2 + 1]!,
            tz = data[o + C_T2 + 2]!;
          const old = data[o + C_LAMBDA_ROLL2]!;
          let lambda = old - data[o + C_ROLL_MASS2]! * (sx * tx + sy * ty + sz * tz);
          if (lambda > rollLimit) lambda = rollLimit;
          else if (lambda < -rollLimit) lambda = -rollLimit;
          data[o + C_LAMBDA_ROLL2] = lambda;
          const d = lambda - old;
          ax += d * tx;
          ay += d * ty;
          az += d * tz;
        }
        {
          // Row about the normal (spinning).
          const tx = data[o + C_NX]!,
            ty = data[o + C_NX + 1]!,
            tz = data[o + C_NX + 2]!;
          const old = data[o + C_LAMBDA_ROLL3]!;
          let lambda = old - data[o + C_ROLL_MASS3]! * (sx * tx + sy * ty + sz * tz);
          if (lambda > rollLimit) lambda = rollLimit;
          else if (lambda < -rollLimit) lambda = -rollLimit;
          data[o + C_LAMBDA_ROLL3] = lambda;
          const d = lambda - old;
          ax += d * tx;
          ay += d * ty;
          az += d * tz;
        }
        if (ax !== 0 || ay !== 0 || az !== 0) {
          if (dynamicA) {
            const i = 9 * a;
            w[a3] = w[a3]! + inertia[i]! * ax + inertia[i + 1]! * ay + inertia[i + 2]! * az;
            w[a3 + 1] = w[a3 + 1]! + inertia[i + 3]! * ax + inertia[i + 4]! * ay + inertia[i + 5]! * az;
            w[a3 + 2] = w[a3 + 2]! + inertia[i + 6]! * ax + inertia[i + 7]! * ay + inertia[i + 8]! * az;
          }
          if (dynamicB) {
            const i = 9 * b;
            w[b3] = w[b3]! - (inertia[i]! * ax + inertia[i + 1]! * ay + inertia[i + 2]! * az);
            w[b3 + 1] = w[b3 + 1]! - (inertia[i + 3]! * ax + inertia[i + 4]! * ay + inertia[i + 5]! * az);
            w[b3 + 2] = w[b3 + 2]! - (inertia[i + 6]! * ax + inertia[i + 7]! * ay + inertia[i + 8]! * az);
          }
          vx = v[a3]! + w[a3 + 1]! * raz - w[a3 + 2]! * ray;
          vy = v[a3 + 1]! + w[a3 + 2]! * rax - w[a3]! * raz;
          vz = v[a3 + 2]! + w[a3]! * ray - w[a3 + 1]! * rax;
          if (b >= 0) {
            vx -= v[b3]! + w[b3 + 1]! * rbz - w[b3 + 2]! * rby;
            vy -= v[b3 + 1]! + w[b3 + 2]! * rbx - w[b3]! * rbz;
            vz -= v[b3 + 2]! + w[b3]! * rby - w[b3 + 1]! * rbx;
          }
        }
      }
      let d1: number, d2: number;
      // Friction along the two tangents, each clamped to the friction cone's box.
      {
        const tx = data[o + C_T1]!,
          ty = data[o + C_T1 + 1]!,
          tz = data[o + C_T1 + 2]!;
        const speed = vx * tx + vy * ty + vz * tz;
        const old = data[o + C_LAMBDA_T1]!;
        let lambda = old - data[o + C_MASS_T1]! * speed;
        if (lambda > limit) lambda = limit;
        else if (lambda < -limit) lambda = -limit;
        data[o + C_LAMBDA_T1] = lambda;
        d1 = lambda - old;
      }
      {
        const tx = data[o + C_T2]!,
          ty = data[o + C_T2 + 1]!,
          tz = data[o + C_T2 + 2]!;
        const speed = vx * tx + vy * ty + vz * tz;
        const old = data[o + C_LAMBDA_T2]!;
        let lambda = old - data[o + C_MASS_T2]! * speed;
        if (lambda > limit) lambda = limit;
        else if (lambda < -limit) lambda = -limit;
        data[o + C_LAMBDA_T2] = lambda;
        d2 = lambda - old;
      }
      if (d1 !== 0 || d2 !== 0) {
        pending[0] = d1;
        pending[1] = d2;
        applyFrictionImpulse(v, w, data, o, a3, dynamicA, b3, dynamicB);
        // The normal row sees the friction just applied.
        vx = v[a3]! + w[a3 + 1]! * raz - w[a3 + 2]! * ray;
        vy = v[a3 + 1]! + w[a3 + 2]! * rax - w[a3]! * raz;
        vz = v[a3 + 2]! + w[a3]! * ray - w[a3 + 1]! * rax;
        if (b >= 0) {
          vx -= v[b3]! + w[b3 + 1]! * rbz - w[b3 + 2]! * rby;
          vy -= v[b3 + 1]! + w[b3 + 2]! * rbx - w[b3]! * rbz;
          vz -= v[b3 + 2]! + w[b3]! * rby - w[b3 + 1]! * rbx;
        }
      }
      const nx = data[o]!,
        ny = data[o + 1]!,
        nz = data[o + 2]!;
      const normalSpeed = vx * nx + vy * ny + vz * nz;
      const old = data[o + C_LAMBDA_N]!;
      const lambda = Math.max(0, old + data[o + C_MASS_N]! * (data[o + C_TARGET]! - normalSpeed));
      data[o + C_LAMBDA_N] = lambda;
      const d = lambda - old;
      if (d !== 0) {
        pending[0] = d;
        applyNormalImpulse(v, w, data, o, a3, dynamicA, b3, dynamicB);
      }
    }
  }
}

/** Push-out pass on the split-impulse velocities: normal rows only. */
export function solvePushOut(actors: ActorBuffers, contacts: ContactBuffer, iterations: number): void {
  const data = contacts.data;
  const bodies = contacts.bodies;
  const count = contacts.count;
  const awake = actors.awake;
  const v = actors.pushVelocity;
  const w = actors.pushAngular;
  for (let iteration = 0; iteration < iterations; iteration++) {
    for (let c = 0; c < count; c++) {
      const o = CONTACT_STRIDE * c;
      const target = data[o + C_PUSH_TARGET]!;
      if (target === 0 && data[o + C_LAMBDA_PUSH] === 0) continue;
      const a = bodies[2 * c]!;
      const b = bodies[2 * c + 1]!;
      const dynamicA = awake[a] !== 0;
      const dynamicB = b >= 0 && awake[b] !== 0;
      const rax = data[o + C_RA]!,
        ray = data[o + C_RA + 1]!,
        raz = data[o + C_RA + 2]!;
      const rbx = data[o + C_RB]!,
        rby = data[o + C_RB + 1]!,
        rbz = data[o + C_RB + 2]!;
      const a3 = 3 * a;
      const b3 = 3 * b;
      let vx = v[a3]! + w[a3 + 1]! * raz - w[a3 + 2]! * ray;
      let vy = v[a3 + 1]! + w[a3 + 2]! * rax - w[a3]! * raz;
      let vz = v[a3 + 2]! + w[a3]! * ray - w[a3 + 1]! * rax;
      if (b >= 0) {
        vx -= v[b3]! + w[b3 + 1]! * rbz - w[b3 + 2]! * rby;
        vy -= v[b3 + 1]! + w[b3 + 2]! * rbx - w[b3]! * rbz;
        vz -= v[b3 + 2]! + w[b3]! * rby - w[b3 + 1]! * rbx;
      }
      const nx = data[o]!,
        ny = data[o + 1]!,
        nz = data[o + 2]!;
      const old = data[o + C_LAMBDA_PUSH]!;
      const lambda = Math.max(0, old + data[o + C_MASS_N]! * (target - (vx * nx + vy * ny + vz * nz)));
      data[o + C_LAMBDA_PUSH] = lambda;
      const d = lambda - old;
      if (d !== 0) {
        pending[0] = d;
        applyNormalImpulse(v, w, data, o, a3, dynamicA, b3, dynamicB);
      }
    }
  }
}

/**
 * The impulse a helper below applies, passed through this array: a call V8 does not inline would box
 * every float passed to it, and the sweeps make several per contact.
 */
const pending = new Float64Array(2);

/**
 * The warm-start impulse of contact record o, from its normal and tangent impulses: P = λn·n + λ1·t1 +
 * λ2·t2, +P on a and −P on b through the record's inverse masses and angular responses; immovable
 * bodies are left alone.
 */
function applyWarmStart(
  v: Float64Array,
  w: Float64Array,
  data: Float64Array,
  o: number,
  a: number,
  dynamicA: boolean,
  b: number,
  dynamicB: boolean,
): void {
  const dn = data[o + C_LAMBDA_N]!,
    d1 = data[o + C_LAMBDA_T1]!,
    d2 = data[o + C_LAMBDA_T2]!;
  const px = dn * data[o]! + d1 * data[o + C_T1]! + d2 * data[o + C_T2]!,
    py = dn * data[o + 1]! + d1 * data[o + C_T1 + 1]! + d2 * data[o + C_T2 + 1]!,
    pz = dn * data[o + 2]! + d1 * data[o + C_T1 + 2]! + d2 * data[o + C_T2 + 2]!;
  if (dynamicA) {
    const m = data[o + C_INV_MASS_A]!;
    const a3 = 3 * a;
    v[a3] = v[a3]! + m * px;
    v[a3 + 1] = v[a3 + 1]! + m * py;
    v[a3 + 2] = v[a3 + 2]! + m * pz;
    const n = o + C_ANG_A_N,
      t1 = o + C_ANG_A_T1,
      t2 = o + C_ANG_A_T2;
    w[a3] = w[a3]! + (dn * data[n]! + d1 * data[t1]! + d2 * data[t2]!);
    w[a3 + 1] = w[a3 + 1]! + (dn * data[n + 1]! + d1 * data[t1 + 1]! + d2 * data[t2 + 1]!);
    w[a3 + 2] = w[a3 + 2]! + (dn * data[n + 2]! + d1 * data[t1 + 2]! + d2 * data[t2 + 2]!);
  }
  if (dynamicB) {
    const m = data[o + C_INV_MASS_B]!;
    const b3 = 3 * b;
    v[b3] = v[b3]! - m * px;
    v[b3 + 1] = v[b3 + 1]! - m * py;
    v[b3 + 2] = v[b3 + 2]! - m * pz;
    const n = o + C_ANG_B_N,
      t1 = o + C_ANG_B_T1,
      t2 = o + C_ANG_B_T2;
    w[b3] = w[b3]! - (dn * data[n]! + d1 * data[t1]! + d2 * data[t2]!);
    w[b3 + 1] = w[b3 + 1]! - (dn * data[n + 1]! + d1 * data[t1 + 1]! + d2 * data[t2 + 1]!);
    w[b3 + 2] = w[b3 + 2]! - (dn * data[n + 2]! + d1 * data[t1 + 2]! + d2 * data[t2 + 2]!);
  }
}

/** The friction impulse Δλ1·t1 + Δλ2·t2 at contact record o, pending = [Δλ1, Δλ2] (a3, b3: the bodies' vector offsets). */
function applyFrictionImpulse(
  v: Float64Array,
  w: Float64Array,
  data: Float64Array,
  o: number,
  a3: number,
  dynamicA: boolean,
  b3: number,
  dynamicB: boolean,
): void {
  const d1 = pending[0]!,
    d2 = pending[1]!;
  // Summed from zero as the sweeps summed friction impulses before, so the rounding is the same.
  const px = 0 + d1 * data[o + C_T1]! + d2 * data[o + C_T2]!,
    py = 0 + d1 * data[o + C_T1 + 1]! + d2 * data[o + C_T2 + 1]!,
    pz = 0 + d1 * data[o + C_T1 + 2]! + d2 * data[o + C_T2 + 2]!;
  if (dynamicA) {
    const m = data[o + C_INV_MASS_A]!;
    v[a3] = v[a3]! + m * px;
    v[a3 + 1] = v[a3 + 1]! + m * py;
    v[a3 + 2] = v[a3 + 2]! + m * pz;
    const t1 = o + C_ANG_A_T1,
      t2 = o + C_ANG_A_T2;
    w[a3] = w[a3]! + (d1 * data[t1]! + d2 * data[t2]!);
    w[a3 + 1] = w[a3 + 1]! + (d1 * data[t1 + 1]! + d2 * data[t2 + 1]!);
    w[a3 + 2] = w[a3 + 2]! + (d1 * data[t1 + 2]! + d2 * data[t2 + 2]!);
  }
  if (dynamicB) {
    const m = data[o + C_INV_MASS_B]!;
    v[b3] = v[b3]! - m * px;
    v[b3 + 1] = v[b3 + 1]! - m * py;
    v[b3 + 2] = v[b3 + 2]! - m * pz;
    const t1 = o + C_ANG_B_T1,
      t2 = o + C_ANG_B_T2;
    w[b3] = w[b3]! - (d1 * data[t1]! + d2 * data[t2]!);
    w[b3 + 1] = w[b3 + 1]! - (d1 * data[t1 + 1]! + d2 * data[t2 + 1]!);
    w[b3 + 2] = w[b3 + 2]! - (d1 * data[t1 + 2]! + d2 * data[t2 + 2]!);
  }
}

/** The normal impulse Δλ·n at contact record o, pending[0] = Δλ (a3, b3: the bodies' vector offsets). */
function applyNormalImpulse(
  v: Float64Array,
  w: Float64Array,
  data: Float64Array,
  o: number,
  a3: number,
  dynamicA: boolean,
  b3: number,
  dynamicB: boolean,
): void {
  const d = pending[0]!;
  const nx = data[o]!,
    ny = data[o + 1]!,
    nz = data[o + 2]!;
  if (dynamicA) {
    const m = d * data[o + C_INV_MASS_A]!;
    v[a3] = v[a3]! + m * nx;
    v[a3 + 1] = v[a3 + 1]! + m * ny;
    v[a3 + 2] = v[a3 + 2]! + m * nz;
    const n = o + C_ANG_A_N;
    w[a3] = w[a3]! + d * data[n]!;
    w[a3 + 1] = w[a3 + 1]! + d * data[n + 1]!;
    w[a3 + 2] = w[a3 + 2]! + d * data[n + 2]!;
  }
  if (dynamicB) {
    const m = d * data[o + C_INV_MASS_B]!;
    v[b3] = v[b3]! - m * nx;
    v[b3 + 1] = v[b3 + 1]! - m * ny;
    v[b3 + 2] = v[b3 + 2]! - m * nz;
    const n = o + C_ANG_B_N;
    w[b3] = w[b3]! - d * data[n]!;
    w[b3 + 1] = w[b3 + 1]! - d * data[n + 1]!;
    w[b3 + 2] = w[b3 + 2]! - d * data[n + 2]!;
  }
}
