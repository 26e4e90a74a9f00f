import type { ActorBuffers } from './actorBuffers';
import { BOX_QUERY_SIZE, BOX_TRIANGLE_MAX_POINTS, BOX_TRIANGLE_STRIDE, boxTriangleContactsOf } from './boxTriangle';
import { closestPointOnTriangleAt } from './closestPointOnTriangle';
import { TERRAIN, type ContactBuffer } from './contactBuffer';
import { MANIFOLD_SIZE, reduceBoxManifold, reduceManifold } from './manifold';
import { SHAPE_BOX } from './shapes';
import { TRIANGLE_STRIDE, writeTriangleRecords, type TerrainNeighbours, type TriangleSource } from './terrainNeighbours';

export type { TriangleSource };

/**
 * Terrain contacts a box keeps: its exact contacts on a plane are the corners of one face, and four of
 * them hold it as well as more would (a box on a fold keeps two per side).
 */
const BOX_MANIFOLD_SIZE = 4;
/** A contact sphere keeps at most this many triangle contacts, with clearly different normals. */
const CONTACTS_PER_SPHERE = 3;
/** Contacts of one sphere whose normals are closer than this (cosine) merge into the deepest. */
const SAME_NORMAL = 0.95;

export interface TerrainContactCounters {
  triangleQueries: number;
  trianglesNear: number;
  sphereTriangleTests: number;
  /** Box actor–triangle pairs given to the exact box–triangle test. */
  boxTriangleTests: number;
}

const closest = new Float64Array(3);
/** Offsets of the current actor's triangle records within reach of its box. */
let nearRecords = new Int32Array(64);
/** The current box's centre, half extents and reach, as boxTriangleContactsOf reads them. */
const boxQuery = new Float64Array(BOX_QUERY_SIZE);
/** The current box–triangle call's points. */
const boxPoints = new Float64Array(BOX_TRIANGLE_STRIDE * BOX_TRIANGLE_MAX_POINTS);
/** The current actor's triangle records when no neighbour lists are kept. */
let triangleCache = new Float64Array(TRIANGLE_STRIDE * 64);
const unionScratch = new Float64Array(6);
/** Candidates of the current actor, over all its spheres: normal (3), point (3), depth, sphere radius, sphere (of the actor's), triangle. */
const ACTOR_STRIDE = 10;
let actorCandidates = new Float64Array(ACTOR_STRIDE * 64);
const picked = new Int32Array(MANIFOLD_SIZE);
// Candidates of the current sphere: normal (3), point (3), depth, triangle per slot.
const SPHERE_STRIDE = 8;
const candidates = new Float64Array(SPHERE_STRIDE * CONTACTS_PER_SPHERE);

/**
 * Contacts between the awake actors' contact spheres and the terrain triangles near them, appended to
 * `contacts`. A sphere (centre c, radius r) against triangle T:
 * - c in front of T's plane: the contact is at the closest point q of T, normal (c − q)/|c − q| — the
 *   sphere rolls smoothly over edges and vertices — and depth r − |c − q|;
 * - c behind the plane by less than r, with its projection inside T: the face normal, depth r + distance
 *   (the sphere's centre already crossed the surface; push it back out along the face);
 * - anything further is no contact. Gaps up to `speculative` (how far the actor can travel this substep)
 *   are kept as negative depths for the solver to close without tunnelling.
 * The terrain is one-sided: triangle normals come from the winding, (v1 − v0) × (v2 − v0).
 * A box skips its contact spheres: its contacts come from the exact box–triangle test (boxTriangle.ts),
 * the corners of its face clipped to each triangle under it, with the triangle's normal.
 * An actor keeps at most MANIFOLD_SIZE of its spheres' contacts, well spread (see reduceManifold).
 * With `neighbours`, each actor's triangle list is kept across substeps (TerrainNeighbours); without,
 * `source` is walked for every actor every substep.
 */
export function findTerrainContacts(
  actors: ActorBuffers,
  source: TriangleSource,
  positions: Float32Array,
  indices: Uint32Array,
  contacts: ContactBuffer,
  substep: number,
  margin: number,
  counters: TerrainContactCounters,
  neighbours: TerrainNeighbours | null = null,
): void {
  const count = actors.count;
  const awake = actors.awake;
  const box = actors.box;
  const velocity = actors.velocity;
  const angular = actors.angularVelocity;
  const radius = actors.radius;
  const sphereStart = actors.sphereStart;
  const sphereCount = actors.sphereCount;
  const local = actors.sphereLocal;
  const world = actors.sphereWorld;
  const cand = candidates;
  const kind = actors.kind;
  for (let i = 0; i < count; i++) {
    if (awake[i] === 0) continue;
    const vx = velocity[3 * i]!,
      vy = velocity[3 * i + 1]!,
      vz = velocity[3 * i + 2]!;
    const wx = angular[3 * i]!,
      wy = angular[3 * i + 1]!,
      wz = angular[3 * i + 2]!;
    const pointSpeed = Math.sqrt(vx * vx + vy * vy + vz * vz) + Math.sqrt(wx * wx + wy * wy + wz * wz) * radius[i]!;
    const reach = pointSpeed * substep + margin;
    const b = 6 * i;
    let found: number;
    let tri: Float64Array;
    let base: number;
    let union: Float64Array;
    let u: number;
    if (neighbours !== null) {
      // Slack: the distance the actor can cover in a few more substeps, at least a quarter of its size.
      const slack = Math.max(2 * reach, 0.25 * radius[i]!);
      found = neighbours.gather(
        i,
        box[b]! - reach,
        box[b + 1]! - reach,
        box[b + 2]! - reach,
        box[b + 3]! + reach,
        box[b + 4]! + reach,
        box[b + 5]! + reach,
        slack,
        source,
        positions,
        indices,
      );
      tri = neighbours.records;
      base = neighbours.start[i]!;
      union = neighbours.union;
      u = 6 * i;
    } else {
      found = source.run(box[b]! - reach, box[b + 1]! - reach, box[b + 2]! - reach, box[b + 3]! + reach, box[b + 4]! + reach, box[b + 5]! + reach);
      // The triangles' corners, bounds and unit normals, once per actor rather than once per contact sphere.
      if (triangleCache.length < TRIANGLE_STRIDE * found) triangleCache = new Float64Array(2 * TRIANGLE_STRIDE * found);
      writeTriangleRecords(source.triangles, found, positions, indices, triangleCache, 0, unionScratch, 0);
      tri = triangleCache;
      base = 0;
      union = unionScratch;
      u = 0;
    }
    counters.triangleQueries++;
    counters.trianglesNear += found;
    if (found === 0) continue;
    // The union of the triangles' bounds: a sphere out of its reach meets none of them (a box's upper spheres).
    const nearMinX = union[u]!,
      nearMinY = union[u + 1]!,
      nearMinZ = union[u + 2]!,
      nearMaxX = union[u + 3]!,
      nearMaxY = union[u + 4]!,
      nearMaxZ = union[u + 5]!;
    const first = sphereStart[i]!;
    const last = kind[i] === SHAPE_BOX ? first : first + sphereCount[i]!;
    // The records of the triangles within reach of the actor's box: the box test or the contact spheres
    // then scan only these (the kept list has slack, and a record is two and a half cache lines). For
    // spheres the reach grows by a hair, so that rounding cannot drop a triangle some sphere's own test
    // below would keep.
    const isBox = kind[i] === SHAPE_BOX;
    const near = listRecordsNear(tri, base, found, box, b, isBox ? reach : reach + 1e-9 * (1 + radius[i]! + reach));
    let actorKept = isBox ? boxCandidates(actors, i, tri, near, reach, counters) : 0;
    const records = nearRecords;
    for (let s = first; s < last; s++) {
      const cx = world[3 * s]!,
        cy = world[3 * s + 1]!,
        cz = world[3 * s + 2]!;
      const r = local[4 * s + 3]!;
      const extent = r + reach;
      // Above a triangle's plane by more than this, the sphere is farther than `extent` from it (the
      // small allowance keeps the cut clear of rounding: the exact test below would reject it too).
      const above = extent + 1e-6 * (1 + extent);
      if (nearMinY > cy + extent || nearMaxY < cy - extent || nearMinX > cx + extent || nearMaxX < cx - extent) continue;
      if (nearMinZ > cz + extent || nearMaxZ < cz - extent) continue;
      let kept = 0;
      for (let t = 0; t < near; t++) {
        const o = records[t]!;
        if (tri[o + 9]! > cx + extent || tri[o + 10]! < cx - extent) continue;
        if (tri[o + 11]! > cy + extent || tri[o + 12]! < cy - extent) continue;
        if (tri[o + 13]! > cz + extent || tri[o + 14]! < cz - extent) continue;
        counters.sphereTriangleTests++;
        const ax = tri[o]!,
          ay = tri[o + 1]!,
          az = tri[o + 2]!;
        const fx = tri[o + 15]!,
          fy = tri[o + 16]!,
          fz = tri[o + 17]!;
        const flat = tri[o + 18] !== 0;
        const height = flat ? 0 : (cx - ax) * fx + (cy - ay) * fy + (cz - az) * fz;
        if (height < -r || height > above) continue;
        closestPointOnTriangleAt(world, 3 * s, tri, o, closest);
        const qx = closest[0]!,
          qy = closest[1]!,
          qz = closest[2]!;
        let nx: number, ny: number, nz: number, depth: number;
        if (height >= 0 || flat) {
          const dx = cx - qx,
            dy = cy - qy,
            dz = cz - qz;
          const distance = Math.sqrt(dx * dx + dy * dy + dz * dz);
          depth = r - distance;
          if (depth < -reach) continue;
          if (distance > 1e-9 * (1 + r)) {
            nx = dx / distance;
            ny = dy / distance;
            nz = dz / distance;
          } else if (!flat) {
            nx = fx;
            ny = fy;
            nz = fz;
          } else continue;
        } else {
          // Behind the plane: only when the centre projects inside the triangle (else a neighbour owns it).
          const ox = cx - height * fx - qx,
            oy = cy - height * fy - qy,
            oz = cz - height * fz - qz;
          if (ox * ox + oy * oy + oz * oz > 1e-12 * (1 + r * r)) continue;
          nx = fx;
          ny = fy;
          nz = fz;
          depth = r - height;
        }
        // Keep the deepest per normal direction, at most CONTACTS_PER_SPHERE directions.
        let merged = false;
        const triangle = tri[o + 19]!;
        for (let k = 0; k < kept; k++) {
          const o = SPHERE_STRIDE * k;
          if (cand[o]! * nx + cand[o + 1]! * ny + cand[o + 2]! * nz > SAME_NORMAL) {
            if (depth > cand[o + 6]!) write(cand, o, nx, ny, nz, qx, qy, qz, depth, triangle);
            merged = true;
            break;
          }
        }
        if (merged) continue;
        if (kept < CONTACTS_PER_SPHERE) {
          write(cand, SPHERE_STRIDE * kept, nx, ny, nz, qx, qy, qz, depth, triangle);
          kept++;
        } else {
          let shallowest = 0;
          for (let k = 1; k < kept; k++) if (cand[SPHERE_STRIDE * k + 6]! < cand[SPHERE_STRIDE * shallowest + 6]!) shallowest = k;
          if (depth > cand[SPHERE_STRIDE * shallowest + 6]!) write(cand, SPHERE_STRIDE * shallowest, nx, ny, nz, qx, qy, qz, depth, triangle);
        }
      }
      if (actorCandidates.length < ACTOR_STRIDE * (actorKept + kept)) {
        const grown = new Float64Array(2 * Math.max(actorCandidates.length, ACTOR_STRIDE * (actorKept + kept)));
        grown.set(actorCandidates);
        actorCandidates = grown;
      }
      const out = actorCandidates;
      for (let k = 0; k < kept; k++) {
        const to = ACTOR_STRIDE * actorKept;
        for (let j = 0; j < 7; j++) out[to + j] = cand[SPHERE_STRIDE * k + j]!;
        out[to + 7] = r;
        out[to + 8] = s - first;
        out[to + 9] = cand[SPHERE_STRIDE * k + 7]!;
        actorKept++;
      }
    }
    const chosen =
      kind[i] === SHAPE_BOX
        ? reduceBoxManifold(actorCandidates, ACTOR_STRIDE, actorKept, BOX_MANIFOLD_SIZE, radius[i]!, picked)
        : reduceManifold(actorCandidates, ACTOR_STRIDE, actorKept, MANIFOLD_SIZE, radius[i]!, picked);
    contacts.terrainCount += chosen;
    for (let k = 0; k < chosen; k++) {
      const o = ACTOR_STRIDE * picked[k]!;
      const c = actorCandidates;
      contacts.add(i, TERRAIN, c[o]!, c[o + 1]!, c[o + 2]!, c[o + 3]!, c[o + 4]!, c[o + 5]!, c[o + 6]!, c[o + 7]!, c[o + 8]!, c[o + 9]!);
    }
  }
}

/**
 * Lists in nearRecords the offsets of the `found` triangle records at tri[base…] whose bounds meet the
 * actor's box (box[b…b+5]) grown by `grow`, in the list's order; returns how many.
 */
function listRecordsNear(tri: Float64Array, base: number, found: number, box: Float64Array, b: number, grow: number): number {
  const minX = box[b]! - grow,
    minY = box[b + 1]! - grow,
    minZ = box[b + 2]! - grow,
    maxX = box[b + 3]! + grow,
    maxY = box[b + 4]! + grow,
    maxZ = box[b + 5]! + grow;
  if (nearRecords.length < found) nearRecords = new Int32Array(2 * found);
  const records = nearRecords;
  let near = 0;
  for (let t = 0; t < found; t++) {
    const o = base + TRIANGLE_STRIDE * t;
    if (tri[o + 9]! > maxX || tri[o + 10]! < minX) continue;
    if (tri[o + 11]! > maxY || tri[o + 12]! < minY) continue;
    if (tri[o + 13]! > maxZ || tri[o + 14]! < minZ) continue;
    records[near++] = o;
  }
  return near;
}

/**
 * The exact contacts of box actor i with the `near` triangle records listed in nearRecords (those whose
 * bounds meet the box's grown by `reach`; boxTriangleContactsOf per record), written to actorCandidates;
 * returns how many.
 * Feature of a: the contact's feature id on the box; the rolling radius is half the box's smallest half
 * extent (what its contact spheres had), so a box's spin still meets the same resistance.
 */
function boxCandidates(actors: ActorBuffers, i: number, tri: Float64Array, near: number, reach: number, counters: TerrainContactCounters): number {
  const position = actors.position;
  const cx = position[3 * i]!,
    cy = position[3 * i + 1]!,
    cz = position[3 * i + 2]!;
  const size = actors.size;
  const hx = size[3 * i]!,
    hy = size[3 * i + 1]!,
    hz = size[3 * i + 2]!;
  const rollRadius = 0.5 * Math.min(hx, hy, hz);
  const query = boxQuery;
  query[0] = cx;
  query[1] = cy;
  query[2] = cz;
  query[3] = hx;
  query[4] = hy;
  query[5] = hz;
  query[6] = reach;
  const rotation = actors.rotation;
  const r = 9 * i;
  const points = boxPoints;
  let kept = 0;
  const records = nearRecords;
  for (let t = 0; t < near; t++) {
    const o = records[t]!;
    if (tri[o + 18] !== 0) continue;
    counters.boxTriangleTests++;
    const fx = tri[o + 15]!,
      fy = tri[o + 16]!,
      fz = tri[o + 17]!;
    const n = boxTriangleContactsOf(boxQuery, rotation, r, tri, o, points, 0);
    if (n === 0) continue;
    if (actorCandidates.length < ACTOR_STRIDE * (kept + n)) {
      const grown = new Float64Array(2 * Math.max(actorCandidates.length, ACTOR_STRIDE * (kept + n)));
      grown.set(actorCandidates);
      actorCandidates = grown;
    }
    const out = actorCandidates;
    const triangle = tri[o + 19]!;
    for (let k = 0; k < n; k++) {
      const p = BOX_TRIANGLE_STRIDE * k;
      const to = ACTOR_STRIDE * kept++;
      out[to] = fx;
      out[to + 1] = fy;
      out[to + 2] = fz;
      out[to + 3] = points[p]!;
      out[to + 4] = points[p + 1]!;
      out[to + 5] = points[p + 2]!;
      out[to + 6] = points[p + 3]!;
      out[to + 7] = rollRadius;
      out[to + 8] = points[p + 4]!;
      out[to + 9] = triangle;
    }
  }
  return kept;
}

function write(
  out: Float64Array,
  o: number,
  nx: number,
  ny: number,
  nz: number,
  px: number,
  py: number,
  pz: number,
  depth: number,
  triangle: number,
): void {
  out[o] = nx;
  out[o + 1] = ny;
  out[o + 2] = nz;
  out[o + 3] = px;
  out[o + 4] = py;
  out[o + 5] = pz;
  out[o + 6] = depth;
  out[o + 7] = triangle;
}
