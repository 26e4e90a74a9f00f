import type { ActorBuffers } from './actorBuffers';
import { dragCoefficientOf, projectedArea } from './shapes';

/** Anything that gives the wind velocity at float4 points (WindField does). */
export interface WindSampler {
  sample(points: Float32Array, wind: Float32Array, count: number): void;
}

/** Scratch of the wind pass: the gathered centres, the wind there and which actor each sample is. */
export class WindBatch {
  points = new Float32Array(0);
  wind = new Float32Array(0);
  actor = new Uint32Array(0);
  count = 0;

  reserve(count: number): void {
    if (this.actor.length >= count) return;
    const capacity = Math.max(count, 2 * this.actor.length, 16);
    this.points = new Float32Array(4 * capacity);
    this.wind = new Float32Array(4 * capacity);
    this.actor = new Uint32Array(capacity);
  }
}

export interface WindSettings {
  /** kg/m³; 1.225 is air at sea level and 15 °C. */
  airDensity: number;
  /** Height above the centre of mass where the drag acts, in bounding radii: the torque hack. */
  lever: number;
}

/**
 * Drag from the wind on the awake actors whose group matches `filter`: their centres are gathered into
 * one float4 batch and the field is evaluated once for all of them. With v the wind minus the actor's
 * velocity, F = ½ ρ |v| v C A — C per shape kind, A the shape's area projected across v. F acts
 * `lever` bounding radii above the centre of mass (world up), which adds a torque that has no basis in
 * aerodynamics but makes blown actors tumble. Sleeping actors get nothing: wind alone never keeps the
 * world awake; wake them first (wakeActors) for a sudden gust.
 *
 * F is capped so that over `dt` it cannot take an actor past the wind's own velocity (a very light actor
 * in a strong gust would otherwise overshoot and oscillate under explicit integration). The forces are
 * added to the actors' force and torque accumulators and recorded in windForce. Returns the sample count.
 */
export function applyWindToActors(
  actors: ActorBuffers,
  field: WindSampler,
  filter: number,
  settings: WindSettings,
  dt: number,
  batch: WindBatch,
): number {
  const count = actors.count;
  const awake = actors.awake;
  const lost = actors.lost;
  const group = actors.group;
  const position = actors.position;
  batch.reserve(count);
  const points = batch.points;
  const map = batch.actor;
  let samples = 0;
  for (let i = 0; i < count; i++) {
    if (awake[i] === 0 || lost[i] !== 0 || (group[i]! & filter) === 0) continue;
    points[4 * samples] = position[3 * i]!;
    points[4 * samples + 1] = position[3 * i + 1]!;
    points[4 * samples + 2] = position[3 * i + 2]!;
    points[4 * samples + 3] = 0;
    map[samples++] = i;
  }
  batch.count = samples;
  const windForce = actors.windForce;
  windForce.fill(0, 0, 3 * count);
  if (samples === 0) return 0;
  const wind = batch.wind;
  field.sample(points, wind, samples);

  const velocity = actors.velocity;
  const rotation = actors.rotation;
  const kind = actors.kind;
  const size = actors.size;
  const invMass = actors.invMass;
  const radius = actors.radius;
  const force = actors.force;
  const torque = actors.torque;
  const halfRho = 0.5 * settings.airDensity;
  const lever = settings.lever;
  for (let k = 0; k < samples; k++) {
    const i = map[k]!;
    const i3 = 3 * i;
    const rx = wind[4 * k]! - velocity[i3]!;
    const ry = wind[4 * k + 1]! - velocity[i3 + 1]!;
    const rz = wind[4 * k + 2]! - velocity[i3 + 2]!;
    const speed = Math.sqrt(rx * rx + ry * ry + rz * rz);
    if (!(speed > 0) || !Number.isFinite(speed)) continue;
    // The flow direction in the actor's frame: Rᵀ · v/|v|.
    const R = 9 * i;
    const ux = (rotation[R]! * rx + rotation[R + 3]! * ry + rotation[R + 6]! * rz) / speed;
    const uy = (rotation[R + 1]! * rx + rotation[R + 4]! * ry + rotation[R + 7]! * rz) / speed;
    const uz = (rotation[R + 2]! * rx + rotation[R + 5]! * ry + rotation[R + 8]! * rz) / speed;
    const area = projectedArea(kind[i]!, size[i3]!, size[i3 + 1]!, size[i3 + 2]!, ux, uy, uz);
    // |F| = ½ρ|v|²CA, along v; capped at the force that reaches the wind's velocity in dt.
    let scale = halfRho * speed * dragCoefficientOf(kind[i]!) * area;
    const cap = dt > 0 ? 1 / (invMass[i]! * dt) : Infinity;
    if (scale > cap) scale = cap;
    const fx = scale * rx,
      fy = scale * ry,
      fz = scale * rz;
    force[i3] = force[i3]! + fx;
    force[i3 + 1] = force[i3 + 1]! + fy;
    force[i3 + 2] = force[i3 + 2]! + fz;
    // Torque of F applied at (0, h, 0) from the centre: (h·Fz, 0, −h·Fx).
    const h = lever * radius[i]!;
    torque[i3] = torque[i3]! + h * fz;
    torque[i3 + 2] = torque[i3 + 2]! - h * fx;
    windForce[i3] = fx;
    windForce[i3 + 1] = fy;
    windForce[i3 + 2] = fz;
  }
  return samples;
}
