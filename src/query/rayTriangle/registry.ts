import { InvalidParameterError } from '../../errors';
import { intersectEdgePlane } from './edgePlane';
import { intersectMollerTrumbore } from './mollerTrumbore';
import { prepareRay } from './rayData';
import { intersectWatertight } from './watertight';

/**
 * One ray-triangle test. `intersect` returns t in [0, tMax] (hit point = origin + t·direction, t in
 * units of the direction's length) or RAY_MISS (−1); it allocates nothing. Triangles wound
 * counter-clockwise as seen from the ray origin are front faces; single-sided mode keeps only those.
 */
export interface RayTriangleKernel {
  readonly name: RayTriangleKernelName;
  readonly description: string;
  /** Whether a ray through a shared edge or vertex of a mesh always hits one of the triangles there. */
  readonly watertight: boolean;
  prepareRay(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, rayData: Float64Array): void;
  intersect(
    this: void,
    rayData: Float64Array,
    positions: Float32Array,
    a: number,
    b: number,
    c: number,
    tMax: number,
    doubleSided: boolean,
    barycentric?: Float64Array,
  ): number;
}

export const RAY_TRIANGLE_KERNEL_NAMES = ['edge-plane', 'moller-trumbore', 'watertight'] as const;
export type RayTriangleKernelName = (typeof RAY_TRIANGLE_KERNEL_NAMES)[number];
export const DEFAULT_RAY_TRIANGLE_KERNEL: RayTriangleKernelName = 'watertight';

export const RAY_TRIANGLE_KERNELS: Readonly<Record<RayTriangleKernelName, RayTriangleKernel>> = Object.freeze({
  'edge-plane': {
    name: 'edge-plane',
    description: 'planes through the ray origin and each edge (crack-free on shared edges, not at vertices)',
    watertight: false,
    prepareRay,
    intersect: intersectEdgePlane,
  },
  'moller-trumbore': {
    name: 'moller-trumbore',
    description: 'Möller–Trumbore barycentric solve (fast, may crack on shared edges and vertices)',
    watertight: false,
    prepareRay,
    intersect: intersectMollerTrumbore,
  },
  watertight: {
    name: 'watertight',
    description: 'Woop–Benthin–Wald sheared 2D edge functions with exact signs (crack-free)',
    watertight: true,
    prepareRay,
    intersect: intersectWatertight,
  },
});

/** The kernel of that name; throws InvalidParameterError for an unknown name. */
export function getRayTriangleKernel(name: string = DEFAULT_RAY_TRIANGLE_KERNEL, field = 'triangleTest'): RayTriangleKernel {
  if (!(RAY_TRIANGLE_KERNEL_NAMES as readonly string[]).includes(name)) {
    throw new InvalidParameterError(field, `one of ${RAY_TRIANGLE_KERNEL_NAMES.map((n) => `'${n}'`).join(', ')}`, name);
  }
  return RAY_TRIANGLE_KERNELS[name as RayTriangleKernelName];
}
