import type { BinaryBVH } from '../../bvh/binaryBVH';
import {
  BINARY_FLOAT_CODES,
  BINARY_FLOAT_LINK,
  BINARY_FLOAT_NODE_WORDS,
  BINARY_LEAF_START_MASK,
  BINARY_QUANTIZED_LINK_U32,
  BINARY_QUANTIZED_NODE_U16,
} from '../../bvh/binaryLayout';
import { octantOf } from '../../bvh/octantOrder';
import type { RayTriangleKernel } from '../rayTriangle/registry';
import { triangleMasked } from '../walk/maskFilter';
import { MODE_ANY } from './rayTypes';
import { SORT_DISTANCE, SORT_NONE, SORT_SPLIT_AXIS } from './sorting';
import type { StrategyWorkspace } from './strategyWorkspace';
import { EXIT_SLACK } from './traverseQuantized';

/** Slack scale of the factored quantized slab test (same error bound as traverseQuantized's). */
const FACTORED_SLACK = 2 ** -47;

/**
 * One ray through the float binary layout, closest or any hit, with the chosen child order. The ray
 * must be valid and prepared in `rayData`; results and work go to the workspace. `startNode` walks only
 * that subtree (a batch hands over a ray that is alone below a node); rayTMax is then its current hit.
 *
 * Each popped node's own box is tested (the write-up's loop); an inner node's nearer child is visited
 * next without going through the stack, the other one is pushed. A ray with no zero direction
 * component takes the plain min/max slab test; one with a zero component takes the NaN-aware test of
 * traverseQuantized (a ray lying in a face plane counts as inside).
 *
 * Collision filter (workspace.filtering, workspace.filter): the binary layout has no spare bits for a
 * node mask index, so the union of the masks below each node lives beside it, 4 bytes per node
 * (workspace.binaryNodeMasks, built by castRaysWith.ts on the first filtered cast); a node whose union
 * misses the filter is cut before its box is tested, a leaf triangle whose mask misses it is not tested.
 */
export function traverseBinaryFloat(
  binary: BinaryBVH,
  kernel: RayTriangleKernel,
  rayData: Float64Array,
  leafTriangles: Float32Array | null,
  workspace: StrategyWorkspace,
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  rayTMax: number,
  mode: number,
  doubleSided: boolean,
  sorting: number,
  startNode = 0,
): void {
  const nodes = binary.nodes;
  const f32 = nodes.f32;
  const u32 = nodes.floatU32;
  const order = binary.triangleOrder;
  const indices = binary.indices;
  const positions = binary.positions;
  const intersect = kernel.intersect;
  const stack = workspace.binaryStack;
  const filtering = workspace.filtering;
  const filter = workspace.filter;
  const materialIds = workspace.materialIds;
  const materialMasks = workspace.materialMasks;
  const nodeMasks = workspace.binaryNodeMasks;

  const inverseX = 1 / (dx + 0);
  const inverseY = 1 / (dy + 0);
  const inverseZ = 1 / (dz + 0);
  const regular = dx !== 0 && dy !== 0 && dz !== 0;
  const nearX = inverseX >= 0 ? 0 : 3,
    farX = 3 - nearX;
  const nearY = inverseY >= 0 ? 1 : 4,
    farY = 5 - nearY;
  const nearZ = inverseZ >= 0 ? 2 : 5,
    farZ = 7 - nearZ;
  const directionMask = 1 << octantOf(dx, dy, dz);
  const codeShift = sorting === SORT_SPLIT_AXIS ? 8 : 0;

  let tMax = rayTMax;
  let bestTriangle = -1;
  let nodesVisited = 0;
  let trianglesTested = 0;
  let subtreesMasked = 0;
  let trianglesMasked = 0;
  let top = 0;
  let node = startNode;
  if (nodes.nodeCount === 0) top = -1;

  traversal: while (top >= 0) {
    if (filtering && (nodeMasks[node]! & filter) === 0) {
      subtreesMasked++;
      if (top === 0) break;
      node = stack[--top]!;
      continue;
    }
    const b = BINARY_FLOAT_NODE_WORDS * node;
    nodesVisited++;
    let enter: number;
    let exit: number;
    if (regular) {
      enter = Math.max(0, (f32[b + nearX]! - ox) * inverseX, (f32[b + nearY]! - oy) * inverseY, (f32[b + nearZ]! - oz) * inverseZ);
      exit = Math.min((f32[b + farX]! - ox) * inverseX, (f32[b + farY]! - oy) * inverseY, (f32[b + farZ]! - oz) * inverseZ);
    } else {
      enter = 0;
      exit = Infinity;
      let t = (f32[b + nearX]! - ox) * inverseX;
      if (t > enter) enter = t;
      t = (f32[b + nearY]! - oy) * inverseY;
      if (t > enter) enter = t;
      t = (f32[b + nearZ]! - oz) * inverseZ;
      if (t > enter) enter = t;
      t = (f32[b + farX]! - ox) * inverseX;
      if (t < exit) exit = t;
      t = (f32[b + farY]! - oy) * inverseY;
      if (t < exit) exit = t;
      t = (f32[b + farZ]! - oz) * inverseZ;
      if (t < exit) exit = t;
    }
    exit += Math.abs(exit) * EXIT_SLACK;
    if (enter <= exit && enter <= tMax) {
      const link = u32[b + BINARY_FLOAT_LINK]!;
      if (link >= 0x80000000) {
        const first = link & BINARY_LEAF_START_MASK;
        const last = first + ((link >>> 27) & 15);
        for (let k = first; k < last; k++) {
          if (filtering && triangleMasked(materialIds, materialMasks, order[k]!, filter)) {
            trianglesMasked++;
            continue;
          }
          trianglesTested++;
          let hitT: number;
          if (leafTriangles !== null) hitT = intersect(rayData, leafTriangles, 3 * k, 3 * k + 1, 3 * k + 2, tMax, doubleSided);
          else {
            const i3 = 3 * order[k]!;
            hitT = intersect(rayData, positions, indices[i3]!, indices[i3 + 1]!, indices[i3 + 2]!, tMax, doubleSided);
          }
          if (hitT >= 0 && (bestTriangle < 0 || hitT < tMax)) {
            tMax = hitT;
            bestTriangle = order[k]!;
            if (mode === MODE_ANY) break traversal;
          }
        }
      } else {
        let nearChild = link;
        if (sorting !== SORT_NONE) {
          let rightFirst: boolean;
          if (sorting === SORT_DISTANCE) {
            const l = BINARY_FLOAT_NODE_WORDS * link;
            const r = l + BINARY_FLOAT_NODE_WORDS;
            rightFirst =
              (f32[r]! + f32[r + 3]! - f32[l]! - f32[l + 3]!) * dx +
                (f32[r + 1]! + f32[r + 4]! - f32[l + 1]! - f32[l + 4]!) * dy +
                (f32[r + 2]! + f32[r + 5]! - f32[l + 2]! - f32[l + 5]!) * dz <
              0;
          } else {
            rightFirst = ((u32[b + BINARY_FLOAT_CODES]! >>> codeShift) & directionMask) !== 0;
          }
          if (rightFirst) nearChild = link + 1;
        }
        stack[top++] = nearChild === link ? link + 1 : link;
        node = nearChild;
        continue;
      }
    }
    if (top === 0) break;
    node = stack[--top]!;
  }

  workspace.bestT = bestTriangle >= 0 ? tMax : Infinity;
  workspace.bestTriangle = bestTriangle;
  workspace.nodesVisited += nodesVisited;
  workspace.boxesTested += nodesVisited;
  workspace.trianglesTested += trianglesTested;
  workspace.subtreesMasked += subtreesMasked;
  workspace.trianglesMasked += trianglesMasked;
}

/**
 * The same walk over the quantized binary layout. Its single frame makes the factored slab test free of
 * per-node work: a bound q is at distance q·(step·inverse) + (frameMin − origin)·inverse, both factors
 * per ray, so each plane costs one multiply-add; the slack added to exits covers its rounding (see
 * traverseQuantized). Rays with a zero direction component decode the bounds and take the
 * NaN-aware test.
 */
export function traverseBinaryQuantized(
  binary: BinaryBVH,
  kernel: RayTriangleKernel,
  rayData: Float64Array,
  leafTriangles: Float32Array | null,
  workspace: StrategyWorkspace,
  ox: number,
  oy: number,
  oz: number,
  dx: number,
  dy: number,
  dz: number,
  rayTMax: number,
  mode: number,
  doubleSided: boolean,
  sorting: number,
  startNode = 0,
): void {
  const nodes = binary.nodes;
  const u16 = nodes.u16;
  const u32 = nodes.quantizedU32;
  const codes = nodes.codes;
  const order = binary.triangleOrder;
  const indices = binary.indices;
  const positions = binary.positions;
  const intersect = kernel.intersect;
  const stack = workspace.binaryStack;
  const filtering = workspace.filtering;
  const filter = workspace.filter;
  const materialIds = workspace.materialIds;
  const materialMasks = workspace.materialMasks;
  const nodeMasks = workspace.binaryNodeMasks;
  const frame = nodes.frame;
  const minX = frame[0]!,
    minY = frame[1]!,
    minZ = frame[2]!;
  const stepX = frame[3]!,
    stepY = frame[4]!,
    stepZ = frame[5]!;

  const inverseX = 1 / (dx + 0);
  const inverseY = 1 / (dy + 0);
  const inverseZ = 1 / (dz + 0);
  const regular = dx !== 0 && dy !== 0 && dz !== 0;
  const nearX = inverseX >= 0 ? 0 : 3,
    farX = 3 - nearX;
  const nearY = inverseY >= 0 ? 1 : 4,
    farY = 5 - nearY;
  const nearZ = inverseZ >= 0 ? 2 : 5,
    farZ = 7 - nearZ;
  const scaleX = stepX * inverseX,
    scaleY = stepY * inverseY,
    scaleZ = stepZ * inverseZ;
  const offsetX = (minX - ox) * inverseX,
    offsetY = (minY - oy) * inverseY,
    offsetZ = (minZ - oz) * inverseZ;
  const slack = regular
    ? FACTORED_SLACK *
      (65535 * (Math.abs(scaleX) + Math.abs(scaleY) + Math.abs(scaleZ)) +
        Math.abs(offsetX) +
        Math.abs(offsetY) +
        Math.abs(offsetZ) +
        Math.abs(minX * inverseX) +
        Math.abs(minY * inverseY) +
        Math.abs(minZ * inverseZ))
    : 0;
  // Distance sorting compares doubled centres in steps: scale each axis back to world units.
  const weightX = stepX * dx,
    weightY = stepY * dy,
    weightZ = stepZ * dz;
  const directionMask = 1 << octantOf(dx, dy, dz);
  const codeShift = sorting === SORT_SPLIT_AXIS ? 8 : 0;

  let tMax = rayTMax;
  let bestTriangle = -1;
  let nodesVisited = 0;
  let trianglesTested = 0;
  let subtreesMasked = 0;
  let trianglesMasked = 0;
  let top = 0;
  let node = startNode;
  if (nodes.nodeCount === 0) top = -1;

  traversal: while (top >= 0) {
    if (filtering && (nodeMasks[node]! & filter) === 0) {
      subtreesMasked++;
      if (top === 0) break;
      node = stack[--top]!;
      continue;
    }
    const b = BINARY_QUANTIZED_NODE_U16 * node;
    nodesVisited++;
    let enter: number;
    let exit: number;
    if (regular) {
      enter = Math.max(0, u16[b + nearX]! * scaleX + offsetX, u16[b + nearY]! * scaleY + offsetY, u16[b + nearZ]! * scaleZ + offsetZ);
      exit = Math.min(u16[b + farX]! * scaleX + offsetX, u16[b + farY]! * scaleY + offsetY, u16[b + farZ]! * scaleZ + offsetZ) + slack;
    } else {
      enter = 0;
      exit = Infinity;
      let t = (minX + u16[b + nearX]! * stepX - ox) * inverseX;
      if (t > enter) enter = t;
      t = (minY + u16[b + nearY]! * stepY - oy) * inverseY;
      if (t > enter) enter = t;
      t = (minZ + u16[b + nearZ]! * stepZ - oz) * inverseZ;
      if (t > enter) enter = t;
      t = (minX + u16[b + farX]! * stepX - ox) * inverseX;
      if (t < exit) exit = t;
      t = (minY + u16[b + farY]! * stepY - oy) * inverseY;
      if (t < exit) exit = t;
      t = (minZ + u16[b + farZ]! * stepZ - oz) * inverseZ;
      if (t < exit) exit = t;
      exit += Math.abs(exit) * EXIT_SLACK;
    }
    if (enter <= exit && enter <= tMax) {
      const link = u32[4 * node + BINARY_QUANTIZED_LINK_U32]!;
      if (link >= 0x80000000) {
        const first = link & BINARY_LEAF_START_MASK;
        const last = first + ((link >>> 27) & 15);
        for (let k = first; k < last; k++) {
          if (filtering && triangleMasked(materialIds, materialMasks, order[k]!, filter)) {
            trianglesMasked++;
            continue;
          }
          trianglesTested++;
          let hitT: number;
          if (leafTriangles !== null) hitT = intersect(rayData, leafTriangles, 3 * k, 3 * k + 1, 3 * k + 2, tMax, doubleSided);
          else {
            const i3 = 3 * order[k]!;
            hitT = intersect(rayData, positions, indices[i3]!, indices[i3 + 1]!, indices[i3 + 2]!, tMax, doubleSided);
          }
          if (hitT >= 0 && (bestTriangle < 0 || hitT < tMax)) {
            tMax = hitT;
            bestTriangle = order[k]!;
            if (mode === MODE_ANY) break traversal;
          }
        }
      } else {
        let nearChild = link;
        if (sorting !== SORT_NONE) {
          let rightFirst: boolean;
          if (sorting === SORT_DISTANCE) {
            const l = BINARY_QUANTIZED_NODE_U16 * link;
            const r = l + BINARY_QUANTIZED_NODE_U16;
            rightFirst =
              (u16[r]! + u16[r + 3]! - u16[l]! - u16[l + 3]!) * weightX +
                (u16[r + 1]! + u16[r + 4]! - u16[l + 1]! - u16[l + 4]!) * weightY +
                (u16[r + 2]! + u16[r + 5]! - u16[l + 2]! - u16[l + 5]!) * weightZ <
              0;
          } else {
            rightFirst = ((codes[node]! >>> codeShift) & directionMask) !== 0;
          }
          if (rightFirst) nearChild = link + 1;
        }
        stack[top++] = nearChild === link ? link + 1 : link;
        node = nearChild;
        continue;
      }
    }
    if (top === 0) break;
    node = stack[--top]!;
  }

  workspace.bestT = bestTriangle >= 0 ? tMax : Infinity;
  workspace.bestTriangle = bestTriangle;
  workspace.nodesVisited += nodesVisited;
  workspace.boxesTested += nodesVisited;
  workspace.trianglesTested += trianglesTested;
  workspace.subtreesMasked += subtreesMasked;
  workspace.trianglesMasked += trianglesMasked;
}
