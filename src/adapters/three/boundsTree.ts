import type { BufferAttribute, BufferGeometry, InterleavedBufferAttribute } from 'three';
import { buildBVH, type BuildOptions, type BVH } from '../../bvh/index';
import { loadSimdRays } from '../../query/rays/simdRays';

/**
 * The 4-way BVH of one BufferGeometry, built from flat copies of its positions (interleaved or
 * normalized attributes read through three's accessors) and its index; a non-indexed geometry reads
 * vertices 3t, 3t+1, 3t+2 as triangle t. Triangle ids are three's face indices. The copies are taken
 * once: after the geometry's positions or index change, build the tree again.
 */
export class ColliderscopeBoundsTree {
  readonly bvh: BVH;
  /** Whole triangles of the index (or of the positions when there is no index). */
  readonly triangleCount: number;

  constructor(geometry: BufferGeometry, options: Partial<BuildOptions> = {}) {
    const position = geometry.getAttribute('position') as BufferAttribute | InterleavedBufferAttribute | undefined;
    if (position === undefined) throw new Error('computeBoundsTree: the geometry has no position attribute');
    const positions = new Float32Array(3 * position.count);
    for (let v = 0; v < position.count; v++) {
      positions[3 * v] = position.getX(v);
      positions[3 * v + 1] = position.getY(v);
      positions[3 * v + 2] = position.getZ(v);
    }
    const index = geometry.getIndex();
    const corners = index === null ? position.count : index.count;
    const triangleCount = Math.floor(corners / 3);
    const indices = new Uint32Array(3 * triangleCount);
    if (index === null) for (let i = 0; i < indices.length; i++) indices[i] = i;
    else for (let i = 0; i < indices.length; i++) indices[i] = index.getX(i);
    // Only the quantized layout: both walks the adapter uses (SIMD, and the TypeScript all-hits walk) read it.
    this.bvh = buildBVH(positions, indices, { layouts: ['quantized'], ...options, reorderTriangles: false });
    this.triangleCount = triangleCount;
  }
}

/** Where the tree lives on the geometry: the property three-mesh-bvh's users already look at. */
interface GeometryWithTree {
  boundsTree?: unknown;
}

/** The geometry's tree when computeBoundsTree put one there, else null. */
export function boundsTreeOf(geometry: BufferGeometry): ColliderscopeBoundsTree | null {
  const tree = (geometry as unknown as GeometryWithTree).boundsTree;
  return tree instanceof ColliderscopeBoundsTree ? tree : null;
}

/**
 * For `BufferGeometry.prototype.computeBoundsTree`: builds the tree into `geometry.boundsTree` and
 * returns it. Also starts loading the WebAssembly SIMD ray kernel; until it is loaded (or where the
 * engine has no WebAssembly SIMD) raycasts run the TypeScript walk, with the same results.
 */
export function computeBoundsTree(this: BufferGeometry, options: Partial<BuildOptions> = {}): ColliderscopeBoundsTree {
  const tree = new ColliderscopeBoundsTree(this, options);
  (this as unknown as GeometryWithTree).boundsTree = tree;
  void loadSimdRays();
  return tree;
}

/** For `BufferGeometry.prototype.disposeBoundsTree`: drops the tree; raycasts fall back to three's own. */
export function disposeBoundsTree(this: BufferGeometry): void {
  (this as unknown as GeometryWithTree).boundsTree = null;
}
