import type { ActorBuffers } from './actorBuffers';
import type { ContactBuffer } from './contactBuffer';
import { BOX_BOX_MAX_POINTS, BOX_BOX_STRIDE, boxBoxContacts, boxBoxNormal, sphereBoxContact, sphereBoxResult } from './boxContacts';
import { MANIFOLD_SIZE, reduceBoxManifold, reduceManifold } from './manifold';
import { SHAPE_BOX } from './shapes';

/** Contacts kept per actor pair: the deepest ones (two boxes face to face touch at up to 9×9 spheres). */
export const CONTACTS_PER_PAIR = 8;

export interface ActorContactCounters {
  pairsTested: number;
  sphereTests: number;
  woken: number;
}

/** Contacts kept between two boxes: the corners of the face one rests on. */
const BOX_PAIR_MANIFOLD_SIZE = 4;
/** The points of one box–box call. */
const boxPoints = new Float64Array(BOX_BOX_STRIDE * BOX_BOX_MAX_POINTS);

/** Per candidate: normal (3), point (3), depth, rolling radius, sphere of a, sphere of b. */
const PAIR_STRIDE = 10;
const pairCandidates = new Float64Array(PAIR_STRIDE * CONTACTS_PER_PAIR);
const picked = new Int32Array(MANIFOLD_SIZE);
/** The spheres of b that can reach a's box this substep (most of b's spheres face away from a). */
let nearB = new Int32Array(64);

/**
 * Sphere–sphere narrow phase over the broad-phase pairs (given as keys a·2²⁴ + b, sorted, so the contact
 * order — and with it the solver's result — depends only on the state, not on the broad-phase's history).
 * Pairs of two sleepers are skipped. A sleeper reached by an awake actor moving faster than `wakeSpeed`
 * wakes (speculative contacts count: a fast actor is stopped before it touches); one touched gently stays
 * asleep and acts as an immovable body for the solver.
 */
export function findActorContacts(
  actors: ActorBuffers,
  pairKeys: Float64Array,
  pairCount: number,
  contacts: ContactBuffer,
  substep: number,
  margin: number,
  wakeSpeed: number,
  counters: ActorContactCounters,
): void {
  const awake = actors.awake;
  const lost = actors.lost;
  const velocity = actors.velocity;
  const angular = actors.angularVelocity;
  const radius = actors.radius;
  const sphereStart = actors.sphereStart;
  const sphereCount = actors.sphereCount;
  const local = actors.sphereLocal;
  const world = actors.sphereWorld;
  const box = actors.box;
  const cand = pairCandidates;
  const kind = actors.kind;
  const wakeSquared = wakeSpeed * wakeSpeed;
  for (let p = 0; p < pairCount; p++) {
    const key = pairKeys[p]!;
    const a = Math.floor(key / 16777216);
    const b = key - a * 16777216;
    if (lost[a] !== 0 || lost[b] !== 0) continue;
    if (awake[a] === 0 && awake[b] === 0) continue;
    counters.pairsTested++;
    const speedA = pointSpeed(velocity, angular, radius, a);
    const speedB = pointSpeed(velocity, angular, radius, b);
    const reach = (speedA + speedB) * substep + margin;
    let kept = 0;
    let shallowest = 0;
    const firstA = sphereStart[a]!,
      lastA = firstA + sphereCount[a]!;
    const firstB = sphereStart[b]!,
      lastB = firstB + sphereCount[b]!;
    const boxB = 6 * b;
    const boxA = 6 * a;
    const aIsBox = kind[a] === SHAPE_BOX,
      bIsBox = kind[b] === SHAPE_BOX;
    if (aIsBox && bIsBox) kept = boxBoxCandidates(actors, a, b, reach, cand);
    else if (aIsBox || bIsBox) kept = sphereBoxCandidates(actors, aIsBox ? b : a, aIsBox ? a : b, aIsBox, reach, cand, counters);
    else {
      if (nearB.length < lastB - firstB) nearB = new Int32Array(2 * (lastB - firstB));
      let near = 0;
      for (let j = firstB; j < lastB; j++) {
        // As below for a's spheres: a sphere of b farther from a's box than it can reach meets none of a's.
        const bx = world[3 * j]!,
          by = world[3 * j + 1]!,
          bz = world[3 * j + 2]!;
        const grow = local[4 * j + 3]! + reach;
        if (
          bx + grow < box[boxA]! ||
          bx - grow > box[boxA + 3]! ||
          by + grow < box[boxA + 1]! ||
          by - grow > box[boxA + 4]! ||
          bz + grow < box[boxA + 2]! ||
          bz - grow > box[boxA + 5]!
        )
          continue;
        nearB[near++] = j;
      }
      for (let i = firstA; i < lastA && near > 0; i++) {
        const ax = world[3 * i]!,
          ay = world[3 * i + 1]!,
          az = world[3 * i + 2]!;
        const ra = local[4 * i + 3]!;
        // Spheres of a farther from b's box than they can reach meet none of b's spheres.
        const grow = ra + reach;
        if (
          ax + grow < box[boxB]! ||
          ax - grow > box[boxB + 3]! ||
          ay + grow < box[boxB + 1]! ||
          ay - grow > box[boxB + 4]! ||
          az + grow < box[boxB + 2]! ||
          az - grow > box[boxB + 5]!
        )
          continue;
        for (let n = 0; n < near; n++) {
          const j = nearB[n]!;
          counters.sphereTests++;
          const dx = ax - world[3 * j]!,
            dy = ay - world[3 * j + 1]!,
            dz = az - world[3 * j + 2]!;
          const rb = local[4 * j + 3]!;
          const limit = ra + rb + reach;
          const d2 = dx * dx + dy * dy + dz * dz;
          if (d2 > limit * limit) continue;
          const distance = Math.sqrt(d2);
          const depth = ra + rb - distance;
          if (kept === CONTACTS_PER_PAIR && depth <= cand[PAIR_STRIDE * shallowest + 6]!) continue;
          let nx: number, ny: number, nz: number;
          if (distance > 1e-9 * (ra + rb)) {
            nx = dx / distance;
            ny = dy / distance;
            nz = dz / distance;
          } else {
            // Concentric spheres: separate along the line of the actors' centres, else straight up.
            const cx = actors.position[3 * a]! - actors.position[3 * b]!;
            const cy = actors.position[3 * a + 1]! - actors.position[3 * b + 1]!;
            const cz = actors.position[3 * a + 2]! - actors.position[3 * b + 2]!;
            const c = Math.sqrt(cx * cx + cy * cy + cz * cz);
            if (c > 1e-12) {
              nx = cx / c;
              ny = cy / c;
              nz = cz / c;
            } else {
              nx = 0;
              ny = 1;
              nz = 0;
            }
          }
          // The contact point: the middle of the overlap (or of the gap) along the normal.
          const along = rb - 0.5 * depth;
          const o = kept < CONTACTS_PER_PAIR ? PAIR_STRIDE * kept++ : PAIR_STRIDE * shallowest;
          cand[o] = nx;
          cand[o + 1] = ny;
          cand[o + 2] = nz;
          cand[o + 3] = world[3 * j]! + nx * along;
          cand[o + 4] = world[3 * j + 1]! + ny * along;
          cand[o + 5] = world[3 * j + 2]! + nz * along;
          cand[o + 6] = depth;
          cand[o + 7] = ra < rb ? ra : rb;
          cand[o + 8] = i - firstA;
          cand[o + 9] = j - firstB;
          if (kept === CONTACTS_PER_PAIR) {
            shallowest = 0;
            for (let k = 1; k < kept; k++) if (cand[PAIR_STRIDE * k + 6]! < cand[PAIR_STRIDE * shallowest + 6]!) shallowest = k;
          }
        }
      }
    }
    if (kept === 0) continue;
    // Contact within reach (touching, or about to within the substep) with a fast awake actor wakes a
    // sleeper; a slow one leaves it asleep, holding still like the ground.
    if (awake[a] === 0 && speedB * speedB > wakeSquared) {
      wake(actors, a);
      counters.woken++;
    } else if (awake[b] === 0 && speedA * speedA > wakeSquared) {
      wake(actors, b);
      counters.woken++;
    }
    // The deepest CONTACTS_PER_PAIR, of which the solver gets MANIFOLD_SIZE well spread.
    const chosen =
      kind[a] === SHAPE_BOX && kind[b] === SHAPE_BOX
        ? reduceBoxManifold(cand, PAIR_STRIDE, kept, BOX_PAIR_MANIFOLD_SIZE, Math.min(radius[a]!, radius[b]!), picked)
        : reduceManifold(cand, PAIR_STRIDE, kept, MANIFOLD_SIZE, Math.min(radius[a]!, radius[b]!), picked);
    for (let k = 0; k < chosen; k++) {
      const o = PAIR_STRIDE * picked[k]!;
      contacts.add(
        a,
        b,
        cand[o]!,
        cand[o + 1]!,
        cand[o + 2]!,
        cand[o + 3]!,
        cand[o + 4]!,
        cand[o + 5]!,
        cand[o + 6]!,
        cand[o + 7]!,
        cand[o + 8]!,
        cand[o + 9]!,
      );
    }
  }
}

function pointSpeed(velocity: Float64Array, angular: Float64Array, radius: Float64Array, i: number): number {
  const vx = velocity[3 * i]!,
    vy = velocity[3 * i + 1]!,
    vz = velocity[3 * i + 2]!;
  const wx = angular[3 * i]!,
    wy = angular[3 * i + 1]!,
    wz = angular[3 * i + 2]!;
  return Math.sqrt(vx * vx + vy * vy + vz * vz) + Math.sqrt(wx * wx + wy * wy + wz * wz) * radius[i]!;
}

/** Wakes actor i (lost actors stay frozen). */
export function wake(actors: ActorBuffers, i: number): void {
  if (actors.lost[i] !== 0) return;
  actors.awake[i] = 1;
  actors.restFrames[i] = 0;
}

/**
 * Exact contacts of boxes a and b (boxBoxContacts) as candidates; returns how many (at most
 * BOX_BOX_MAX_POINTS = CONTACTS_PER_PAIR). Rolling radius: half the smaller box's smallest half extent,
 * what its contact spheres had.
 */
function boxBoxCandidates(actors: ActorBuffers, a: number, b: number, reach: number, cand: Float64Array): number {
  const position = actors.position;
  const size = actors.size;
  const rotation = actors.rotation;
  const n = boxBoxContacts(
    position[3 * a]!,
    position[3 * a + 1]!,
    position[3 * a + 2]!,
    rotation,
    9 * a,
    size[3 * a]!,
    size[3 * a + 1]!,
    size[3 * a + 2]!,
    position[3 * b]!,
    position[3 * b + 1]!,
    position[3 * b + 2]!,
    rotation,
    9 * b,
    size[3 * b]!,
    size[3 * b + 1]!,
    size[3 * b + 2]!,
    reach,
    boxPoints,
    0,
  );
  const roll = 0.5 * Math.min(size[3 * a]!, size[3 * a + 1]!, size[3 * a + 2]!, size[3 * b]!, size[3 * b + 1]!, size[3 * b + 2]!);
  for (let k = 0; k < n; k++) {
    const p = BOX_BOX_STRIDE * k;
    const o = PAIR_STRIDE * k;
    cand[o] = boxBoxNormal[0]!;
    cand[o + 1] = boxBoxNormal[1]!;
    cand[o + 2] = boxBoxNormal[2]!;
    cand[o + 3] = boxPoints[p]!;
    cand[o + 4] = boxPoints[p + 1]!;
    cand[o + 5] = boxPoints[p + 2]!;
    cand[o + 6] = boxPoints[p + 3]!;
    cand[o + 7] = roll;
    cand[o + 8] = boxPoints[p + 4]!;
    cand[o + 9] = boxPoints[p + 5]!;
  }
  return n;
}

/**
 * Contacts of each contact sphere of actor `spheres` (a sphere or a capsule) with the box of actor `box`
 * (sphereBoxContact), the deepest CONTACTS_PER_PAIR kept as candidates of the pair (a, b): `boxIsA` says
 * which of the two the box is, so the normal points from b towards a. Features: the sphere's index on
 * its side, 0 on the box's. Rolling radius: the smaller of the sphere's and the box's contact spheres',
 * as when the box was its spheres (a ball rolling on a box meets the same resistance as before).
 */
function sphereBoxCandidates(
  actors: ActorBuffers,
  spheres: number,
  box: number,
  boxIsA: boolean,
  reach: number,
  cand: Float64Array,
  counters: ActorContactCounters,
): number {
  const position = actors.position;
  const size = actors.size;
  const rotation = actors.rotation;
  const local = actors.sphereLocal;
  const world = actors.sphereWorld;
  const bounds = actors.box;
  const cx = position[3 * box]!,
    cy = position[3 * box + 1]!,
    cz = position[3 * box + 2]!;
  const hx = size[3 * box]!,
    hy = size[3 * box + 1]!,
    hz = size[3 * box + 2]!;
  const first = actors.sphereStart[spheres]!;
  const last = first + actors.sphereCount[spheres]!;
  const flip = boxIsA ? -1 : 1;
  const result = sphereBoxResult;
  let kept = 0;
  let shallowest = 0;
  for (let s = first; s < last; s++) {
    const sx = world[3 * s]!,
      sy = world[3 * s + 1]!,
      sz = world[3 * s + 2]!;
    const sr = local[4 * s + 3]!;
    const grow = sr + reach;
    const o6 = 6 * box;
    if (
      sx + grow < bounds[o6]! ||
      sx - grow > bounds[o6 + 3]! ||
      sy + grow < bounds[o6 + 1]! ||
      sy - grow > bounds[o6 + 4]! ||
      sz + grow < bounds[o6 + 2]! ||
      sz - grow > bounds[o6 + 5]!
    )
      continue;
    counters.sphereTests++;
    sphereBoxContact(sx, sy, sz, sr, cx, cy, cz, rotation, 9 * box, hx, hy, hz);
    const depth = result[6]!;
    if (depth < -reach) continue;
    if (kept === CONTACTS_PER_PAIR && depth <= cand[PAIR_STRIDE * shallowest + 6]!) continue;
    const o = kept < CONTACTS_PER_PAIR ? PAIR_STRIDE * kept++ : PAIR_STRIDE * shallowest;
    cand[o] = flip * result[0]!;
    cand[o + 1] = flip * result[1]!;
    cand[o + 2] = flip * result[2]!;
    cand[o + 3] = result[3]!;
    cand[o + 4] = result[4]!;
    cand[o + 5] = result[5]!;
    cand[o + 6] = depth;
    cand[o + 7] = Math.min(sr, 0.5 * Math.min(hx, hy, hz));
    cand[o + 8] = boxIsA ? 0 : s - first;
    cand[o + 9] = boxIsA ? s - first : 0;
    if (kept === CONTACTS_PER_PAIR) {
      shallowest = 0;
      for (let k = 1; k < kept; k++) if (cand[PAIR_STRIDE * k + 6]! < cand[PAIR_STRIDE * shallowest + 6]!) shallowest = k;
    }
  }
  return kept;
}
