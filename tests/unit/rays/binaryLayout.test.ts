import { describe, expect, it } from 'vitest';
import { buildBVH } from '../../../src/bvh/index';
import { Random } from '../../../src/math/random';
import {
  BatchCounters,
  BatchStack,
  VOTE_NONE,
  binaryBVHFor,
  buildBinaryBVH,
  octantOf,
  octantPermutationsFor,
  packLeafTriangles,
  walkBinaryFloat,
  walkBinaryQuantized,
  walkWideFloat,
  walkWideQuantized,
  type BatchItems,
  type BinaryBVH,
} from '../../../src/query/rays/strategies';
import { generateTerrain } from '../../../src/terrain/index';
import { crossedSlivers, stackedDuplicates, triangleSoup } from '../bvh/meshes';

const LEAF = 0x80000000;

/** Box of node n in the float (f32) or decoded quantized layout. */
function nodeBox(binary: BinaryBVH, n: number, quantized: boolean): number[] {
  const nodes = binary.nodes;
  if (!quantized) return Array.from(nodes.f32.subarray(8 * n, 8 * n + 6));
  const f = nodes.frame;
  return [0, 1, 2, 3, 4, 5].map((k) => f[k % 3]! + nodes.u16[8 * n + k]! * f[3 + (k % 3)]!);
}

const contains = (outer: number[], inner: number[]): boolean => [0, 1, 2].every((k) => outer[k]! <= inner[k]! && outer[k + 3]! >= inner[k + 3]!);

describe('binary layout', () => {
  const meshes = () => [generateTerrain({ cells: 20, seed: 3 }), triangleSoup(31, 300), crossedSlivers(32, 200), stackedDuplicates(25)];

  it('every node contains its children, leaves contain their triangles and name every reference exactly once', () => {
    for (const mesh of meshes()) {
      for (const options of [{}, { maxLeafSize: 1 }, { spatialOverlapThreshold: 0 }]) {
        const binary = buildBinaryBVH(mesh.positions, mesh.indices, options);
        const { nodes, triangleOrder } = binary;
        const seen = new Uint8Array(triangleOrder.length);
        let depthSeen = 0;
        const stack: [number, number][] = [[0, 0]];
        while (stack.length > 0) {
          const [n, depth] = stack.pop()!;
          depthSeen = Math.max(depthSeen, depth);
          const link = nodes.floatU32[8 * n + 6]!;
          expect(nodes.quantizedU32[4 * n + 3]).toBe(link);
          for (const quantized of [false, true]) {
            const box = nodeBox(binary, n, quantized);
            if (link >= LEAF) {
              const start = link & 0x7ffffff;
              const count = (link >>> 27) & 15;
              for (let k = start; k < start + count; k++) {
                const tri = triangleOrder[k]!;
                for (let c = 0; c < 3; c++) {
                  const v = 3 * mesh.indices[3 * tri + c]!;
                  const p = [mesh.positions[v]!, mesh.positions[v + 1]!, mesh.positions[v + 2]!];
                  // Spatial splits clip a reference's box, so only unsplit meshes must hold whole triangles.
                  if (triangleOrder.length === mesh.indices.length / 3) expect(contains(box, [...p, ...p])).toBe(true);
                }
              }
            } else {
              expect(link % 2).toBe(0);
              expect(contains(box, nodeBox(binary, link, quantized))).toBe(true);
              expect(contains(box, nodeBox(binary, link + 1, quantized))).toBe(true);
            }
          }
          if (link >= LEAF) {
            const start = link & 0x7ffffff;
            for (let k = start; k < start + ((link >>> 27) & 15); k++) seen[k]!++;
          } else stack.push([link, depth + 1], [link + 1, depth + 1]);
        }
        expect(seen.every((v) => v === 1)).toBe(true);
        expect(depthSeen).toBe(nodes.maxDepth);
      }
    }
  });

  it('is built from the same binary tree as the 4-way BVH (same leaf order)', () => {
    const mesh = generateTerrain({ cells: 30, seed: 5 });
    const bvh = buildBVH(mesh.positions, mesh.indices);
    expect(Array.from(binaryBVHFor(bvh).triangleOrder)).toEqual(Array.from(bvh.triangleOrder!));
    expect(binaryBVHFor(bvh)).toBe(binaryBVHFor(bvh));
  });

  it('precomputed codes: bit o says whether the right child centre is nearer along the octant diagonal', () => {
    const mesh = triangleSoup(33, 400);
    const binary = buildBinaryBVH(mesh.positions, mesh.indices);
    const { nodes } = binary;
    let checked = 0;
    let agree = 0;
    for (let n = 0; n < nodes.nodeCount; n++) {
      const link = nodes.floatU32[8 * n + 6]!;
      if (n === 1 || link >= LEAF) continue;
      expect(nodes.floatU32[8 * n + 7]).toBe(nodes.codes[n]);
      const l = nodeBox(binary, link, false);
      const r = nodeBox(binary, link + 1, false);
      for (let octant = 0; octant < 8; octant++) {
        const s = [octant & 4 ? -1 : 1, octant & 2 ? -1 : 1, octant & 1 ? -1 : 1];
        const along = [0, 1, 2].reduce((sum, k) => sum + s[k]! * (r[k]! + r[k + 3]! - l[k]! - l[k + 3]!), 0);
        checked++;
        // float32 rounding of the stored boxes can flip a near-tie; the codes come from the float64 tree.
        if (((nodes.codes[n]! >> octant) & 1) === (along < 0 ? 1 : 0)) agree++;
      }
    }
    expect(checked).toBeGreaterThan(400);
    expect(agree / checked).toBeGreaterThan(0.999);
    expect(octantOf(1, 1, 1)).toBe(0);
    expect(octantOf(-1, 1, 1)).toBe(4);
    expect(octantOf(1, -1, 1)).toBe(2);
    expect(octantOf(1, 1, -1)).toBe(1);
    expect(octantOf(-0, 0, -0)).toBe(0);
  });

  it('4-way permutations: each is a permutation of the four slots with empty slots last', () => {
    const mesh = generateTerrain({ cells: 20, seed: 6 });
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const permutations = octantPermutationsFor(bvh);
    const nodes = bvh.quantized!;
    expect(permutations.length).toBe(8 * nodes.nodeCount);
    for (let n = 0; n < nodes.nodeCount; n++) {
      for (let octant = 0; octant < 8; octant++) {
        const p = permutations[8 * n + octant]!;
        const order = [0, 2, 4, 6].map((i) => (p >> i) & 3);
        expect([...order].sort()).toEqual([0, 1, 2, 3]);
        const empty = order.map((s) => ((nodes.u32[16 * n + 12 + s]! >>> 24) & 15) === 1);
        const firstEmpty = empty.indexOf(true);
        if (firstEmpty >= 0) expect(empty.slice(firstEmpty).every(Boolean)).toBe(true);
      }
    }
  });

  it('packed leaf triangles repeat the mesh corners in leaf order', () => {
    const mesh = crossedSlivers(34, 50);
    const order = new Uint32Array([3, 1, 1, 49]);
    const packed = packLeafTriangles(mesh.positions, mesh.indices, order);
    for (let k = 0; k < order.length; k++) {
      for (let c = 0; c < 3; c++) {
        const v = 3 * mesh.indices[3 * order[k]! + c]!;
        expect(Array.from(packed.subarray(9 * k + 3 * c, 9 * k + 3 * c + 3))).toEqual(Array.from(mesh.positions.subarray(v, v + 3)));
      }
    }
  });
});

/**
 * The batched walk is generic over its items: here the items are query boxes and a leaf reports the
 * references whose triangle boxes overlap them, the shape a box-overlap query will take.
 */
class BoxOverlapItems implements BatchItems {
  readonly active: Int32Array;
  readonly octantVotes = new Int32Array(8);
  readonly directionSum = new Float64Array(3);
  voteMode = VOTE_NONE;
  /** Overlap queries have no order to gain from going alone: they stay batched all the way. */
  aloneBelow = 0;
  readonly found: Set<number>[];

  constructor(
    readonly boxes: Float64Array,
    readonly positions: Float32Array,
    readonly indices: Uint32Array,
    readonly order: Uint32Array | null,
  ) {
    const count = boxes.length / 6;
    this.active = Int32Array.from({ length: count }, (_, i) => i);
    this.found = Array.from({ length: count }, () => new Set<number>());
  }

  cull(minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number, count: number): number {
    let i = 0;
    let last = count;
    while (i < last) {
      const r = this.active[i]!;
      const b = this.boxes;
      const o = 6 * r;
      if (b[o]! <= maxX && b[o + 3]! >= minX && b[o + 1]! <= maxY && b[o + 4]! >= minY && b[o + 2]! <= maxZ && b[o + 5]! >= minZ) i++;
      else {
        last--;
        this.active[i] = this.active[last]!;
        this.active[last] = r;
      }
    }
    return i;
  }

  aloneBinary(): void {
    throw new Error('not used: aloneBelow is 0');
  }

  aloneWide(): void {
    throw new Error('not used: aloneBelow is 0');
  }

  testLeaf(first: number, references: number, count: number): void {
    for (let k = first; k < first + references; k++) {
      const tri = this.order === null ? k : this.order[k]!;
      const box = triangleBox(this.positions, this.indices, tri);
      for (let i = 0; i < count; i++) {
        const r = this.active[i]!;
        if (overlaps(this.boxes.subarray(6 * r, 6 * r + 6), box)) this.found[r]!.add(tri);
      }
    }
  }
}

function triangleBox(positions: Float32Array, indices: Uint32Array, tri: number): number[] {
  const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let c = 0; c < 3; c++) {
    const v = 3 * indices[3 * tri + c]!;
    for (let k = 0; k < 3; k++) {
      box[k] = Math.min(box[k]!, positions[v + k]!);
      box[k + 3] = Math.max(box[k + 3]!, positions[v + k]!);
    }
  }
  return box;
}

const overlaps = (a: ArrayLike<number>, b: ArrayLike<number>): boolean => [0, 1, 2].every((k) => a[k]! <= b[k + 3]! && a[k + 3]! >= b[k]!);

describe('batched walk with other items than rays', () => {
  it('box overlaps through all four walks find exactly the brute-force triangle sets (seed 215)', () => {
    const mesh = generateTerrain({ cells: 16, seed: 215 });
    // No spatial splits: a clipped reference box may legitimately miss a query box its triangle box touches.
    const bvh = buildBVH(mesh.positions, mesh.indices, { spatialSplits: false });
    const binary = binaryBVHFor(bvh);
    const random = new Random(215);
    const half = mesh.params.worldSize / 2;
    const count = 60;
    const boxes = new Float64Array(6 * count);
    for (let i = 0; i < count; i++) {
      const x = random.range(-half, half),
        z = random.range(-half, half),
        y = random.range(mesh.minHeight, mesh.maxHeight);
      const size = random.range(1, 30);
      boxes.set([x, y - size, z, x + size, y + size, z + size], 6 * i);
    }
    const triangleCount = mesh.indices.length / 3;
    const expected = Array.from({ length: count }, (_, i) => {
      const set: number[] = [];
      for (let tri = 0; tri < triangleCount; tri++)
        if (overlaps(boxes.subarray(6 * i, 6 * i + 6), triangleBox(mesh.positions, mesh.indices, tri))) set.push(tri);
      return set;
    });
    const stack = new BatchStack(3 * Math.max(bvh.maxDepth, binary.nodes.maxDepth) + 8);
    const counters = new BatchCounters();
    const scratch = new Float64Array(40);
    const walks: [string, (items: BoxOverlapItems) => void][] = [
      ['binary float', (items) => walkBinaryFloat(binary.nodes, items, count, 0, stack, counters)],
      ['binary quantized', (items) => walkBinaryQuantized(binary.nodes, items, count, 0, stack, counters)],
      ['4-way float', (items) => walkWideFloat(bvh.float!, null, items, count, 0, stack, counters, scratch)],
      ['4-way quantized', (items) => walkWideQuantized(bvh.quantized!, null, items, count, 0, stack, counters, scratch)],
    ];
    for (const [name, walk] of walks) {
      const items = new BoxOverlapItems(boxes, mesh.positions, mesh.indices, name.startsWith('binary') ? binary.triangleOrder : bvh.triangleOrder);
      walk(items);
      for (let i = 0; i < count; i++)
        expect(
          [...items.found[i]!].sort((a, b) => a - b),
          `${name}, box ${i}`,
        ).toEqual(expected[i]);
    }
  });
});
