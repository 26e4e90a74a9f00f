import type { BVH } from './buildBVH';
import { bvhRevision } from './revision';
import { packBinary, type BinaryNodes } from './binaryLayout';
import { validateMesh } from './meshInput';
import { resolveBuildOptions, type BuildOptions } from './options';
import { buildBinaryTree } from './sahBuilder';

/** The packed binary tree over an indexed triangle mesh (arrays referenced, not copied). */
export interface BinaryBVH {
  readonly positions: Float32Array;
  readonly indices: Uint32Array;
  readonly triangleCount: number;
  /** Triangle ids of all leaf ranges, in tree order (a triangle split spatially appears more than once). */
  readonly triangleOrder: Uint32Array;
  readonly nodes: BinaryNodes;
  readonly buildMs: number;
}

/**
 * Runs the same binary SAH builder as buildBVH with the same options (the builder is deterministic, so
 * for one mesh and one set of options this is the very tree the 4-way BVH was collapsed from) and packs
 * it in the binary layouts. Throws InvalidParameterError for a malformed mesh or option.
 */
export function buildBinaryBVH(positions: Float32Array, indices: Uint32Array, options: Partial<BuildOptions> = {}): BinaryBVH {
  const resolved = resolveBuildOptions(options);
  const triangleCount = validateMesh(positions, indices);
  const start = performance.now();
  const tree = buildBinaryTree(positions, indices, triangleCount, resolved);
  const nodes = packBinary(tree);
  return { positions, indices, triangleCount, triangleOrder: tree.triangleOrder, nodes, buildMs: performance.now() - start };
}

/** With the BVH revision it matches (revision.ts): a refit moves the mesh, so the binary tree is rebuilt. */
const binaryOfBvh = new WeakMap<BVH, { revision: number; binary: BinaryBVH }>();

/** The binary layout of a 4-way BVH's mesh, built with its options on first use and kept with it. */
export function binaryBVHFor(bvh: BVH): BinaryBVH {
  const revision = bvhRevision(bvh);
  let entry = binaryOfBvh.get(bvh);
  if (entry === undefined || entry.revision !== revision) {
    entry = { revision, binary: buildBinaryBVH(bvh.positions, bvh.indices, bvh.options) };
    binaryOfBvh.set(bvh, entry);
  }
  return entry.binary;
}

/** Whether binaryBVHFor(bvh) would return at once. */
export const hasBinaryBVH = (bvh: BVH): boolean => binaryOfBvh.get(bvh)?.revision === bvhRevision(bvh);

/** Attaches a binary layout built elsewhere (a worker) to a BVH of the same mesh. */
export function attachBinaryBVH(bvh: BVH, binary: BinaryBVH): void {
  binaryOfBvh.set(bvh, { revision: bvhRevision(bvh), binary });
}
