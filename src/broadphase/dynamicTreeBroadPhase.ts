import { KIND_DYNAMIC, KIND_NONE, KIND_STATIC } from './broadPhase';
import { BroadPhaseBase } from './broadPhaseBase';
import { grown } from './boxTable';
import { DynamicAabbTree } from './dynamicTree';
import { StaleRule } from './pairManager';

export interface DynamicTreeOptions {
  /** Fat-box margin on each side, as a fraction of the box's largest extent. */
  relativeMargin: number;
  /** Fat-box margin added on each side, in world units. */
  absoluteMargin: number;
}

export const DEFAULT_DYNAMIC_TREE_OPTIONS: DynamicTreeOptions = { relativeMargin: 0.25, absoluteMargin: 0 };

/**
 * Dynamic AABB trees, one for static and one for dynamic boxes (so static–static pairs are never even
 * looked at). A box moving within its fat box leaves the tree alone; one leaving it is reinserted with a
 * new fat box, and the tree rebalances on the way. Each step every inserted or updated box queries the
 * trees with its exact box (dynamic boxes both trees, static ones the dynamic tree) and tests the exact
 * boxes of the leaves it reaches; pairs between boxes that did not change are kept by the pair manager.
 */
export class DynamicTreeBroadPhase extends BroadPhaseBase {
  readonly name = 'dynamic-tree';
  private readonly staticTree = new DynamicAabbTree();
  private readonly dynamicTree = new DynamicAabbTree();
  private leaf = new Int32Array(0);
  private readonly options: DynamicTreeOptions;
  private reinserts = 0;
  private readonly stats = { reinserts: 0, visited: 0, candidates: 0, rotations: 0 };

  constructor(options: Partial<DynamicTreeOptions> = {}) {
    super(StaleRule.Dirty);
    this.options = { ...DEFAULT_DYNAMIC_TREE_OPTIONS, ...options };
  }

  protected onInsert(id: number): void {
    this.leaf = grown(this.leaf, this.table.capacity);
    this.leaf[id] = this.addLeaf(id);
  }

  protected onUpdate(id: number): void {
    const tree = this.treeOf(id);
    const b = this.table.boxes;
    const o = 6 * id;
    const leaf = this.leaf[id]!;
    if (tree.contains(leaf, b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!, b[o + 4]!, b[o + 5]!) && !this.tooFat(tree, leaf, id)) return;
    tree.remove(leaf);
    this.leaf[id] = this.addLeaf(id);
    this.reinserts++;
  }

  protected onRemove(id: number): void {
    this.treeOf(id).remove(this.leaf[id]!);
  }

  protected onStep(): void {
    const table = this.table;
    const { boxes, kind } = table;
    const dirty = this.dirty;
    const list = this.dirtyList;
    const pairs = this.pairs;
    let candidates = 0;
    for (let i = 0; i < this.dirtyCount; i++) {
      const id = list[i]!;
      const k = kind[id]!;
      if (k === KIND_NONE) continue;
      const o = 6 * id;
      const lx = boxes[o]!;
      const ly = boxes[o + 1]!;
      const lz = boxes[o + 2]!;
      const hx = boxes[o + 3]!;
      const hy = boxes[o + 4]!;
      const hz = boxes[o + 5]!;
      for (let t = 0; t < 2; t++) {
        if (t === 1 && k === KIND_STATIC) break;
        const tree = t === 0 ? this.dynamicTree : this.staticTree;
        const count = tree.query(lx, ly, lz, hx, hy, hz);
        candidates += count;
        const hits = tree.hits;
        for (let h = 0; h < count; h++) {
          const other = hits[h]!;
          // Both changed: the smaller id's query reports the pair (it reaches the other's tree too).
          if (other === id || (dirty[other] && other < id)) continue;
          const p = 6 * other;
          if (boxes[p]! <= hx && lx <= boxes[p + 3]! && boxes[p + 1]! <= hy && ly <= boxes[p + 4]! && boxes[p + 2]! <= hz && lz <= boxes[p + 5]!)
            pairs.touch(id, other);
        }
      }
    }
    this.stats.reinserts = this.reinserts;
    this.stats.visited = this.dynamicTree.nodesVisited + this.staticTree.nodesVisited;
    this.stats.candidates = candidates;
    this.stats.rotations = this.dynamicTree.rotations + this.staticTree.rotations;
    this.reinserts = 0;
    this.dynamicTree.nodesVisited = this.staticTree.nodesVisited = 0;
    this.dynamicTree.rotations = this.staticTree.rotations = 0;
  }

  private treeOf(id: number): DynamicAabbTree {
    return this.table.kind[id] === KIND_DYNAMIC ? this.dynamicTree : this.staticTree;
  }

  private margin(id: number): number {
    const b = this.table.boxes;
    const o = 6 * id;
    const extent = Math.max(b[o + 3]! - b[o]!, b[o + 4]! - b[o + 1]!, b[o + 5]! - b[o + 2]!);
    return this.options.relativeMargin * extent + this.options.absoluteMargin;
  }

  private addLeaf(id: number): number {
    const b = this.table.boxes;
    const o = 6 * id;
    const m = this.table.kind[id] === KIND_STATIC ? 0 : this.margin(id);
    return this.treeOf(id).insert(id, b[o]! - m, b[o + 1]! - m, b[o + 2]! - m, b[o + 3]! + m, b[o + 4]! + m, b[o + 5]! + m);
  }

  /** A fat box much larger than the box needs (it shrank a lot) is worth replacing. */
  private tooFat(tree: DynamicAabbTree, leaf: number, id: number): boolean {
    const b = this.table.boxes;
    const f = tree.bounds;
    const o = 6 * id;
    const limit = 4 * this.margin(id);
    for (let axis = 0; axis < 3; axis++) {
      if (f[6 * leaf + 3 + axis]! - f[6 * leaf + axis]! - (b[o + 3 + axis]! - b[o + axis]!) > limit) return true;
    }
    return false;
  }

  counters(): Readonly<Record<string, number>> {
    return {
      'dynamic tree height': this.dynamicTree.treeHeight,
      'static tree height': this.staticTree.treeHeight,
      nodes: this.dynamicTree.nodes + this.staticTree.nodes,
      reinserts: this.stats.reinserts,
      rotations: this.stats.rotations,
      'nodes visited': this.stats.visited,
      'leaf candidates': this.stats.candidates,
      'hash look-ups': this.lastLookups,
    };
  }
}
