import { cos, sin } from '../math/trig';
import type { BVH } from '../bvh/buildBVH';
import { MASK_ALL } from '../bvh/collisionMasks';
import {
  createCapsuleBatch,
  createCapsuleHits,
  createCapsuleTrace,
  createSweepCounters,
  type CapsuleSweeper,
  type SweepCounters,
} from '../query/capsule/capsuleTypes';
import { sampleTerrainHeight, type TerrainMesh } from '../terrain/heightfield';
import type { CapsuleProbeSettings } from './capsulesSection';

/** Triangles one probe sweep records for drawing; a longer sweep records the first ones. */
const TRACE_CAPACITY = 20_000;

/**
 * One capsule placed on the terrain and swept along its motion, keeping its contact, its work and the
 * trace of the triangles it looked at. The sweep depends only on the settings, the terrain and its BVH,
 * so it is swept again whenever one of them changes, and its result is what the view draws.
 */
export class CapsuleProbe {
  settings: CapsuleProbeSettings;
  /** The capsule's segment at the start and its motion, in world space (float64, as computed). */
  readonly p0 = new Float64Array(3);
  readonly p1 = new Float64Array(3);
  readonly motion = new Float64Array(3);
  readonly batch = createCapsuleBatch(1);
  readonly hits = createCapsuleHits(1);
  readonly trace = createCapsuleTrace(TRACE_CAPACITY);
  counters: SweepCounters = createSweepCounters();
  /** Milliseconds of the last sweep (its preparation left out). */
  ms = 0;
  /** Whether hits, trace and counters describe the current settings (false until the BVH is there). */
  swept = false;
  /** Grows when a sweep's result may differ from the last one's (new settings or BVH), so a view redraws only then. */
  revision = 0;
  private sweptSettings: CapsuleProbeSettings | null = null;
  private sweptBvh: BVH | null = null;

  constructor(settings: CapsuleProbeSettings) {
    this.settings = settings;
  }

  /** Whether the last sweep touched the terrain. */
  get hit(): boolean {
    return this.swept && this.hits.triangle[0]! >= 0;
  }

  /** The capsule's segment and motion from the settings, its centre `lift` above the ground (allocates nothing: it runs every step). */
  place(terrain: TerrainMesh): void {
    const p = this.settings;
    const degrees = Math.PI / 180;
    const centreY = sampleTerrainHeight(terrain, p.x, p.z) + p.lift;
    const flat = cos(p.pitch * degrees);
    // The axis's half: from the centre to the segment's upper end.
    const ax = flat * cos(p.yaw * degrees) * p.halfHeight,
      ay = sin(p.pitch * degrees) * p.halfHeight,
      az = flat * sin(p.yaw * degrees) * p.halfHeight;
    const along = cos(p.motionPitch * degrees) * p.distance;
    this.motion[0] = along * cos(p.motionYaw * degrees);
    this.motion[1] = sin(p.motionPitch * degrees) * p.distance;
    this.motion[2] = along * sin(p.motionYaw * degrees);
    this.p0[0] = p.x - ax;
    this.p0[1] = centreY - ay;
    this.p0[2] = p.z - az;
    this.p1[0] = p.x + ax;
    this.p1[1] = centreY + ay;
    this.p1[2] = p.z + az;
    this.batch.start.set(this.p0);
    this.batch.end.set(this.p1);
    this.batch.motion.set(this.motion);
    this.batch.radius[0] = p.radius;
  }

  /** Places the capsule on the terrain and sweeps it through `sweeper`, recording its trace. */
  sweep(terrain: TerrainMesh, bvh: BVH, sweeper: CapsuleSweeper): void {
    this.place(terrain);
    const p = this.settings;
    const started = performance.now();
    this.counters = sweeper(bvh, this.batch, this.hits, {
      edgeMasks: p.edgeMasks,
      quickCull: p.quickCull,
      trace: this.trace,
      traceCapsule: 0,
      filter: p.filter ?? MASK_ALL,
    });
    this.ms = performance.now() - started;
    this.swept = true;
    // Settings are replaced, never edited in place, so identity tells a change.
    if (p !== this.sweptSettings || bvh !== this.sweptBvh) this.revision++;
    this.sweptSettings = p;
    this.sweptBvh = bvh;
  }

  /** Forgets the last result (the terrain changed; the next sweep waits for its BVH). */
  clear(): void {
    this.swept = false;
    this.revision++;
    this.sweptBvh = null;
    this.trace.count = 0;
    this.hits.triangle[0] = -1;
    this.hits.toi[0] = 1;
    this.hits.point.fill(0);
    this.hits.normal.fill(0);
    this.counters = createSweepCounters();
  }
}
