import { BackSide, DoubleSide, FrontSide, Matrix4, Mesh, Ray, type Intersection, type Material, type Raycaster, type Side } from 'three';
import { castRays } from '../../query/rays/castRays';
import type { SimdCastOptions, SimdRayKernel } from '../../query/rays/rayKernel';
import { simdRayKernel } from '../../query/rays/simdRays';
import { createAllHitsList, type AllHitsList, type CastOptions, type RayBatch, type RayHits } from '../../query/rays/rayTypes';
import { boundsTreeOf, type ColliderscopeBoundsTree } from './boundsTree';
import { threeTriangleHit, type HitAttributes, type VertexAttribute } from './threeTriangleHit';

/** three's own Mesh.raycast, taken before anyone patches the prototype: the fallback (called with the mesh as `this`). */
// eslint-disable-next-line @typescript-eslint/unbound-method
const threeMeshRaycast = Mesh.prototype.raycast;

declare module 'three' {
  interface Raycaster {
    /** three-mesh-bvh's flag, honoured by acceleratedRaycast: report only the closest hit of each mesh. */
    firstHitOnly?: boolean;
  }
}

/**
 * The BVH query window is widened by this share past the near/far distances: the kernel's float32 t
 * must not cut off a hit that three's float64 distance keeps; the exact check then trims.
 */
const WINDOW_SLACK = 1e-4;

// One ray per call: its buffers, the hit and the all-hits list are made once and reused.
const rays: RayBatch = { count: 1, origins: new Float32Array(3), directions: new Float32Array(3), tMax: new Float32Array(1) };
const hits: RayHits = { t: new Float32Array(1), triangle: new Int32Array(1) };
let allHits: AllHitsList = createAllHitsList(256);
let sortedTriangles = new Int32Array(256);
// The SIMD kernel's options (castOne) and the TypeScript walk's (castRays), frozen so neither re-checks them.
const SIMD_CLOSEST_FRONT: Partial<SimdCastOptions> = Object.freeze({ mode: 'closest', doubleSided: false });
const SIMD_CLOSEST_DOUBLE: Partial<SimdCastOptions> = Object.freeze({ mode: 'closest', doubleSided: true });
const TS_CLOSEST_FRONT: Partial<CastOptions> = Object.freeze({ kernel: 'typescript', mode: 'closest', doubleSided: false });
const TS_CLOSEST_DOUBLE: Partial<CastOptions> = Object.freeze({ kernel: 'typescript', mode: 'closest', doubleSided: true });
let simdAllFront = simdAllOptions(false);
let simdAllDouble = simdAllOptions(true);
let tsAllFront = tsAllOptions(false);
let tsAllDouble = tsAllOptions(true);
function simdAllOptions(doubleSided: boolean): Partial<SimdCastOptions> {
  return Object.freeze({ mode: 'all', doubleSided, allHits });
}
function tsAllOptions(doubleSided: boolean): Partial<CastOptions> {
  // resolveCastOptions remembers frozen options, so castRays checks them once.
  return Object.freeze({ kernel: 'typescript', mode: 'all', doubleSided, allHits });
}
/**
 * The SIMD kernel holds one tree in its memory and copies in another when cast against it. A raycast
 * over several accelerated meshes would copy every tree in, every call: only a tree cast against twice
 * in a row goes to SIMD, the others take the TypeScript walk (same hits) and leave the resident one be.
 */
let previousTree: ColliderscopeBoundsTree | null = null;

const inverseWorld = new Matrix4();
/** The world matrix inverseWorld inverts: raycasts against one mesh (or meshes sharing a matrix) invert it once. */
const invertedWorld = new Matrix4().makeScale(0, 0, 0);

/** The inverse of a mesh's world matrix, recomputed only when the matrix differs from the last one inverted. */
function inverseOf(world: Matrix4): Matrix4 {
  const next = world.elements;
  const last = invertedWorld.elements;
  for (let i = 0; i < 16; i++) {
    const x = next[i]!;
    const y = last[i]!;
    // Any difference, down to the sign of a zero (NaN differs from itself: recomputed every time).
    if (x !== y || (x === 0 && 1 / x !== 1 / y)) {
      invertedWorld.copy(world);
      inverseWorld.copy(world).invert();
      break;
    }
  }
  return inverseWorld;
}
const localRay = new Ray();
const attributes: HitAttributes = { position: undefined as unknown as VertexAttribute, uv: undefined, uv1: undefined, normal: undefined };

/**
 * A drop-in for `Mesh.prototype.raycast`: where the geometry has a tree from computeBoundsTree, the
 * ray goes down our 4-way BVH (the WebAssembly SIMD kernel where it is loaded, for the closest hit or
 * every hit, else the TypeScript walk), in the mesh's local space as three casts it; each
 * triangle found is then tested and described exactly as three's Mesh.raycast would (threeTriangleHit),
 * honouring near/far, the material's side, material arrays with geometry groups, and the draw range.
 * `raycaster.firstHitOnly = true` reports only the mesh's closest hit. Meshes without a tree, skinned
 * meshes, meshes with morph targets and groups or draw ranges that do not start on a triangle run
 * three's own raycast.
 */
export function acceleratedRaycast(this: Mesh, raycaster: Raycaster, intersects: Intersection[]): void {
  const tree = boundsTreeOf(this.geometry);
  if (tree === null || needsThreeRaycast(this)) {
    threeMeshRaycast.call(this, raycaster, intersects);
    return;
  }
  const material = this.material as Material | Material[] | undefined;
  if (material === undefined) return;
  const geometry = this.geometry;
  localRay.copy(raycaster.ray).applyMatrix4(inverseOf(this.matrixWorld));
  // World distance per unit of the (unit) local direction, exact for any affine matrix.
  const m = this.matrixWorld.elements;
  const { x: dx, y: dy, z: dz } = localRay.direction;
  const wx = m[0] * dx + m[4] * dy + m[8] * dz,
    wy = m[1] * dx + m[5] * dy + m[9] * dz,
    wz = m[2] * dx + m[6] * dy + m[10] * dz;
  // (Only the query window depends on it, widened by WINDOW_SLACK: the exact test decides.)
  const scale = Math.sqrt(wx * wx + wy * wy + wz * wz);
  if (!(scale > 0 && scale < Infinity)) {
    threeMeshRaycast.call(this, raycaster, intersects);
    return;
  }
  const nearT = (raycaster.near / scale) * (1 - WINDOW_SLACK);
  const farT = (raycaster.far / scale) * (1 + WINDOW_SLACK);
  const { x: ox, y: oy, z: oz } = localRay.origin;
  rays.origins[0] = ox + nearT * dx;
  rays.origins[1] = oy + nearT * dy;
  rays.origins[2] = oz + nearT * dz;
  rays.directions[0] = dx;
  rays.directions[1] = dy;
  rays.directions[2] = dz;
  rays.tMax[0] = farT - nearT;

  attributes.position = geometry.attributes.position as VertexAttribute;
  attributes.uv = geometry.attributes.uv;
  attributes.uv1 = geometry.attributes.uv1;
  attributes.normal = geometry.attributes.normal;
  const firstHitOnly = raycaster.firstHitOnly === true;
  const corners = 3 * tree.triangleCount;
  const drawStart = Math.max(0, geometry.drawRange.start);
  const drawEnd = Math.min(corners, geometry.drawRange.start + geometry.drawRange.count);
  const side: Side | -1 = Array.isArray(material) ? -1 : material.side;
  // One material over every triangle: the kernel can cull back faces itself and stop at the closest.
  const whole = side !== -1 && drawStart === 0 && drawEnd === corners && side !== BackSide;

  const kernel = tree === previousTree ? simdRayKernel() : null;
  previousTree = tree;
  if (firstHitOnly && whole) {
    const triangle = castClosest(kernel, tree, side === DoubleSide);
    if (triangle < 0) return;
    const hit = hitOn(this, tree, raycaster, side, triangle, 0);
    // three's float64 test can turn down what the watertight float32 test took (a grazing edge, the
    // near/far boundary): then the full list decides.
    if (hit !== null) {
      intersects.push(hit);
      return;
    }
  }
  const count = castAll(kernel, tree, !(whole && side === FrontSide));
  if (count === 0) return;
  // Hits in three's order (group by group, triangles ascending), so its stable sort breaks ties alike;
  // firstHitOnly keeps the closest (the first of equals).
  const firstAt = intersects.length;
  if (Array.isArray(material)) {
    for (const group of geometry.groups) {
      const groupMaterial = material[group.materialIndex ?? 0];
      if (groupMaterial === undefined) continue;
      const start = Math.max(group.start, drawStart);
      const end = Math.min(group.start + group.count, drawEnd);
      for (let i = 0; i < count; i++) {
        const corner = 3 * sortedTriangles[i]!;
        if (corner >= start && corner < end)
          report(intersects, firstAt, firstHitOnly, hitOn(this, tree, raycaster, groupMaterial.side, sortedTriangles[i]!, group.materialIndex ?? 0));
      }
    }
  } else {
    for (let i = 0; i < count; i++) {
      const corner = 3 * sortedTriangles[i]!;
      if (corner >= drawStart && corner < drawEnd)
        report(intersects, firstAt, firstHitOnly, hitOn(this, tree, raycaster, side as Side, sortedTriangles[i]!, 0));
    }
  }
}

/** Adds a hit to this mesh's intersections (from `firstAt`): all of them, or only the closest. */
function report(intersects: Intersection[], firstAt: number, firstHitOnly: boolean, hit: Intersection | null): void {
  if (hit === null) return;
  if (!firstHitOnly || intersects.length === firstAt) intersects.push(hit);
  else if (hit.distance < intersects[firstAt]!.distance) intersects[firstAt] = hit;
}

/** The closest triangle the ray meets within the window (−1: none), on the SIMD kernel where it is given. */
function castClosest(kernel: SimdRayKernel | null, tree: ColliderscopeBoundsTree, doubleSided: boolean): number {
  if (kernel !== null) {
    const o = rays.origins;
    const d = rays.directions;
    return kernel.castOne(tree.bvh, o[0]!, o[1]!, o[2]!, d[0]!, d[1]!, d[2]!, rays.tMax[0]!, doubleSided ? SIMD_CLOSEST_DOUBLE : SIMD_CLOSEST_FRONT);
  }
  castRays(tree.bvh, rays, hits, doubleSided ? TS_CLOSEST_DOUBLE : TS_CLOSEST_FRONT);
  return hits.triangle[0]!;
}

/** Every triangle the ray meets within the window, ascending in sortedTriangles; returns how many. */
function castAll(kernel: SimdRayKernel | null, tree: ColliderscopeBoundsTree, doubleSided: boolean): number {
  listAll(kernel, tree, doubleSided);
  if (allHits.dropped > 0) {
    growAllHits(allHits.count + allHits.dropped);
    listAll(kernel, tree, doubleSided);
  }
  const count = allHits.count;
  if (sortedTriangles.length < count) sortedTriangles = new Int32Array(allHits.capacity);
  sortedTriangles.set(allHits.triangle.subarray(0, count));
  sortedTriangles.subarray(0, count).sort();
  return count;
}

function listAll(kernel: SimdRayKernel | null, tree: ColliderscopeBoundsTree, doubleSided: boolean): void {
  if (kernel !== null) {
    const o = rays.origins;
    const d = rays.directions;
    kernel.castOne(tree.bvh, o[0]!, o[1]!, o[2]!, d[0]!, d[1]!, d[2]!, rays.tMax[0]!, doubleSided ? simdAllDouble : simdAllFront);
  } else castRays(tree.bvh, rays, hits, doubleSided ? tsAllDouble : tsAllFront);
}

function growAllHits(needed: number): void {
  allHits = createAllHitsList(Math.max(needed, 2 * allHits.capacity));
  simdAllFront = simdAllOptions(false);
  simdAllDouble = simdAllOptions(true);
  tsAllFront = tsAllOptions(false);
  tsAllDouble = tsAllOptions(true);
}

function hitOn(
  mesh: Mesh,
  tree: ColliderscopeBoundsTree,
  raycaster: Raycaster,
  side: Side,
  triangle: number,
  materialIndex: number,
): Intersection | null {
  const indices = tree.bvh.indices;
  const t3 = 3 * triangle;
  return threeTriangleHit(mesh, side, raycaster, localRay, attributes, indices[t3]!, indices[t3 + 1]!, indices[t3 + 2]!, triangle, materialIndex);
}

/**
 * What the tree cannot answer as three would: skinned or morphed vertices (three moves them on the
 * CPU per raycast), and groups or a draw range starting inside a triangle (three then reads triangles
 * across the boundary).
 */
function needsThreeRaycast(mesh: Mesh): boolean {
  if ((mesh as { isSkinnedMesh?: boolean }).isSkinnedMesh === true) return true;
  const geometry = mesh.geometry;
  if (geometry.morphAttributes.position !== undefined && mesh.morphTargetInfluences !== undefined) return true;
  if (geometry.drawRange.start % 3 !== 0) return true;
  if (Array.isArray(mesh.material)) for (const group of geometry.groups) if (group.start % 3 !== 0) return true;
  return false;
}
