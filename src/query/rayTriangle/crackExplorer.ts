import { CRACK_PATCH_SIZE, CRACK_RAY_T_MAX, CRACK_TARGET_KINDS, type CrackRays, type CrackTargetKind, type GridMesh } from './crackRays';
import { RAY_DATA_LENGTH } from './rayData';
import type { RayTriangleKernel } from './registry';

/**
 * The crack explorer: fires rays aimed through shared edges and vertices (see crackRays.ts) at a mesh
 * with one triangle test and counts the rays that hit nothing. Each of those rays crosses the surface
 * inside its segment, so every miss is a crack the test let through.
 */

export interface CrackCounts {
  rays: number;
  misses: number;
}

export interface CrackExploreOptions {
  doubleSided?: boolean;
  /**
   * 'patch' (default): only the triangles around the target, which is exact for these rays (see
   * crackRays.ts). 'mesh': every triangle, the brute-force check of that claim; slow on big meshes.
   */
  scope?: 'patch' | 'mesh';
  /** How many missed rays to keep for drawing (default 1000). */
  maxMissedRays?: number;
}

/** Floats per kept missed ray: origin xyz, direction xyz (target at t = 1), target kind index. */
export const MISSED_RAY_STRIDE = 7;

export interface CrackReport {
  kernel: string;
  doubleSided: boolean;
  rays: number;
  misses: number;
  byTarget: Record<CrackTargetKind, CrackCounts>;
  /** MISSED_RAY_STRIDE floats per kept missed ray, in ray order; `missedRaysKept` of them are filled. */
  missedRays: Float64Array;
  missedRaysKept: number;
}

export function exploreCracks(mesh: GridMesh, rays: CrackRays, kernel: RayTriangleKernel, options: CrackExploreOptions = {}): CrackReport {
  const doubleSided = options.doubleSided ?? false;
  const wholeMesh = (options.scope ?? 'patch') === 'mesh';
  const maxMissed = Math.max(0, Math.floor(options.maxMissedRays ?? 1000));
  const { positions, indices } = mesh;
  const triangleCount = indices.length / 3;
  const { origins, directions, targetKinds, patches } = rays;
  const rayData = new Float64Array(RAY_DATA_LENGTH);
  const intersect = kernel.intersect;
  const raysByKind = new Float64Array(CRACK_TARGET_KINDS.length);
  const missesByKind = new Float64Array(CRACK_TARGET_KINDS.length);
  const missedRays = new Float64Array(MISSED_RAY_STRIDE * Math.min(maxMissed, rays.count));
  let missedRaysKept = 0;
  let misses = 0;

  for (let ray = 0; ray < rays.count; ray++) {
    const r3 = 3 * ray;
    kernel.prepareRay(origins[r3]!, origins[r3 + 1]!, origins[r3 + 2]!, directions[r3]!, directions[r3 + 1]!, directions[r3 + 2]!, rayData);
    let hit = false;
    if (wholeMesh) {
      for (let triangle = 0; triangle < triangleCount && !hit; triangle++) {
        const i = 3 * triangle;
        hit = intersect(rayData, positions, indices[i]!, indices[i + 1]!, indices[i + 2]!, CRACK_RAY_T_MAX, doubleSided) >= 0;
      }
    } else {
      const patch = CRACK_PATCH_SIZE * ray;
      for (let k = 0; k < CRACK_PATCH_SIZE && !hit; k++) {
        const triangle = patches[patch + k]!;
        if (triangle < 0) break;
        const i = 3 * triangle;
        hit = intersect(rayData, positions, indices[i]!, indices[i + 1]!, indices[i + 2]!, CRACK_RAY_T_MAX, doubleSided) >= 0;
      }
    }
    const kind = targetKinds[ray]!;
    raysByKind[kind]!++;
    if (hit) continue;
    misses++;
    missesByKind[kind]!++;
    if (missedRaysKept < maxMissed) {
      const out = MISSED_RAY_STRIDE * missedRaysKept++;
      missedRays[out] = origins[r3]!;
      missedRays[out + 1] = origins[r3 + 1]!;
      missedRays[out + 2] = origins[r3 + 2]!;
      missedRays[out + 3] = directions[r3]!;
      missedRays[out + 4] = directions[r3 + 1]!;
      missedRays[out + 5] = directions[r3 + 2]!;
      missedRays[out + 6] = kind;
    }
  }

  const byTarget = {} as Record<CrackTargetKind, CrackCounts>;
  CRACK_TARGET_KINDS.forEach((name, k) => {
    byTarget[name] = { rays: raysByKind[k]!, misses: missesByKind[k]! };
  });
  return { kernel: kernel.name, doubleSided, rays: rays.count, misses, byTarget, missedRays, missedRaysKept };
}
