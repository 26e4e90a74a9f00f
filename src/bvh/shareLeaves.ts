import type { BuildTree } from './buildTree';
import { CHILD_EMPTY, CHILD_LEAF, CHILD_NODE, type WideTree } from './wideTree';

/**
 * The talk's shared half-full leaves: a leaf node using only two of its four slots wastes half its
 * bytes, so two such nodes become one full node that both parents point to (no parent pointers are
 * kept, so two parents cost nothing). Each parent still bounds only its own half; a ray entering from
 * one parent tests the other half's two boxes too, which costs nothing extra in a 4-wide test as long
 * as they are culled, hence pairs are chosen far apart: in tree order (roughly spatial order), each
 * node is paired with the one half the list away.
 *
 * Shared nodes move to the end of the node array; their union box becomes their quantization frame.
 */
export function shareHalfFullLeaves(wide: WideTree, tree: BuildTree): WideTree {
  const { nodeCount, kind, ref, source, depth } = wide;
  const halfFull: number[] = [];
  for (let node = 1; node < nodeCount; node++) {
    const o = 4 * node;
    if (kind[o] === CHILD_LEAF && kind[o + 1] === CHILD_LEAF && kind[o + 2] === CHILD_EMPTY && kind[o + 3] === CHILD_EMPTY) halfFull.push(node);
  }
  const pairCount = halfFull.length >> 1;
  if (pairCount === 0) return wide;

  const removed = new Uint8Array(nodeCount);
  for (let i = 0; i < 2 * pairCount; i++) removed[halfFull[i]!] = 1;
  const keptCount = nodeCount - 2 * pairCount;
  const newCount = keptCount + pairCount;
  const remap = new Int32Array(nodeCount).fill(-1);
  let next = 0;
  for (let node = 0; node < nodeCount; node++) if (!removed[node]) remap[node] = next++;
  const pairOf = (i: number): [number, number] => [halfFull[i]!, halfFull[i + pairCount]!];
  for (let i = 0; i < pairCount; i++) {
    const [a, b] = pairOf(i);
    remap[a] = keptCount + i;
    remap[b] = keptCount + i;
  }

  const newKind = new Uint8Array(4 * newCount).fill(CHILD_EMPTY);
  const newRef = new Int32Array(4 * newCount).fill(-1);
  const newSource = new Int32Array(4 * newCount).fill(-1);
  const newDepth = new Int32Array(newCount);
  for (let node = 0; node < nodeCount; node++) {
    if (removed[node]) continue;
    const to = remap[node]!;
    newDepth[to] = depth[node]!;
    for (let s = 0; s < 4; s++) {
      const from = 4 * node + s;
      newKind[4 * to + s] = kind[from]!;
      newSource[4 * to + s] = source[from]!;
      newRef[4 * to + s] = kind[from] === CHILD_NODE ? remap[ref[from]!]! : ref[from]!;
    }
  }
  const frames = new Float64Array(6 * pairCount);
  const bounds = tree.bounds;
  for (let i = 0; i < pairCount; i++) {
    const [a, b] = pairOf(i);
    const to = keptCount + i;
    newDepth[to] = Math.max(depth[a]!, depth[b]!);
    let minX = Infinity,
      minY = Infinity,
      minZ = Infinity,
      maxX = -Infinity,
      maxY = -Infinity,
      maxZ = -Infinity;
    for (let s = 0; s < 4; s++) {
      const from = s < 2 ? 4 * a + s : 4 * b + s - 2;
      newKind[4 * to + s] = CHILD_LEAF;
      newRef[4 * to + s] = ref[from]!;
      const leaf = source[from]!;
      newSource[4 * to + s] = leaf;
      const o = 6 * leaf;
      minX = Math.min(minX, bounds[o]!);
      minY = Math.min(minY, bounds[o + 1]!);
      minZ = Math.min(minZ, bounds[o + 2]!);
      maxX = Math.max(maxX, bounds[o + 3]!);
      maxY = Math.max(maxY, bounds[o + 4]!);
      maxZ = Math.max(maxZ, bounds[o + 5]!);
    }
    frames.set([minX, minY, minZ, maxX, maxY, maxZ], 6 * i);
  }
  return { nodeCount: newCount, kind: newKind, ref: newRef, source: newSource, depth: newDepth, firstShared: keptCount, sharedFrames: frames };
}
