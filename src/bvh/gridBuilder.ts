import { growInt32, type BuildTree } from './buildTree';
import { CHILD_EMPTY, CHILD_LEAF, CHILD_NODE, type WideTree } from './wideTree';

/**
 * The binary tree of a heightfield grid, built by halving its cell rectangle: a regular terrain needs
 * no search for splits, its grid already is one. Each node halves the longer side of its rectangle of
 * cells; a rectangle of at most `maxLeafSize` / 2 cells (two triangles each) is a leaf. Boxes are the
 * exact bounds of the leaves' vertices, unions above. The 4-way collapse then pairs two levels of
 * halving into quadrants. One pass over the vertices, no sorting: linear in the triangle count.
 *
 * The tree's shape depends on the cell count and leaf size alone, never on the heights, so the last
 * shape is kept and a terrain of the same size (every step of a seed or height slider) only computes
 * boxes. The shape's arrays are shared by the trees built on it and must not be written to.
 *
 * The mesh must be the grid generateTerrain lays out: `cells`² cells in rows of `cells`, cell k's two
 * triangles 2k and 2k + 1 over vertices (col, row), (col + 1, row), (col, row + 1), (col + 1, row + 1)
 * of a (cells + 1)² vertex grid. gridCellsOf says whether a mesh is one.
 */
export function buildGridTree(positions: Float32Array, triangleCount: number, cells: number, maxLeafSize: number): BuildTree {
  const shape = gridShape(cells, Math.max(1, Math.floor(maxLeafSize / 2)));
  return {
    nodeCount: shape.nodeCount,
    bounds: gridBounds(shape, positions),
    left: shape.left,
    right: shape.right,
    leafStart: shape.leafStart,
    leafCount: shape.leafCount,
    leavesBelow: shape.leavesBelow,
    triangleOrder: shape.triangleOrder,
    referenceCount: triangleCount,
    triangleCount,
    spatialSplitCount: 0,
  };
}

/** A grid tree's shape: everything but the boxes. */
interface GridShape {
  readonly cells: number;
  readonly leafCells: number;
  readonly nodeCount: number;
  readonly left: Int32Array;
  readonly right: Int32Array;
  readonly leafStart: Int32Array;
  readonly leafCount: Int32Array;
  readonly leavesBelow: Int32Array;
  readonly parents: Int32Array;
  readonly triangleOrder: Uint32Array;
  /** Each node's rectangle of cells: col0, col1, row0, row1 (the leaves' say which vertices bound them). */
  readonly rects: Int32Array;
  /** Its 4-way collapse, made on first demand. */
  wide: WideTree | null;
}

let lastShape: GridShape | null = null;
/** The shape used before the last, of another size: a few small terrains in between (a worker warming up) do not cost the big one its shape. */
let previousShape: GridShape | null = null;

const shapeFits = (shape: GridShape | null, cells: number, leafCells: number): shape is GridShape =>
  shape !== null && shape.cells === cells && shape.leafCells === leafCells && shape.triangleOrder.byteLength === 4 * 2 * cells * cells;

/** The shape for this size: one of the last two again when it matches (and no caller has transferred its arrays away). */
function gridShape(cells: number, leafCells: number): GridShape {
  if (shapeFits(lastShape, cells, leafCells)) return lastShape;
  const shape = shapeFits(previousShape, cells, leafCells) ? previousShape : makeGridShape(cells, leafCells);
  previousShape = lastShape;
  lastShape = shape;
  return shape;
}

function makeGridShape(cells: number, leafCells: number): GridShape {
  const triangleCount = 2 * cells * cells;
  // Leaves hold about leafCells / 2 cells or more, and a binary tree has one node less than twice its
  // leaves; the arrays grow should a grid halve into smaller leaves.
  let nodeCapacity = 2 * Math.ceil((cells * cells) / Math.max(1, leafCells >> 1)) + 1;
  let left = new Int32Array(nodeCapacity);
  let right = new Int32Array(nodeCapacity);
  let leafStart = new Int32Array(nodeCapacity);
  let leafCount = new Int32Array(nodeCapacity);
  let leavesBelow = new Int32Array(nodeCapacity);
  let parents = new Int32Array(nodeCapacity);
  let rects = new Int32Array(4 * nodeCapacity);
  const triangleOrder = new Uint32Array(triangleCount);

  // Depth-first, preorder ids; a node's rectangle [col0, col1) × [row0, row1) and its parent on a stack.
  const stackRect = new Int32Array(4 * 64);
  const stackParent = new Int32Array(64);
  const stackSide = new Uint8Array(64);
  stackRect[1] = cells;
  stackRect[3] = cells;
  stackParent[0] = -1;
  let top = 1;
  let nodeCount = 0;
  let nextReference = 0;
  while (top > 0) {
    top--;
    const col0 = stackRect[4 * top]!,
      col1 = stackRect[4 * top + 1]!,
      row0 = stackRect[4 * top + 2]!,
      row1 = stackRect[4 * top + 3]!;
    const parent = stackParent[top]!;
    const node = nodeCount++;
    if (node >= nodeCapacity) {
      nodeCapacity *= 2;
      left = growInt32(left, nodeCapacity);
      right = growInt32(right, nodeCapacity);
      leafStart = growInt32(leafStart, nodeCapacity);
      leafCount = growInt32(leafCount, nodeCapacity);
      leavesBelow = growInt32(leavesBelow, nodeCapacity);
      parents = growInt32(parents, nodeCapacity);
      rects = growInt32(rects, 4 * nodeCapacity);
    }
    parents[node] = parent;
    rects[4 * node] = col0;
    rects[4 * node + 1] = col1;
    rects[4 * node + 2] = row0;
    rects[4 * node + 3] = row1;
    if (parent >= 0) {
      if (stackSide[top] === 0) left[parent] = node;
      else right[parent] = node;
    }
    const width = col1 - col0;
    const depth = row1 - row0;
    if (width * depth <= leafCells) {
      left[node] = -1;
      right[node] = -1;
      leafStart[node] = nextReference;
      leafCount[node] = 2 * width * depth;
      leavesBelow[node] = 1;
      for (let row = row0; row < row1; row++) {
        for (let col = col0; col < col1; col++) {
          const cell = row * cells + col;
          triangleOrder[nextReference++] = 2 * cell;
          triangleOrder[nextReference++] = 2 * cell + 1;
        }
      }
      continue;
    }
    const splitCols = width >= depth;
    const middle = splitCols ? col0 + (width >> 1) : row0 + (depth >> 1);
    // The second half (right of or below the middle) first, so the first is popped next.
    const second = 4 * top;
    stackRect[second] = splitCols ? middle : col0;
    stackRect[second + 1] = col1;
    stackRect[second + 2] = splitCols ? row0 : middle;
    stackRect[second + 3] = row1;
    stackParent[top] = node;
    stackSide[top] = 1;
    const first = second + 4;
    stackRect[first] = col0;
    stackRect[first + 1] = splitCols ? middle : col1;
    stackRect[first + 2] = row0;
    stackRect[first + 3] = splitCols ? row1 : middle;
    stackParent[top + 1] = node;
    stackSide[top + 1] = 0;
    top += 2;
  }
  // Leaf counts bottom-up: children have larger ids than their parents.
  for (let node = nodeCount - 1; node > 0; node--) leavesBelow[parents[node]!]! += leavesBelow[node]!;
  return {
    cells,
    leafCells,
    nodeCount,
    left: left.slice(0, nodeCount),
    right: right.slice(0, nodeCount),
    leafStart: leafStart.slice(0, nodeCount),
    leafCount: leafCount.slice(0, nodeCount),
    leavesBelow: leavesBelow.slice(0, nodeCount),
    parents: parents.slice(0, nodeCount),
    triangleOrder,
    rects: rects.slice(0, 4 * nodeCount),
    wide: null,
  };
}

/** Every node's box over `positions`: the exact bounds of a leaf's vertices, unions above. */
function gridBounds(shape: GridShape, positions: Float32Array): Float64Array {
  const { nodeCount, left, parents, rects, cells } = shape;
  const side = cells + 1;
  const bounds = new Float64Array(6 * nodeCount);
  for (let node = 0; node < nodeCount; node++) {
    const o = 6 * node;
    if (left[node]! >= 0) {
      bounds[o] = bounds[o + 1] = bounds[o + 2] = Infinity;
      bounds[o + 3] = bounds[o + 4] = bounds[o + 5] = -Infinity;
      continue;
    }
    const col0 = rects[4 * node]!,
      col1 = rects[4 * node + 1]!,
      row0 = rects[4 * node + 2]!,
      row1 = rects[4 * node + 3]!;
    let minX = Infinity,
      minY = Infinity,
      minZ = Infinity,
      maxX = -Infinity,
      maxY = -Infinity,
      maxZ = -Infinity;
    for (let row = row0; row <= row1; row++) {
      for (let col = col0; col <= col1; col++) {
        const v = 3 * (row * side + col);
        const x = positions[v]!,
          y = positions[v + 1]!,
          z = positions[v + 2]!;
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
        if (z < minZ) minZ = z;
        if (z > maxZ) maxZ = z;
      }
    }
    bounds[o] = minX;
    bounds[o + 1] = minY;
    bounds[o + 2] = minZ;
    bounds[o + 3] = maxX;
    bounds[o + 4] = maxY;
    bounds[o + 5] = maxZ;
  }
  // Unions bottom-up: children have larger ids than their parents.
  for (let node = nodeCount - 1; node > 0; node--) {
    const o = 6 * node;
    const p = 6 * parents[node]!;
    for (let k = 0; k < 3; k++) {
      if (bounds[o + k]! < bounds[p + k]!) bounds[p + k] = bounds[o + k]!;
      if (bounds[o + k + 3]! > bounds[p + k + 3]!) bounds[p + k + 3] = bounds[o + k + 3]!;
    }
  }
  return bounds;
}

/**
 * The cells per side when the mesh is generateTerrain's grid (see buildGridTree), else 0. Checks
 * every triangle's corners: a mesh that only looks like a grid by its counts is not taken for one.
 */
export function gridCellsOf(positions: Float32Array, indices: Uint32Array): number {
  const triangleCount = indices.length / 3;
  const cells = Math.round(Math.sqrt(triangleCount / 2));
  if (cells < 1 || 2 * cells * cells !== triangleCount || positions.length !== 3 * (cells + 1) * (cells + 1)) return 0;
  const side = cells + 1;
  for (let row = 0, t = 0; row < cells; row++) {
    for (let col = 0; col < cells; col++, t += 6) {
      const a = row * side + col;
      const c = a + side;
      if (indices[t] !== a || indices[t + 1] !== c || indices[t + 2] !== a + 1) return 0;
      if (indices[t + 3] !== a + 1 || indices[t + 4] !== c || indices[t + 5] !== c + 1) return 0;
    }
  }
  return cells;
}

/**
 * The 4-way tree of a grid's binary tree: every wide node opens both halves of its binary node into
 * their halves, the four quadrants of its rectangle (a half that is a leaf stays one slot). The
 * general collapse (collapse.ts) searches five ways of opening per node to price uneven SAH splits;
 * halving a grid has none, so its answer is the quadrants anyway, found here in one pass.
 */
export function collapseGridTree(tree: BuildTree): WideTree {
  // The collapse reads the shape alone: a tree on the kept shape reuses its collapse.
  const shape = lastShape;
  if (shape !== null && shape.left === tree.left) return (shape.wide ??= collapseGridShape(tree));
  return collapseGridShape(tree);
}

function collapseGridShape(tree: BuildTree): WideTree {
  const { left, right } = tree;
  // At most one wide node per two binary nodes, plus the root.
  const capacity = Math.max(1, (tree.nodeCount >> 1) + 1);
  const kind = new Uint8Array(4 * capacity).fill(CHILD_EMPTY);
  const ref = new Int32Array(4 * capacity).fill(-1);
  const source = new Int32Array(4 * capacity).fill(-1);
  const depth = new Int32Array(capacity);
  if (tree.nodeCount === 0) return { nodeCount: 0, kind, ref, source, depth, firstShared: 0, sharedFrames: new Float64Array(0) };
  // Pending (binary node, wide node) pairs, depth first; the deepest grid needs a few dozen.
  const stack = new Int32Array(2 * 256);
  stack[0] = 0;
  stack[1] = 0;
  let top = 1;
  let nodeCount = 1;
  const slots = new Int32Array(4);
  while (top > 0) {
    top--;
    const binary = stack[2 * top]!;
    const wide = stack[2 * top + 1]!;
    let count = 0;
    const l = left[binary]!;
    if (l < 0) slots[count++] = binary;
    else {
      const r = right[binary]!;
      if (left[l]! >= 0) {
        slots[count++] = left[l]!;
        slots[count++] = right[l]!;
      } else slots[count++] = l;
      if (left[r]! >= 0) {
        slots[count++] = left[r]!;
        slots[count++] = right[r]!;
      } else slots[count++] = r;
    }
    // Children numbered in slot order, their subtrees depth first from the first slot.
    let firstChild = nodeCount;
    for (let s = 0; s < count; s++) {
      const child = slots[s]!;
      const o = 4 * wide + s;
      source[o] = child;
      if (left[child]! >= 0) {
        kind[o] = CHILD_NODE;
        ref[o] = firstChild;
        depth[firstChild] = depth[wide]! + 1;
        firstChild++;
      } else {
        kind[o] = CHILD_LEAF;
        ref[o] = child;
      }
    }
    nodeCount = firstChild;
    for (let s = count - 1; s >= 0; s--) {
      const o = 4 * wide + s;
      if (kind[o] !== CHILD_NODE) continue;
      stack[2 * top] = source[o]!;
      stack[2 * top + 1] = ref[o]!;
      top++;
    }
  }
  return {
    nodeCount,
    kind: kind.slice(0, 4 * nodeCount),
    ref: ref.slice(0, 4 * nodeCount),
    source: source.slice(0, 4 * nodeCount),
    depth: depth.slice(0, nodeCount),
    firstShared: nodeCount,
    sharedFrames: new Float64Array(0),
  };
}
