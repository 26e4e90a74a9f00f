/**
 * The three.js adapter: three-mesh-bvh's drop-in shape (computeBoundsTree / disposeBoundsTree on
 * BufferGeometry, acceleratedRaycast for Mesh) over our 4-way BVH and ray kernels. Outside the core:
 * it imports three; the core never does.
 */
export { ColliderscopeBoundsTree, boundsTreeOf, computeBoundsTree, disposeBoundsTree } from './boundsTree';
export { acceleratedRaycast } from './acceleratedRaycast';
export { loadSimdRays as loadRaycastKernel, simdRaysUnavailableReason as raycastKernelUnavailableReason } from '../../query/rays/simdRays';
export type { BuildOptions } from '../../bvh/options';
export { meshoptGltfOptions } from './meshoptDecoder';
export { createDracoGltfDecoder, dracoGltfOptions } from './dracoDecoder';
