import type { BroadPhase } from '../broadphase/broadPhase';
import { BROAD_PHASE_NAMES, createBroadPhase, type BroadPhaseName } from '../broadphase/createBroadPhase';
import type { BVH } from '../bvh/buildBVH';
import { MASK_ALL } from '../bvh/collisionMasks';
import { InvalidParameterError } from '../errors';
import type { QueryCounters } from '../query/counters';
import { findActorContacts, wake } from './actorContacts';
import { ActorBuffers, type ActorSnapshot } from './actorBuffers';
import { applyWindToActors, WindBatch, type WindSampler } from './actorWind';
import * as ContactLayout from './contactBuffer';
import { ContactBuffer } from './contactBuffer';
import { ContactCache, type ContactCacheSnapshot } from './contactCache';
import { prepareContacts, solvePushOut, solveVelocities, warmStartContacts } from './contactSolver';
import type { ActorShape } from './shapes';
import { findTerrainContacts, type TriangleSource } from './terrainContacts';
import { TerrainNeighbours } from './terrainNeighbours';
import { TriangleBoxQuery } from './triangleBoxQuery';
import { ActorSweep } from './actorSweep';

export interface ActorWorldOptions {
  /** m/s², pulling towards −y. */
  gravity: number;
  /**
   * Longest substep (s); a step of dt runs ceil(dt / substep) equal substeps, but at most maxSubsteps:
   * a long step (a slow page frame) takes longer substeps rather than more of them, so one slow frame
   * does not make the next one slower still.
   */
  substep: number;
  maxSubsteps: number;
  velocityIterations: number;
  pushIterations: number;
  restitution: number;
  friction: number;
  /** Rolling resistance coefficient: a sphere rests on slopes with tan θ below it. */
  rollingResistance: number;
  restitutionThreshold: number;
  /** 1/s: v ← v / (1 + h·damping) per substep. The angular one stands in for rolling resistance. */
  linearDamping: number;
  angularDamping: number;
  /** An actor slower than both thresholds for sleepFrames consecutive steps falls asleep. */
  sleepSpeed: number;
  sleepAngularSpeed: number;
  sleepFrames: number;
  /** An awake actor touching a sleeper wakes it when its contact point moves faster than this (m/s). */
  wakeSpeed: number;
  airDensity: number;
  /** Where wind drag acts above the centre of mass, in bounding radii. */
  windLever: number;
  /** Extra reach (m) of every contact search beyond what the actors can travel in a substep. */
  contactMargin: number;
  slop: number;
  pushFactor: number;
  maxPushSpeed: number;
  /** Safety caps (m/s, rad/s): an explosion may be violent, never infinite. */
  maxSpeed: number;
  maxAngularSpeed: number;
  /**
   * 'sweep': the actors' own sort and sweep (ActorSweep), fastest for a few hundred actors; or any of
   * the general broad-phases by name. All find the same pairs, so the simulation does not change.
   */
  broadPhase: ActorBroadPhaseName;
  /** Collision filter of the terrain contacts (32-bit): only triangles whose material mask shares a bit
   *  with it are touched (bvh.masks; e.g. without water's bit the actors sink into lakes). */
  terrainFilter: number;
}

export const DEFAULT_ACTOR_WORLD_OPTIONS: Readonly<ActorWorldOptions> = Object.freeze({
  gravity: 9.81,
  substep: 1 / 60,
  maxSubsteps: 3,
  velocityIterations: 4,
  pushIterations: 2,
  restitution: 0.2,
  friction: 0.6,
  rollingResistance: 0.08,
  restitutionThreshold: 1,
  linearDamping: 0.05,
  angularDamping: 0.6,
  sleepSpeed: 0.15,
  sleepAngularSpeed: 0.3,
  sleepFrames: 30,
  wakeSpeed: 0.5,
  airDensity: 1.225,
  windLever: 0.3,
  contactMargin: 0.05,
  slop: 0.005,
  pushFactor: 0.3,
  maxPushSpeed: 3,
  maxSpeed: 100,
  maxAngularSpeed: 40,
  broadPhase: 'sweep',
  terrainFilter: MASK_ALL,
});

/** Domains of the numeric options: [min, max, integer]. */
const OPTION_RULES: Record<Exclude<keyof ActorWorldOptions, 'broadPhase'>, [number, number, boolean]> = {
  gravity: [-1000, 1000, false],
  substep: [1e-4, 0.1, false],
  maxSubsteps: [1, 1000, true],
  velocityIterations: [1, 100, true],
  pushIterations: [0, 100, true],
  restitution: [0, 1, false],
  friction: [0, 10, false],
  rollingResistance: [0, 10, false],
  restitutionThreshold: [0, 1000, false],
  linearDamping: [0, 1000, false],
  angularDamping: [0, 1000, false],
  sleepSpeed: [0, 1000, false],
  sleepAngularSpeed: [0, 1000, false],
  sleepFrames: [1, 65535, true],
  wakeSpeed: [0, 1000, false],
  airDensity: [0, 1000, false],
  windLever: [-10, 10, false],
  contactMargin: [0, 100, false],
  slop: [0, 1, false],
  pushFactor: [0, 1, false],
  maxPushSpeed: [0, 1000, false],
  maxSpeed: [1e-3, 1e6, false],
  maxAngularSpeed: [1e-3, 1e6, false],
  terrainFilter: [0, MASK_ALL, true],
};

export type ActorBroadPhaseName = 'sweep' | BroadPhaseName;

/** Fills defaults and checks every option; throws InvalidParameterError naming the bad one. */
export function resolveActorWorldOptions(input: Partial<ActorWorldOptions> = {}): ActorWorldOptions {
  const options: ActorWorldOptions = { ...DEFAULT_ACTOR_WORLD_OPTIONS, ...input };
  if (options.broadPhase !== 'sweep' && !(BROAD_PHASE_NAMES as readonly string[]).includes(options.broadPhase))
    throw new InvalidParameterError('actors.broadPhase', `'sweep' or one of ${BROAD_PHASE_NAMES.join(', ')}`, options.broadPhase);
  for (const [name, [min, max, integer]] of Object.entries(OPTION_RULES)) {
    const value = options[name as keyof typeof OPTION_RULES];
    if (typeof value !== 'number' || !(value >= min && value <= max) || (integer && !Number.isInteger(value))) {
      throw new InvalidParameterError(`actors.${name}`, `${integer ? 'an integer' : 'a number'} in [${min}, ${max}]`, value);
    }
  }
  return options;
}

/** Milliseconds of the last step per phase. */
export interface ActorPhaseTimes {
  wind: number;
  broadPhase: number;
  actorContacts: number;
  terrainContacts: number;
  solve: number;
  integrate: number;
}

export interface ActorWorldSnapshot {
  readonly actors: ActorSnapshot;
  /** The warm-start impulses: the next step depends on them as on the velocities. */
  readonly contactCache: ContactCacheSnapshot;
}

/** Everything a filter lets through. */
export const ALL_GROUPS = 0xffffffff;

const now = (): number => performance.now();

/**
 * Rigid actors — spheres, boxes, capsules — on a triangle terrain: gravity, semi-implicit Euler on
 * linear and angular velocity (orientation quaternion, diagonal inertia in the body frame), contacts
 * between their contact spheres and the terrain triangles near them (BVH box query) and between actors
 * (broad-phase pairs, sphere–sphere narrow phase), sequential impulses with restitution and Coulomb
 * friction, split-impulse push-out, sleeping at rest. Wind comes in through applyWind, explosions should
 * call wakeActors first.
 *
 * A step of dt: forces accumulated since the last step (wind…) act for all of its substeps, then are
 * cleared. Each substep: velocities (gravity, forces, damping) → broad-phase → actor contacts (which may
 * wake sleepers) → terrain contacts → solve → positions. After the substeps, sleep.
 */
export class ActorWorld {
  readonly actors = new ActorBuffers();
  readonly options: ActorWorldOptions;
  readonly contacts = new ContactBuffer();
  /** Last substep's impulses per contact, the next substep's starting point (warm starting). */
  private readonly contactCache = new ContactCache();
  /** Each actor's nearby terrain triangles, kept while it stays near where they were gathered. */
  private readonly neighbours = new TerrainNeighbours();
  bvh: BVH | null = null;
  /** Lowest y an actor may reach before it counts as fallen off the terrain (from the BVH's box). */
  private floor = -Infinity;
  private bounds = new Float64Array([-Infinity, -Infinity, Infinity, Infinity]);
  private triangleSource: TriangleSource | null = null;
  /** The general broad-phase when options.broadPhase names one, else null (the sweep serves). */
  private broadPhase: BroadPhase | null;
  private readonly sweep = new ActorSweep();
  /** The broad-phase no longer matches the actors (cleared, restored): rebuild it before the next step. */
  private broadPhaseStale = true;
  private pairKeys = new Float64Array(256);
  private readonly windBatch = new WindBatch();
  readonly phaseMs: ActorPhaseTimes = { wind: 0, broadPhase: 0, actorContacts: 0, terrainContacts: 0, solve: 0, integrate: 0 };
  /**
   * Counters of the last step: pairs and contacts are those of its last substep (what holds the actors
   * at the end of the step, comparable whatever the number of substeps); the work counters (queries,
   * tests, wakes) are summed over its substeps.
   */
  readonly counters = {
    windSamples: 0,
    substeps: 0,
    pairs: 0,
    terrainContacts: 0,
    actorContacts: 0,
    /** triangleQueries: actors that needed their triangles; walks: of those, lists gathered by a BVH walk (the rest reused theirs). */
    terrain: { triangleQueries: 0, walks: 0, trianglesNear: 0, sphereTriangleTests: 0, boxTriangleTests: 0 },
    actor: { pairsTested: 0, sphereTests: 0, woken: 0 },
    /** Contacts of the last substep found again from the one before (warm-started from its impulses). */
    warmStarted: 0,
    fellAsleep: 0,
    /** Woken by wakeActors since the world was made (not reset per step). */
    wokenByBox: 0,
  };

  constructor(options: Partial<ActorWorldOptions> = {}) {
    this.options = resolveActorWorldOptions(options);
    this.broadPhase = makeBroadPhase(this.options.broadPhase);
  }

  /** Changes options live (e.g. restitution and friction from the GUI). */
  setOptions(options: Partial<ActorWorldOptions>): void {
    const resolved = resolveActorWorldOptions({ ...this.options, ...options });
    const switched = resolved.broadPhase !== this.options.broadPhase;
    Object.assign(this.options, resolved);
    if (this.triangleSource instanceof TriangleBoxQuery) this.triangleSource.filter = resolved.terrainFilter;
    this.neighbours.invalidate();
    if (switched) {
      this.broadPhase = makeBroadPhase(resolved.broadPhase);
      this.broadPhaseStale = true;
    }
  }

  /** The terrain to collide with; null for none (actors then fall freely). Needs the 'quantized' layout. */
  setTerrain(bvh: BVH | null, source?: TriangleSource): void {
    this.bvh = bvh;
    // Triangle numbers of another terrain: the cached terrain impulses would land on the wrong contacts.
    this.contactCache.clear();
    this.neighbours.invalidate();
    if (bvh === null) {
      this.triangleSource = null;
      this.floor = -Infinity;
      this.bounds.set([-Infinity, -Infinity, Infinity, Infinity]);
      return;
    }
    // A source of the caller's own does its own filtering.
    if (source === undefined) {
      const query = new TriangleBoxQuery(bvh);
      query.filter = this.options.terrainFilter;
      this.triangleSource = query;
    } else this.triangleSource = source;
    let minY = Infinity,
      minX = Infinity,
      minZ = Infinity,
      maxX = -Infinity,
      maxZ = -Infinity;
    const p = bvh.positions;
    for (let v = 0; v < p.length; v += 3) {
      if (p[v]! < minX) minX = p[v]!;
      if (p[v]! > maxX) maxX = p[v]!;
      if (p[v + 1]! < minY) minY = p[v + 1]!;
      if (p[v + 2]! < minZ) minZ = p[v + 2]!;
      if (p[v + 2]! > maxZ) maxZ = p[v + 2]!;
    }
    const slack = 50;
    this.floor = minY - slack;
    this.bounds.set([minX - slack, minZ - slack, maxX + slack, maxZ + slack]);
  }

  get count(): number {
    return this.actors.count;
  }

  addActor(shape: ActorShape, position: ArrayLike<number>, orientation?: ArrayLike<number>, density?: number, group?: number): number {
    return this.actors.add(shape, position, orientation, density, group);
  }

  clear(): void {
    this.actors.clear();
    this.contactCache.clear();
    this.neighbours.invalidate();
    this.broadPhaseStale = true;
  }

  /**
   * Wind drag on the awake actors matching `filter` (see applyWindToActors); it acts during the next
   * step. `dt` is that step's length, used only to cap the force. Returns how many actors were sampled.
   */
  applyWind(field: WindSampler, filter = ALL_GROUPS, dt = this.options.substep): number {
    const start = now();
    const samples = applyWindToActors(
      this.actors,
      field,
      filter >>> 0,
      { airDensity: this.options.airDensity, lever: this.options.windLever },
      dt,
      this.windBatch,
    );
    this.counters.windSamples = samples;
    this.phaseMs.wind = now() - start;
    return samples;
  }

  /**
   * Wakes the sleeping actors matching `filter` whose box overlaps [min, max] (six numbers). Call it
   * before a drastic wind effect, so the actors it reaches feel it. Returns how many woke.
   */
  wakeActors(box: ArrayLike<number>, filter = ALL_GROUPS): number {
    for (let k = 0; k < 6; k++) if (Number.isNaN(box[k])) throw new InvalidParameterError(`box[${k}]`, 'a number', box[k]);
    const a = this.actors;
    const f = filter >>> 0;
    let woken = 0;
    for (let i = 0; i < a.count; i++) {
      if (a.awake[i] !== 0 || a.lost[i] !== 0 || (a.group[i]! & f) === 0) continue;
      const b = 6 * i;
      if (
        a.box[b]! > box[3]! ||
        a.box[b + 3]! < box[0]! ||
        a.box[b + 1]! > box[4]! ||
        a.box[b + 4]! < box[1]! ||
        a.box[b + 2]! > box[5]! ||
        a.box[b + 5]! < box[2]!
      )
        continue;
      wake(a, i);
      woken++;
    }
    this.counters.wokenByBox += woken;
    return woken;
  }

  /**
   * The terrain's triangles moved (an edit, a refit): the actors gather their nearby triangles afresh —
   * with `area` (minX, minZ, maxX, maxZ: the heights changed only there), only those whose kept
   * triangles reach over it.
   */
  terrainEdited(area?: ArrayLike<number>): void {
    if (area === undefined) this.neighbours.invalidate();
    else this.neighbours.invalidateArea(area[0]!, area[1]!, area[2]!, area[3]!);
  }

  /** The terrain query's work in the last step (its BVH walks), or null with no terrain or a source of the caller's own. */
  terrainQueryCounters(): Readonly<QueryCounters> | null {
    return this.triangleSource instanceof TriangleBoxQuery ? this.triangleSource.counters : null;
  }

  /** Advances by dt seconds (0 does nothing). Throws RangeError for a negative or non-finite dt. */
  step(dt: number): void {
    if (!(dt >= 0) || !Number.isFinite(dt)) throw new RangeError(`ActorWorld.step: dt must be a finite number ≥ 0, got ${dt}`);
    const c = this.counters;
    c.substeps = 0;
    c.pairs = 0;
    c.terrainContacts = 0;
    c.actorContacts = 0;
    c.terrain.triangleQueries = c.terrain.walks = c.terrain.trianglesNear = c.terrain.sphereTriangleTests = c.terrain.boxTriangleTests = 0;
    this.neighbours.resetCounters();
    if (this.triangleSource instanceof TriangleBoxQuery) this.triangleSource.resetCounters();
    c.actor.pairsTested = c.actor.sphereTests = c.actor.woken = 0;
    c.fellAsleep = 0;
    const phase = this.phaseMs;
    phase.broadPhase = phase.actorContacts = phase.terrainContacts = phase.solve = phase.integrate = 0;
    if (dt === 0) return;
    const substeps = Math.min(this.options.maxSubsteps, Math.max(1, Math.ceil(dt / this.options.substep - 1e-9)));
    const h = dt / substeps;
    this.actors.touching.fill(0, 0, this.actors.count);
    for (let s = 0; s < substeps; s++) this.substep(h);
    c.substeps = substeps;
    const a = this.actors;
    a.force.fill(0, 0, 3 * a.count);
    a.torque.fill(0, 0, 3 * a.count);
    this.updateSleep();
  }

  private substep(h: number): void {
    const a = this.actors;
    const o = this.options;
    const phase = this.phaseMs;
    let t = now();
    this.integrateVelocities(h);
    let t2 = now();
    phase.integrate += t2 - t;
    t = t2;

    const pairCount = this.updateBroadPhase(h);
    t2 = now();
    phase.broadPhase += t2 - t;
    t = t2;

    const contacts = this.contacts;
    contacts.clear();
    findActorContacts(a, this.pairKeys, pairCount, contacts, h, o.contactMargin, o.wakeSpeed, this.counters.actor);
    t2 = now();
    phase.actorContacts += t2 - t;
    t = t2;

    const bvh = this.bvh;
    if (bvh !== null && this.triangleSource !== null) {
      findTerrainContacts(a, this.triangleSource, bvh.positions, bvh.indices, contacts, h, o.contactMargin, this.counters.terrain, this.neighbours);
      this.counters.terrain.walks = this.neighbours.walks;
    }
    t2 = now();
    phase.terrainContacts += t2 - t;
    t = t2;
    this.counters.pairs = pairCount;
    this.counters.terrainContacts = contacts.terrainCount;
    this.counters.actorContacts = contacts.count - contacts.terrainCount;

    this.markTouching();
    prepareContacts(a, contacts, h, o);
    this.counters.warmStarted = warmStartContacts(a, contacts, this.contactCache, h, o.friction, o.rollingResistance);
    solveVelocities(a, contacts, o.velocityIterations, o.friction, o.rollingResistance);
    this.contactCache.store(contacts, h);
    a.pushVelocity.fill(0, 0, 3 * a.count);
    a.pushAngular.fill(0, 0, 3 * a.count);
    if (o.pushIterations > 0) solvePushOut(a, contacts, o.pushIterations);
    t2 = now();
    phase.solve += t2 - t;
    t = t2;

    this.integratePositions(h);
    phase.integrate += now() - t;
  }

  /** Actors with a contact closer than the contact margin are supported (may fall asleep). */
  private markTouching(): void {
    const contacts = this.contacts;
    const touching = this.actors.touching;
    const data = contacts.data;
    const bodies = contacts.bodies;
    const near = -this.options.contactMargin;
    const stride = ContactLayout.CONTACT_STRIDE;
    const depth = ContactLayout.C_DEPTH;
    for (let c = 0; c < contacts.count; c++) {
      if (data[stride * c + depth]! < near) continue;
      touching[bodies[2 * c]!] = 1;
      const b = bodies[2 * c + 1]!;
      if (b >= 0) touching[b] = 1;
    }
  }

  private integrateVelocities(h: number): void {
    const a = this.actors;
    const o = this.options;
    const v = a.velocity;
    const w = a.angularVelocity;
    const force = a.force;
    const torque = a.torque;
    const inertia = a.invInertiaWorld;
    const gravity = o.gravity * h;
    const linearDamping = 1 / (1 + h * o.linearDamping);
    const angularDamping = 1 / (1 + h * o.angularDamping);
    const maxSpeed = o.maxSpeed;
    const maxAngular = o.maxAngularSpeed;
    for (let i = 0; i < a.count; i++) {
      if (a.awake[i] === 0) continue;
      const i3 = 3 * i;
      const m = a.invMass[i]! * h;
      let vx = (v[i3]! + force[i3]! * m) * linearDamping;
      let vy = (v[i3 + 1]! + force[i3 + 1]! * m - gravity) * linearDamping;
      let vz = (v[i3 + 2]! + force[i3 + 2]! * m) * linearDamping;
      const speed = Math.sqrt(vx * vx + vy * vy + vz * vz);
      if (speed > maxSpeed) {
        const k = maxSpeed / speed;
        vx *= k;
        vy *= k;
        vz *= k;
      }
      v[i3] = vx;
      v[i3 + 1] = vy;
      v[i3 + 2] = vz;
      const tx = torque[i3]! * h,
        ty = torque[i3 + 1]! * h,
        tz = torque[i3 + 2]! * h;
      const r = 9 * i;
      let wx = (w[i3]! + inertia[r]! * tx + inertia[r + 1]! * ty + inertia[r + 2]! * tz) * angularDamping;
      let wy = (w[i3 + 1]! + inertia[r + 3]! * tx + inertia[r + 4]! * ty + inertia[r + 5]! * tz) * angularDamping;
      let wz = (w[i3 + 2]! + inertia[r + 6]! * tx + inertia[r + 7]! * ty + inertia[r + 8]! * tz) * angularDamping;
      const spin = Math.sqrt(wx * wx + wy * wy + wz * wz);
      if (spin > maxAngular) {
        const k = maxAngular / spin;
        wx *= k;
        wy *= k;
        wz *= k;
      }
      w[i3] = wx;
      w[i3 + 1] = wy;
      w[i3 + 2] = wz;
    }
  }

  private integratePositions(h: number): void {
    const a = this.actors;
    const p = a.position;
    const q = a.orientation;
    const v = a.velocity;
    const w = a.angularVelocity;
    const pv = a.pushVelocity;
    const pw = a.pushAngular;
    const floor = this.floor;
    const bounds = this.bounds;
    const half = 0.5 * h;
    for (let i = 0; i < a.count; i++) {
      if (a.awake[i] === 0) continue;
      const i3 = 3 * i;
      const x = (p[i3] = p[i3]! + (v[i3]! + pv[i3]!) * h);
      const y = (p[i3 + 1] = p[i3 + 1]! + (v[i3 + 1]! + pv[i3 + 1]!) * h);
      const z = (p[i3 + 2] = p[i3 + 2]! + (v[i3 + 2]! + pv[i3 + 2]!) * h);
      // q ← q + ½h·(ω, 0)⊗q, then normalised.
      const wx = (w[i3]! + pw[i3]!) * half,
        wy = (w[i3 + 1]! + pw[i3 + 1]!) * half,
        wz = (w[i3 + 2]! + pw[i3 + 2]!) * half;
      const i4 = 4 * i;
      const qx = q[i4]!,
        qy = q[i4 + 1]!,
        qz = q[i4 + 2]!,
        qw = q[i4 + 3]!;
      let nx = qx + wx * qw + wy * qz - wz * qy;
      let ny = qy - wx * qz + wy * qw + wz * qx;
      let nz = qz + wx * qy - wy * qx + wz * qw;
      let nw = qw - wx * qx - wy * qy - wz * qz;
      const length = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
      nx *= length;
      ny *= length;
      nz *= length;
      nw *= length;
      q[i4] = nx;
      q[i4 + 1] = ny;
      q[i4 + 2] = nz;
      q[i4 + 3] = nw;
      if (y < floor || x < bounds[0]! || z < bounds[1]! || x > bounds[2]! || z > bounds[3]! || !Number.isFinite(x + y + z)) {
        // Off the terrain (or broken): frozen where it is, out of every query from now on.
        a.lost[i] = 1;
        a.awake[i] = 0;
        v.fill(0, i3, i3 + 3);
        w.fill(0, i3, i3 + 3);
        if (!Number.isFinite(x + y + z)) p.fill(0, i3, i3 + 3);
      }
      a.refreshActor(i);
    }
  }

  private updateSleep(): void {
    const a = this.actors;
    const o = this.options;
    const v = a.velocity;
    const w = a.angularVelocity;
    const linear = o.sleepSpeed * o.sleepSpeed;
    const angular = o.sleepAngularSpeed * o.sleepAngularSpeed;
    for (let i = 0; i < a.count; i++) {
      if (a.awake[i] === 0) continue;
      const i3 = 3 * i;
      const speed = v[i3]! * v[i3]! + v[i3 + 1]! * v[i3 + 1]! + v[i3 + 2]! * v[i3 + 2]!;
      const spin = w[i3]! * w[i3]! + w[i3 + 1]! * w[i3 + 1]! + w[i3 + 2]! * w[i3 + 2]!;
      // Only an actor resting on something sleeps: one in free flight (zero gravity, hovering in an
      // updraft) may be slow, but the forces on it are not balanced by any contact.
      if (speed < linear && spin < angular && a.touching[i] !== 0) {
        const frames = a.restFrames[i]! + 1;
        if (frames >= o.sleepFrames) {
          a.awake[i] = 0;
          a.restFrames[i] = 0;
          v.fill(0, i3, i3 + 3);
          w.fill(0, i3, i3 + 3);
          this.counters.fellAsleep++;
        } else a.restFrames[i] = frames;
      } else a.restFrames[i] = 0;
    }
  }

  /**
   * Sends the awake actors' boxes (grown by how far they can travel this substep) to the broad-phase and
   * returns the overlapping pairs as sorted keys a·2²⁴ + b in pairKeys.
   */
  private updateBroadPhase(h: number): number {
    const a = this.actors;
    const margin = this.options.contactMargin;
    const box = a.box;
    const grown = boxScratch;
    if (this.broadPhaseStale) {
      this.broadPhase = makeBroadPhase(this.options.broadPhase);
      this.sweep.reset();
      this.broadPhaseStale = false;
    }
    const bp = this.broadPhase;
    const sweep = this.sweep;
    for (let i = 0; i < a.count; i++) {
      const present = bp === null ? sweep.has(i) : bp.has(i);
      if (a.lost[i] !== 0) {
        if (present) {
          if (bp === null) sweep.remove(i);
          else bp.remove(i);
        }
        continue;
      }
      if (present && a.awake[i] === 0) continue;
      const i3 = 3 * i;
      const vx = a.velocity[i3]!,
        vy = a.velocity[i3 + 1]!,
        vz = a.velocity[i3 + 2]!;
      const wx = a.angularVelocity[i3]!,
        wy = a.angularVelocity[i3 + 1]!,
        wz = a.angularVelocity[i3 + 2]!;
      const reach = (Math.sqrt(vx * vx + vy * vy + vz * vz) + Math.sqrt(wx * wx + wy * wy + wz * wz) * a.radius[i]!) * h + margin;
      const b = 6 * i;
      if (bp === null) {
        sweep.set(i, box[b]! - reach, box[b + 1]! - reach, box[b + 2]! - reach, box[b + 3]! + reach, box[b + 4]! + reach, box[b + 5]! + reach);
        continue;
      }
      grown[0] = box[b]! - reach;
      grown[1] = box[b + 1]! - reach;
      grown[2] = box[b + 2]! - reach;
      grown[3] = box[b + 3]! + reach;
      grown[4] = box[b + 4]! + reach;
      grown[5] = box[b + 5]! + reach;
      if (present) bp.update(i, grown);
      else bp.insert(i, grown, 'dynamic');
    }
    if (bp === null) {
      const n = sweep.findPairs();
      this.pairKeys = sweep.keys;
      return n;
    }
    const pairs = bp.step().pairs;
    const n = pairs.count;
    if (this.pairKeys.length < n) this.pairKeys = new Float64Array(Math.max(n, 2 * this.pairKeys.length));
    const keys = this.pairKeys;
    for (let k = 0; k < n; k++) keys[k] = pairs.a[k]! * 16777216 + pairs.b[k]!;
    keys.subarray(0, n).sort();
    return n;
  }

  saveState(): ActorWorldSnapshot {
    return { actors: this.actors.snapshot(), contactCache: this.contactCache.snapshot() };
  }

  /** Restores a snapshot; the broad-phase is rebuilt from the restored boxes before the next step. */
  loadState(state: ActorWorldSnapshot): void {
    this.actors.restore(state.actors);
    this.contactCache.restore(state.contactCache);
    this.neighbours.invalidate();
    this.broadPhaseStale = true;
  }

  /** Awake, sleeping and lost actor counts. */
  census(): { awake: number; sleeping: number; lost: number } {
    const a = this.actors;
    let awake = 0,
      lost = 0;
    for (let i = 0; i < a.count; i++) {
      if (a.lost[i] !== 0) lost++;
      else if (a.awake[i] !== 0) awake++;
    }
    return { awake, sleeping: a.count - awake - lost, lost };
  }
}

const boxScratch = new Float64Array(6);

const makeBroadPhase = (name: ActorBroadPhaseName): BroadPhase | null => (name === 'sweep' ? null : createBroadPhase(name));
