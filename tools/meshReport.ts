/**
 * What `npm run mesh` measures on a loaded mesh: the BVH built over it (time, SAH cost, bytes per
 * triangle) and a batch of incoherent rays cast through it, a sample of them checked against every
 * triangle (castRaysBruteForce). Kept apart from the command line so tests call it directly.
 */
import {
  buildBVH,
  castRays,
  castRaysBruteForce,
  Random,
  type BVH,
  type BVHBuilderName,
  type LoadedMesh,
  type RayBatch,
  type RayHits,
} from '../src/core';

export interface MeshReportOptions {
  rays: number;
  /** How many of the rays are checked against brute force. */
  check: number;
  seed: number;
  builder: BVHBuilderName;
}

export interface MeshReport {
  bvh: BVH;
  /** The kernel that cast the rays, and why not SIMD when it was not. */
  kernel: string;
  fallbackReason?: string;
  castMs: number;
  hits: number;
  checked: number;
  /** Checked rays whose t differs from brute force (must be 0). */
  mismatches: number;
  /** Checked rays with brute force's t but another triangle at that same t (a tie: both are right). */
  ties: number;
  firstMismatch?: string;
}

/**
 * Incoherent rays: origins uniform in the mesh's bounds grown on every side by a fifth of their largest
 * side (so a flat mesh still has rays above and below it), directions uniform on the sphere. Seeded.
 */
export function incoherentMeshRays(mesh: LoadedMesh, count: number, random: Random): RayBatch {
  const b = mesh.bounds;
  const margin = 0.2 * Math.max(b[3]! - b[0]!, b[4]! - b[1]!, b[5]! - b[2]!);
  const rays: RayBatch = {
    count,
    origins: new Float32Array(3 * count),
    directions: new Float32Array(3 * count),
    tMax: new Float32Array(count).fill(Infinity),
  };
  for (let i = 0; i < count; i++) {
    for (let axis = 0; axis < 3; axis++) {
      rays.origins[3 * i + axis] = random.range(b[axis]! - margin, b[axis + 3]! + margin);
    }
    // A uniform direction: z uniform in [−1, 1], the angle around it uniform.
    const z = random.range(-1, 1);
    const angle = random.range(0, 2 * Math.PI);
    const r = Math.sqrt(1 - z * z);
    rays.directions.set([r * Math.cos(angle), r * Math.sin(angle), z], 3 * i);
  }
  return rays;
}

export function inspectMesh(mesh: LoadedMesh, options: MeshReportOptions): MeshReport {
  const bvh = buildBVH(mesh.positions, mesh.indices, { builder: options.builder });
  const rays = incoherentMeshRays(mesh, options.rays, new Random(options.seed));
  const hits: RayHits = { t: new Float32Array(rays.count), triangle: new Int32Array(rays.count) };
  // A first, untimed pass: the kernel copies the BVH into its memory and the engine compiles the walk.
  castRays(bvh, rays, hits, { kernel: 'wasm-simd' });
  const start = performance.now();
  const cast = castRays(bvh, rays, hits, { kernel: 'wasm-simd' });
  const castMs = performance.now() - start;
  let hitCount = 0;
  for (let i = 0; i < rays.count; i++) if (hits.triangle[i]! >= 0) hitCount++;

  const checked = Math.min(options.check, rays.count);
  const sample: RayBatch = {
    count: checked,
    origins: rays.origins.subarray(0, 3 * checked),
    directions: rays.directions.subarray(0, 3 * checked),
    tMax: rays.tMax.subarray(0, checked),
  };
  const reference: RayHits = { t: new Float32Array(checked), triangle: new Int32Array(checked) };
  castRaysBruteForce(mesh.positions, mesh.indices, sample, reference);
  let mismatches = 0;
  let ties = 0;
  let firstMismatch: string | undefined;
  for (let i = 0; i < checked; i++) {
    if (!Object.is(hits.t[i], reference.t[i])) {
      mismatches++;
      firstMismatch ??= `ray ${i}: t ${hits.t[i]} (triangle ${hits.triangle[i]}), brute force t ${reference.t[i]} (triangle ${reference.triangle[i]})`;
    } else if (hits.triangle[i] !== reference.triangle[i]) ties++;
  }
  return {
    bvh,
    kernel: cast.kernel,
    ...(cast.fallbackReason !== undefined ? { fallbackReason: cast.fallbackReason } : {}),
    castMs,
    hits: hitCount,
    checked,
    mismatches,
    ties,
    ...(firstMismatch !== undefined ? { firstMismatch } : {}),
  };
}
