import type { BVH } from '../../bvh/buildBVH';
import { TRIANGLE_GROUP_BYTES } from '../../bvh/layoutSpec';
import { frameMagnitudes, quantizedNodesOf } from '../../bvh/nodeRecords';
import { alignTo } from '../../platform/moduleMemory';
import { packLeafGroups, type LeafGroups } from './rayLeafGroups';
import { RAY_NODE_RECORD_BYTES, writeRayNodeRecords } from './rayNodeRecords';

/**
 * Where a BVH's copy for the ray kernels lies in a module's memory (castRays.ts and its shared-memory
 * build read the same records):
 *
 *   magnitude: the frames' magnitude bound per axis (3 × f64) | nodes: node records (rayNodeRecords.ts,
 *   128 B each, 128-aligned) | triangles: leaf by leaf in whole groups of four (144 B per group: nine
 *   f32x4 rows ax … cz) | order: the caller's triangle id per lane (i32, −1 unused) | masks: that
 *   triangle's collision mask per lane (u32, 0 unused) | end
 */
export interface RaySceneLayout {
  magnitude: number;
  nodes: number;
  triangles: number;
  order: number;
  masks: number;
  end: number;
}

/** The leaf groups of a BVH's quantized layout and where its copy goes when it starts at `at`. */
export function planRayScene(bvh: BVH, at: number): { leaves: LeafGroups; layout: RaySceneLayout } {
  const nodes = quantizedNodesOf(bvh);
  const references = bvh.triangleOrder === null ? bvh.triangleCount : bvh.triangleOrder.length;
  const leaves = packLeafGroups(nodes, bvh.triangleOrder, references);
  const nodeStart = alignTo(at + 24, 128);
  const triangles = nodeStart + RAY_NODE_RECORD_BYTES * nodes.nodeCount;
  const order = alignTo(triangles + TRIANGLE_GROUP_BYTES * leaves.groupCount, 16);
  const masks = order + 16 * leaves.groupCount;
  return { leaves, layout: { magnitude: at, nodes: nodeStart, triangles, order, masks, end: masks + 16 * leaves.groupCount } };
}

/** Writes the copy planned by planRayScene into `buffer` (which must hold layout.end bytes). */
export function writeRayScene(bvh: BVH, leaves: LeafGroups, layout: RaySceneLayout, buffer: ArrayBufferLike): void {
  const nodes = quantizedNodesOf(bvh);
  new Float64Array(buffer, layout.magnitude, 3).set(frameMagnitudes(nodes));
  writeRayNodeRecords(nodes, buffer, layout.nodes, leaves.groupAt, bvh.masks, bvh.triangleOrder);
  // Groups of four lanes, structure of arrays: coordinate r (ax, ay, az, bx, …, cz) of lane k at
  // float 36·(k >> 2) + 4·r + (k & 3); unused lanes stay zero (the kernel masks them off).
  const grouped = new Float32Array(buffer, layout.triangles, 36 * leaves.groupCount);
  grouped.fill(0);
  const positions = bvh.positions;
  const indices = bvh.indices;
  const lanes = leaves.lanes;
  for (let k = 0; k < lanes.length; k++) {
    const triangle = lanes[k]!;
    if (triangle < 0) continue;
    const o = 36 * (k >> 2) + (k & 3);
    for (let corner = 0; corner < 3; corner++) {
      const v = 3 * indices[3 * triangle + corner]!;
      grouped[o + 12 * corner] = positions[v]!;
      grouped[o + 12 * corner + 4] = positions[v + 1]!;
      grouped[o + 12 * corner + 8] = positions[v + 2]!;
    }
  }
  new Int32Array(buffer, layout.order, lanes.length).set(lanes);
  const laneMasks = new Uint32Array(buffer, layout.masks, lanes.length);
  const { materialIds, materialMasks } = bvh.masks;
  for (let k = 0; k < lanes.length; k++) laneMasks[k] = lanes[k]! < 0 ? 0 : materialMasks[materialIds[lanes[k]!]!]!;
}
