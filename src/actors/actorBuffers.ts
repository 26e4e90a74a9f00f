import { InvalidParameterError } from '../errors';
import { boundingRadius, contactSpheres, encodeShape, massProperties, SHAPE_BOX, type ActorShape } from './shapes';

type NumberArray = Float64Array | Float32Array | Uint32Array | Uint16Array | Uint8Array;
/** A larger array of the same kind holding the old one's values first. */
function grow<T extends NumberArray>(array: T, length: number): T {
  const grown = new (array.constructor as new (length: number) => T)(length);
  grown.set(array);
  return grown;
}

/**
 * Every actor of the world as structure of arrays; actor i's fields sit at i (scalars), 3i (vectors),
 * 4i (quaternions x, y, z, w) or 9i (3×3 matrices, row-major). The state — what the next steps depend
 * on and what snapshots copy — is shape, mass, position, orientation, velocities, sleep and the contact
 * spheres; rotation, world inverse inertia, world sphere centres and boxes are derived from it
 * (refreshDerived).
 */
export class ActorBuffers {
  count = 0;
  capacity = 0;
  kind = new Uint8Array(0);
  size = new Float64Array(0);
  /** Collision-filter group bits: a call with filter f affects actor i when (group[i] & f) !== 0. */
  group = new Uint32Array(0);
  position = new Float64Array(0);
  orientation = new Float64Array(0);
  velocity = new Float64Array(0);
  angularVelocity = new Float64Array(0);
  invMass = new Float64Array(0);
  /** Inverse principal moments about the local axes. */
  invInertia = new Float64Array(0);
  radius = new Float64Array(0);
  awake = new Uint8Array(0);
  /** Consecutive steps spent below the sleep thresholds. */
  restFrames = new Uint16Array(0);
  /** Fell off the terrain: frozen for good. */
  lost = new Uint8Array(0);
  /** Forces and torques accumulated for the next step (wind, user pushes), cleared by it. */
  force = new Float64Array(0);
  torque = new Float64Array(0);
  /** The wind force last applied to each actor (zero when asleep or filtered out). */
  windForce = new Float32Array(0);
  sphereStart = new Uint32Array(0);
  sphereCount = new Uint16Array(0);
  sphereTotal = 0;
  /** Contact spheres in the actor's frame: x, y, z, radius. */
  sphereLocal = new Float64Array(0);

  // Derived.
  rotation = new Float64Array(0);
  invInertiaWorld = new Float64Array(0);
  sphereWorld = new Float64Array(0);
  /** Bounds of each actor's contact spheres (and of the box itself, for a box), min xyz then max xyz. */
  box = new Float64Array(0);
  /** Whether the actor touched the terrain or another actor in the last step (only supported actors sleep). */
  touching = new Uint8Array(0);
  /** Split-impulse push-out velocities (linear, angular), alive within one substep. */
  pushVelocity = new Float64Array(0);
  pushAngular = new Float64Array(0);

  private readonly massScratch = new Float64Array(4);
  private readonly sphereScratch: number[] = [];

  clear(): void {
    this.count = 0;
    this.sphereTotal = 0;
  }

  /**
   * Adds an actor at rest, awake. `orientation` is a quaternion (x, y, z, w), normalised here. Throws
   * InvalidParameterError for a bad shape, a non-finite position or orientation, or a density ≤ 0.
   */
  add(shape: ActorShape, position: ArrayLike<number>, orientation: ArrayLike<number> = [0, 0, 0, 1], density = 1, group = 1): number {
    for (let k = 0; k < 3; k++) if (!Number.isFinite(position[k])) throw new InvalidParameterError(`position[${k}]`, 'a finite number', position[k]);
    const qx = orientation[0]!,
      qy = orientation[1]!,
      qz = orientation[2]!,
      qw = orientation[3]!;
    const qLength = Math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw);
    if (!(qLength > 1e-12) || !Number.isFinite(qLength))
      throw new InvalidParameterError('orientation', 'a finite non-zero quaternion (x, y, z, w)', Array.from(orientation).join(', '));
    if (!(density > 0) || !Number.isFinite(density)) throw new InvalidParameterError('density', 'a finite number > 0', density);
    const mass = this.massScratch;
    const i = this.count;
    this.reserve(i + 1, this.sphereTotal);
    const kind = encodeShape(shape, this.size, 3 * i);
    const sx = this.size[3 * i]!,
      sy = this.size[3 * i + 1]!,
      sz = this.size[3 * i + 2]!;
    const spheres = this.sphereScratch;
    spheres.length = 0;
    const n = contactSpheres(kind, sx, sy, sz, spheres);
    this.reserve(i + 1, this.sphereTotal + n);
    this.kind[i] = kind;
    this.group[i] = group >>> 0;
    this.position.set([position[0]!, position[1]!, position[2]!], 3 * i);
    this.orientation.set([qx / qLength, qy / qLength, qz / qLength, qw / qLength], 4 * i);
    this.velocity.fill(0, 3 * i, 3 * i + 3);
    this.angularVelocity.fill(0, 3 * i, 3 * i + 3);
    massProperties(kind, sx, sy, sz, density, mass);
    this.invMass[i] = 1 / mass[0]!;
    this.invInertia[3 * i] = 1 / mass[1]!;
    this.invInertia[3 * i + 1] = 1 / mass[2]!;
    this.invInertia[3 * i + 2] = 1 / mass[3]!;
    this.radius[i] = boundingRadius(kind, sx, sy, sz);
    this.awake[i] = 1;
    this.restFrames[i] = 0;
    this.lost[i] = 0;
    this.force.fill(0, 3 * i, 3 * i + 3);
    this.torque.fill(0, 3 * i, 3 * i + 3);
    this.windForce.fill(0, 3 * i, 3 * i + 3);
    this.sphereStart[i] = this.sphereTotal;
    this.sphereCount[i] = n;
    this.sphereLocal.set(spheres, 4 * this.sphereTotal);
    this.sphereTotal += n;
    this.count = i + 1;
    this.refreshActor(i);
    return i;
  }

  /** Grows the arrays (doubling) to hold at least `actors` actors and `spheres` contact spheres. */
  reserve(actors: number, spheres: number): void {
    if (actors > this.capacity) {
      const c = Math.max(actors, 2 * this.capacity, 16);
      this.kind = grow(this.kind, c);
      this.size = grow(this.size, 3 * c);
      this.group = grow(this.group, c);
      this.position = grow(this.position, 3 * c);
      this.orientation = grow(this.orientation, 4 * c);
      this.velocity = grow(this.velocity, 3 * c);
      this.angularVelocity = grow(this.angularVelocity, 3 * c);
      this.invMass = grow(this.invMass, c);
      this.invInertia = grow(this.invInertia, 3 * c);
      this.radius = grow(this.radius, c);
      this.awake = grow(this.awake, c);
      this.restFrames = grow(this.restFrames, c);
      this.lost = grow(this.lost, c);
      this.force = grow(this.force, 3 * c);
      this.torque = grow(this.torque, 3 * c);
      this.windForce = grow(this.windForce, 3 * c);
      this.sphereStart = grow(this.sphereStart, c);
      this.sphereCount = grow(this.sphereCount, c);
      this.rotation = grow(this.rotation, 9 * c);
      this.invInertiaWorld = grow(this.invInertiaWorld, 9 * c);
      this.box = grow(this.box, 6 * c);
      this.touching = grow(this.touching, c);
      this.pushVelocity = grow(this.pushVelocity, 3 * c);
      this.pushAngular = grow(this.pushAngular, 3 * c);
      this.capacity = c;
    }
    if (4 * spheres > this.sphereLocal.length) {
      const s = Math.max(spheres, (this.sphereLocal.length / 4) * 2, 64);
      this.sphereLocal = grow(this.sphereLocal, 4 * s);
      this.sphereWorld = grow(this.sphereWorld, 3 * s);
    }
  }

  /** Recomputes actor i's rotation matrix, world inverse inertia, world sphere centres and box. */
  refreshActor(i: number): void {
    const q = this.orientation;
    const x = q[4 * i]!,
      y = q[4 * i + 1]!,
      z = q[4 * i + 2]!,
      w = q[4 * i + 3]!;
    const R = this.rotation;
    const r = 9 * i;
    const r00 = 1 - 2 * (y * y + z * z),
      r01 = 2 * (x * y - z * w),
      r02 = 2 * (x * z + y * w);
    const r10 = 2 * (x * y + z * w),
      r11 = 1 - 2 * (x * x + z * z),
      r12 = 2 * (y * z - x * w);
    const r20 = 2 * (x * z - y * w),
      r21 = 2 * (y * z + x * w),
      r22 = 1 - 2 * (x * x + y * y);
    R[r] = r00;
    R[r + 1] = r01;
    R[r + 2] = r02;
    R[r + 3] = r10;
    R[r + 4] = r11;
    R[r + 5] = r12;
    R[r + 6] = r20;
    R[r + 7] = r21;
    R[r + 8] = r22;
    // I⁻¹ in the world = R · diag(inverse moments) · Rᵀ (symmetric, all nine written for plain reads).
    const ix = this.invInertia[3 * i]!,
      iy = this.invInertia[3 * i + 1]!,
      iz = this.invInertia[3 * i + 2]!;
    const W = this.invInertiaWorld;
    W[r] = r00 * r00 * ix + r01 * r01 * iy + r02 * r02 * iz;
    W[r + 1] = W[r + 3] = r00 * r10 * ix + r01 * r11 * iy + r02 * r12 * iz;
    W[r + 2] = W[r + 6] = r00 * r20 * ix + r01 * r21 * iy + r02 * r22 * iz;
    W[r + 4] = r10 * r10 * ix + r11 * r11 * iy + r12 * r12 * iz;
    W[r + 5] = W[r + 7] = r10 * r20 * ix + r11 * r21 * iy + r12 * r22 * iz;
    W[r + 8] = r20 * r20 * ix + r21 * r21 * iy + r22 * r22 * iz;

    const px = this.position[3 * i]!,
      py = this.position[3 * i + 1]!,
      pz = this.position[3 * i + 2]!;
    const local = this.sphereLocal;
    const world = this.sphereWorld;
    let minX = Infinity,
      minY = Infinity,
      minZ = Infinity,
      maxX = -Infinity,
      maxY = -Infinity,
      maxZ = -Infinity;
    const first = this.sphereStart[i]!;
    const last = first + this.sphereCount[i]!;
    for (let s = first; s < last; s++) {
      const lx = local[4 * s]!,
        ly = local[4 * s + 1]!,
        lz = local[4 * s + 2]!,
        radius = local[4 * s + 3]!;
      const wx = px + r00 * lx + r01 * ly + r02 * lz;
      const wy = py + r10 * lx + r11 * ly + r12 * lz;
      const wz = pz + r20 * lx + r21 * ly + r22 * lz;
      world[3 * s] = wx;
      world[3 * s + 1] = wy;
      world[3 * s + 2] = wz;
      if (wx - radius < minX) minX = wx - radius;
      if (wy - radius < minY) minY = wy - radius;
      if (wz - radius < minZ) minZ = wz - radius;
      if (wx + radius > maxX) maxX = wx + radius;
      if (wy + radius > maxY) maxY = wy + radius;
      if (wz + radius > maxZ) maxZ = wz + radius;
    }
    if (this.kind[i] === SHAPE_BOX) {
      // A box's corners reach past its rounded lattice of spheres, and its terrain contacts are exact.
      const hx = this.size[3 * i]!,
        hy = this.size[3 * i + 1]!,
        hz = this.size[3 * i + 2]!;
      const ex = Math.abs(r00) * hx + Math.abs(r01) * hy + Math.abs(r02) * hz;
      const ey = Math.abs(r10) * hx + Math.abs(r11) * hy + Math.abs(r12) * hz;
      const ez = Math.abs(r20) * hx + Math.abs(r21) * hy + Math.abs(r22) * hz;
      if (px - ex < minX) minX = px - ex;
      if (py - ey < minY) minY = py - ey;
      if (pz - ez < minZ) minZ = pz - ez;
      if (px + ex > maxX) maxX = px + ex;
      if (py + ey > maxY) maxY = py + ey;
      if (pz + ez > maxZ) maxZ = pz + ez;
    }
    const b = this.box;
    b[6 * i] = minX;
    b[6 * i + 1] = minY;
    b[6 * i + 2] = minZ;
    b[6 * i + 3] = maxX;
    b[6 * i + 4] = maxY;
    b[6 * i + 5] = maxZ;
  }

  refreshDerived(): void {
    for (let i = 0; i < this.count; i++) this.refreshActor(i);
  }

  /** A deep copy of the state (not the derived arrays), trimmed to the live actors and spheres. */
  snapshot(): ActorSnapshot {
    const n = this.count;
    const s = this.sphereTotal;
    return {
      count: n,
      sphereTotal: s,
      kind: this.kind.slice(0, n),
      size: this.size.slice(0, 3 * n),
      group: this.group.slice(0, n),
      position: this.position.slice(0, 3 * n),
      orientation: this.orientation.slice(0, 4 * n),
      velocity: this.velocity.slice(0, 3 * n),
      angularVelocity: this.angularVelocity.slice(0, 3 * n),
      invMass: this.invMass.slice(0, n),
      invInertia: this.invInertia.slice(0, 3 * n),
      radius: this.radius.slice(0, n),
      awake: this.awake.slice(0, n),
      restFrames: this.restFrames.slice(0, n),
      lost: this.lost.slice(0, n),
      force: this.force.slice(0, 3 * n),
      torque: this.torque.slice(0, 3 * n),
      windForce: this.windForce.slice(0, 3 * n),
      sphereStart: this.sphereStart.slice(0, n),
      sphereCount: this.sphereCount.slice(0, n),
      sphereLocal: this.sphereLocal.slice(0, 4 * s),
    };
  }

  /** Puts a snapshot back (copying, so the snapshot can be restored again) and refreshes the derived arrays. */
  restore(state: ActorSnapshot): void {
    this.count = 0;
    this.sphereTotal = 0;
    this.reserve(state.count, state.sphereTotal);
    this.kind.set(state.kind);
    this.size.set(state.size);
    this.group.set(state.group);
    this.position.set(state.position);
    this.orientation.set(state.orientation);
    this.velocity.set(state.velocity);
    this.angularVelocity.set(state.angularVelocity);
    this.invMass.set(state.invMass);
    this.invInertia.set(state.invInertia);
    this.radius.set(state.radius);
    this.awake.set(state.awake);
    this.restFrames.set(state.restFrames);
    this.lost.set(state.lost);
    this.force.set(state.force);
    this.torque.set(state.torque);
    this.windForce.set(state.windForce);
    this.sphereStart.set(state.sphereStart);
    this.sphereCount.set(state.sphereCount);
    this.sphereLocal.set(state.sphereLocal);
    this.count = state.count;
    this.sphereTotal = state.sphereTotal;
    this.refreshDerived();
  }
}

export interface ActorSnapshot {
  readonly count: number;
  readonly sphereTotal: number;
  readonly kind: Uint8Array;
  readonly size: Float64Array;
  readonly group: Uint32Array;
  readonly position: Float64Array;
  readonly orientation: Float64Array;
  readonly velocity: Float64Array;
  readonly angularVelocity: Float64Array;
  readonly invMass: Float64Array;
  readonly invInertia: Float64Array;
  readonly radius: Float64Array;
  readonly awake: Uint8Array;
  readonly restFrames: Uint16Array;
  readonly lost: Uint8Array;
  readonly force: Float64Array;
  readonly torque: Float64Array;
  readonly windForce: Float32Array;
  readonly sphereStart: Uint32Array;
  readonly sphereCount: Uint16Array;
  readonly sphereLocal: Float64Array;
}
