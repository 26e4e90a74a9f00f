import { grown } from './boxTable';

const NULL = -1;

/**
 * A dynamic AABB tree (binary, in the manner of Box2D's b2DynamicTree) over "fat" boxes: leaves hold
 * boxes enlarged by a margin, so a box moving a little stays inside its leaf and the tree is untouched.
 * Insertion descends by the surface-area cost of the new parent plus the growth it causes above;
 * after every insert and remove the ancestors are rebalanced by AVL-style rotations (a child more than
 * one level taller than its sibling is rotated up), which keeps the height logarithmic incrementally.
 *
 * Nodes are structure of arrays: six float64 bounds, parent, two children, height (0 for leaves, −1 for
 * free nodes) and the object id of leaves. Free nodes are chained through `parent`.
 */
export class DynamicAabbTree {
  root = NULL;
  bounds = new Float64Array(6 * 16);
  parent = new Int32Array(16);
  child1 = new Int32Array(16);
  child2 = new Int32Array(16);
  height = new Int32Array(16);
  object = new Int32Array(16);
  private freeList = NULL;
  private nodeCount = 0;
  private capacity = 0;
  private stack = new Int32Array(64);
  /** Leaves (object ids) found by the last query. */
  hits = new Int32Array(64);
  hitCount = 0;
  nodesVisited = 0;
  rotations = 0;

  constructor() {
    this.allocateFrom(0, 16);
  }

  get treeHeight(): number {
    return this.root === NULL ? 0 : this.height[this.root]!;
  }

  get nodes(): number {
    return this.nodeCount;
  }

  /** Adds a leaf for `object` with the given (fat) box; returns the leaf node. */
  insert(object: number, minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number {
    const leaf = this.allocate();
    const b = this.bounds;
    b[6 * leaf] = minX;
    b[6 * leaf + 1] = minY;
    b[6 * leaf + 2] = minZ;
    b[6 * leaf + 3] = maxX;
    b[6 * leaf + 4] = maxY;
    b[6 * leaf + 5] = maxZ;
    this.height[leaf] = 0;
    this.object[leaf] = object;
    this.insertLeaf(leaf);
    return leaf;
  }

  remove(leaf: number): void {
    this.removeLeaf(leaf);
    this.release(leaf);
  }

  /** Object ids of the leaves whose fat box overlaps the closed query box, into `hits`. */
  query(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): number {
    this.hitCount = 0;
    if (this.root === NULL) return 0;
    const b = this.bounds;
    const child1 = this.child1;
    const child2 = this.child2;
    const height = this.height;
    let stack = this.stack;
    let top = 0;
    stack[top++] = this.root;
    let visited = 0;
    while (top > 0) {
      const node = stack[--top]!;
      visited++;
      const o = 6 * node;
      if (b[o]! > maxX || b[o + 3]! < minX || b[o + 1]! > maxY || b[o + 4]! < minY || b[o + 2]! > maxZ || b[o + 5]! < minZ) continue;
      if (height[node] === 0) {
        if (this.hitCount === this.hits.length) this.hits = grown(this.hits, this.hitCount + 1);
        this.hits[this.hitCount++] = this.object[node]!;
        continue;
      }
      if (top + 2 > stack.length) stack = this.stack = grown(stack, top + 2);
      stack[top++] = child1[node]!;
      stack[top++] = child2[node]!;
    }
    this.nodesVisited += visited;
    return this.hitCount;
  }

  /** Whether the closed box lies inside the leaf's fat box. */
  contains(leaf: number, minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number): boolean {
    const b = this.bounds;
    const o = 6 * leaf;
    return b[o]! <= minX && b[o + 1]! <= minY && b[o + 2]! <= minZ && b[o + 3]! >= maxX && b[o + 4]! >= maxY && b[o + 5]! >= maxZ;
  }

  private insertLeaf(leaf: number): void {
    if (this.root === NULL) {
      this.root = leaf;
      this.parent[leaf] = NULL;
      return;
    }
    const b = this.bounds;
    const lo = 6 * leaf;
    const lx = b[lo]!;
    const ly = b[lo + 1]!;
    const lz = b[lo + 2]!;
    const hx = b[lo + 3]!;
    const hy = b[lo + 4]!;
    const hz = b[lo + 5]!;
    let index = this.root;
    while (this.height[index]! > 0) {
      const c1 = this.child1[index]!;
      const c2 = this.child2[index]!;
      const area = this.area(index);
      const combined = this.unionArea(index, lx, ly, lz, hx, hy, hz);
      // Making a new parent here costs its area; going down costs the growth of this node anyway.
      const cost = 2 * combined;
      const inheritance = 2 * (combined - area);
      const cost1 = this.descentCost(c1, lx, ly, lz, hx, hy, hz) + inheritance;
      const cost2 = this.descentCost(c2, lx, ly, lz, hx, hy, hz) + inheritance;
      if (cost < cost1 && cost < cost2) break;
      index = cost1 < cost2 ? c1 : c2;
    }
    const sibling = index;
    const oldParent = this.parent[sibling]!;
    const newParent = this.allocate();
    this.parent[newParent] = oldParent;
    this.object[newParent] = NULL;
    this.unionInto(newParent, sibling, leaf);
    this.height[newParent] = this.height[sibling]! + 1;
    if (oldParent !== NULL) {
      if (this.child1[oldParent] === sibling) this.child1[oldParent] = newParent;
      else this.child2[oldParent] = newParent;
    } else {
      this.root = newParent;
    }
    this.child1[newParent] = sibling;
    this.child2[newParent] = leaf;
    this.parent[sibling] = newParent;
    this.parent[leaf] = newParent;
    this.refitUpwards(this.parent[leaf]);
  }

  private removeLeaf(leaf: number): void {
    if (leaf === this.root) {
      this.root = NULL;
      return;
    }
    const parent = this.parent[leaf]!;
    const grandParent = this.parent[parent]!;
    const sibling = this.child1[parent] === leaf ? this.child2[parent]! : this.child1[parent]!;
    if (grandParent !== NULL) {
      if (this.child1[grandParent] === parent) this.child1[grandParent] = sibling;
      else this.child2[grandParent] = sibling;
      this.parent[sibling] = grandParent;
      this.release(parent);
      this.refitUpwards(grandParent);
    } else {
      this.root = sibling;
      this.parent[sibling] = NULL;
      this.release(parent);
    }
  }

  /** Rebalances and refits every ancestor from `start` to the root. */
  private refitUpwards(start: number): void {
    let index = start;
    while (index !== NULL) {
      index = this.balance(index);
      const c1 = this.child1[index]!;
      const c2 = this.child2[index]!;
      this.height[index] = 1 + Math.max(this.height[c1]!, this.height[c2]!);
      this.unionInto(index, c1, c2);
      index = this.parent[index]!;
    }
  }

  /** If one child of `a` is more than one level taller than the other, rotates it up; returns the subtree's new root. */
  private balance(a: number): number {
    const height = this.height;
    if (height[a]! < 2) return a;
    const b = this.child1[a]!;
    const c = this.child2[a]!;
    const skew = height[c]! - height[b]!;
    if (skew > 1) return this.rotateUp(a, c, b, 2);
    if (skew < -1) return this.rotateUp(a, b, c, 1);
    return a;
  }

  /**
   * Rotates `up` (a child of `a`, on side `upSide`) above `a`: `up` keeps its taller child, and `a` takes
   * `up`'s shorter child in `up`'s place beside `other`.
   */
  private rotateUp(a: number, up: number, other: number, upSide: 1 | 2): number {
    this.rotations++;
    const height = this.height;
    const f = this.child1[up]!;
    const g = this.child2[up]!;
    const aParent = this.parent[a]!;
    this.child1[up] = a;
    this.parent[up] = aParent;
    this.parent[a] = up;
    if (aParent !== NULL) {
      if (this.child1[aParent] === a) this.child1[aParent] = up;
      else this.child2[aParent] = up;
    } else {
      this.root = up;
    }
    const taller = height[f]! > height[g]! ? f : g;
    const shorter = taller === f ? g : f;
    this.child2[up] = taller;
    if (upSide === 2) this.child2[a] = shorter;
    else this.child1[a] = shorter;
    this.parent[shorter] = a;
    this.unionInto(a, other, shorter);
    this.unionInto(up, a, taller);
    height[a] = 1 + Math.max(height[other]!, height[shorter]!);
    height[up] = 1 + Math.max(height[a], height[taller]!);
    return up;
  }

  private area(node: number): number {
    const b = this.bounds;
    const o = 6 * node;
    const dx = b[o + 3]! - b[o]!;
    const dy = b[o + 4]! - b[o + 1]!;
    const dz = b[o + 5]! - b[o + 2]!;
    return dx * dy + dy * dz + dz * dx;
  }

  private unionArea(node: number, lx: number, ly: number, lz: number, hx: number, hy: number, hz: number): number {
    const b = this.bounds;
    const o = 6 * node;
    const dx = Math.max(b[o + 3]!, hx) - Math.min(b[o]!, lx);
    const dy = Math.max(b[o + 4]!, hy) - Math.min(b[o + 1]!, ly);
    const dz = Math.max(b[o + 5]!, hz) - Math.min(b[o + 2]!, lz);
    return dx * dy + dy * dz + dz * dx;
  }

  /** Cost of putting the leaf under `child`: the union's area for a leaf (a new parent), its growth otherwise. */
  private descentCost(child: number, lx: number, ly: number, lz: number, hx: number, hy: number, hz: number): number {
    const union = this.unionArea(child, lx, ly, lz, hx, hy, hz);
    return this.height[child] === 0 ? union : union - this.area(child);
  }

  private unionInto(target: number, p: number, q: number): void {
    const b = this.bounds;
    const t = 6 * target;
    const a = 6 * p;
    const c = 6 * q;
    b[t] = Math.min(b[a]!, b[c]!);
    b[t + 1] = Math.min(b[a + 1]!, b[c + 1]!);
    b[t + 2] = Math.min(b[a + 2]!, b[c + 2]!);
    b[t + 3] = Math.max(b[a + 3]!, b[c + 3]!);
    b[t + 4] = Math.max(b[a + 4]!, b[c + 4]!);
    b[t + 5] = Math.max(b[a + 5]!, b[c + 5]!);
  }

  private allocate(): number {
    if (this.freeList === NULL) {
      const old = this.capacity;
      const capacity = old * 2;
      this.bounds = grown(this.bounds, 6 * capacity);
      this.parent = grown(this.parent, capacity);
      this.child1 = grown(this.child1, capacity);
      this.child2 = grown(this.child2, capacity);
      this.height = grown(this.height, capacity);
      this.object = grown(this.object, capacity);
      this.allocateFrom(old, capacity);
    }
    const node = this.freeList;
    this.freeList = this.parent[node]!;
    this.parent[node] = NULL;
    this.child1[node] = NULL;
    this.child2[node] = NULL;
    this.height[node] = 0;
    this.nodeCount++;
    return node;
  }

  private release(node: number): void {
    this.parent[node] = this.freeList;
    this.height[node] = -1;
    this.freeList = node;
    this.nodeCount--;
  }

  /** Chains nodes [from, to) onto the free list. */
  private allocateFrom(from: number, to: number): void {
    for (let i = from; i < to; i++) {
      this.parent[i] = i + 1 < to ? i + 1 : this.freeList;
      this.height[i] = -1;
    }
    this.freeList = from;
    this.capacity = to;
  }
}
