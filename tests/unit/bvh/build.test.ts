import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildBVH,
  forEachNodeBox,
  collectNodeBoxes,
  type BVH,
  QUANTIZED_NODE_BYTES,
  childType,
  childIndex,
  quantizedChildWord,
} from '../../../src/bvh/index';
import { float32Above, float32Below } from '../../../src/bvh/float32Round';
import { QUANT_MAX, quantizationStep, quantizeDown, quantizeUp } from '../../../src/bvh/quantize';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { generateTerrain, type TerrainMesh } from '../../../src/terrain/index';
import { crossedSlivers, flatGrid, stackedDuplicates, triangleSoup, withDegenerates, type TestMesh } from './meshes';

let terrain: TerrainMesh;
beforeAll(() => {
  terrain = generateTerrain({ cells: 48, seed: 11 });
});

/** Leaf triangles of each leaf slot, through the order array or the (reordered) mesh. */
function leafTriangles(bvh: BVH, word: number): number[] {
  const count = childType(word) - 1;
  const first = childIndex(word);
  const out: number[] = [];
  for (let k = first; k < first + count; k++) out.push(bvh.triangleOrder === null ? k : bvh.triangleOrder[k]!);
  return out;
}

function triangleBox(mesh: { positions: Float32Array; indices: Uint32Array }, triangle: number): number[] {
  const box = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
  for (let v = 0; v < 3; v++) {
    const p = 3 * mesh.indices[3 * triangle + v]!;
    for (let k = 0; k < 3; k++) {
      box[k] = Math.min(box[k]!, mesh.positions[p + k]!);
      box[k + 3] = Math.max(box[k + 3]!, mesh.positions[p + k]!);
    }
  }
  return box;
}

const contains = (outer: ArrayLike<number>, inner: ArrayLike<number>): boolean =>
  outer[0]! <= inner[0]! &&
  outer[1]! <= inner[1]! &&
  outer[2]! <= inner[2]! &&
  outer[3]! >= inner[3]! &&
  outer[4]! >= inner[4]! &&
  outer[5]! >= inner[5]!;

/**
 * Every triangle must sit inside its leaf slot's decoded box and inside every ancestor's box along at
 * least one root path (a shared node's other half is reachable, but not contained, through a parent).
 * Returns how many (leaf slot, triangle) pairs were found and the number of triangles never reached.
 */
function checkContainment(
  bvh: BVH,
  mesh: TestMesh | TerrainMesh,
  layout: 'quantized' | 'float',
): { pairs: number; unreached: number; uncontained: number } {
  const nodes = layout === 'quantized' ? bvh.quantized! : bvh.float!;
  // Boxes of every (node, slot), decoded exactly as the traversal decodes them.
  const boxes = new Map<number, number[]>();
  forEachNodeBox(bvh, (a, b, c, d, e, f, _depth, _leaf, node, slot) => boxes.set(4 * node + slot, [a, b, c, d, e, f]), layout);
  const reached = new Uint8Array(bvh.triangleCount);
  let pairs = 0;
  let uncontained = 0;
  const walk = (node: number, ancestors: number[][], visited: Set<number>): void => {
    for (let slot = 0; slot < 4; slot++) {
      const word = layout === 'quantized' ? quantizedChildWord(bvh.quantized!.u32, node, slot) : nodes.u32[28 * node + 24 + slot]!;
      const type = childType(word);
      if (type === 1) continue;
      const box = boxes.get(4 * node + slot)!;
      if (type === 0) {
        const key = childIndex(word) * 1e6 + node;
        if (visited.has(key)) continue;
        visited.add(key);
        walk(childIndex(word), [...ancestors, box], visited);
        continue;
      }
      for (const triangle of leafTriangles(bvh, word)) {
        pairs++;
        const tbox = triangleBox(mesh, triangle);
        if (contains(box, tbox) && ancestors.every((a) => contains(a, tbox))) reached[triangle] = 1;
        else if (!contains(box, tbox)) uncontained++;
      }
    }
  };
  if (nodes.nodeCount > 0) walk(0, [], new Set());
  let unreached = 0;
  for (let t = 0; t < bvh.triangleCount; t++) if (!reached[t]) unreached++;
  return { pairs, unreached, uncontained };
}

describe('BVH build', () => {
  it('stats are sane on a terrain (seed 11)', () => {
    const bvh = buildBVH(terrain.positions, terrain.indices);
    const s = bvh.stats;
    expect(s.triangles).toBe(terrain.triangleCount);
    expect(s.references).toBeGreaterThanOrEqual(s.triangles);
    expect(s.nodes).toBeGreaterThan(0);
    expect(s.nodes).toBeLessThan(s.triangles);
    // Nodes, the order array, one material id a triangle and the two 256-entry mask tables.
    expect(s.bytes).toBe(bvh.quantized!.bytes + (bvh.triangleOrder?.byteLength ?? 0) + s.triangles + 2 * 1024);
    expect(s.bytesPerTriangle).toBeCloseTo(s.bytes / s.triangles, 10);
    expect(bvh.quantized!.buffer.byteLength).toBe(QUANTIZED_NODE_BYTES * s.nodes);
    expect(s.depthMin).toBeGreaterThanOrEqual(0);
    expect(s.depthMin).toBeLessThanOrEqual(s.depthMax);
    expect(s.leafFillRate).toBeGreaterThan(0.5);
    expect(s.leafFillRate).toBeLessThanOrEqual(1);
    expect(s.averageLeafSize).toBeGreaterThanOrEqual(1);
    expect(s.averageLeafSize).toBeLessThanOrEqual(bvh.options.maxLeafSize);
    expect(s.sahCost).toBeGreaterThan(1);
    expect(s.buildMs).toBeGreaterThanOrEqual(0);
    // Every reference appears in exactly one leaf slot.
    let leafRefs = 0;
    forEachNodeBox(bvh, () => undefined);
    const list = collectNodeBoxes(bvh);
    expect(list.count).toBeGreaterThan(s.nodes);
    for (let node = 0; node < s.nodes; node++) {
      for (let slot = 0; slot < 4; slot++) {
        const word = quantizedChildWord(bvh.quantized!.u32, node, slot);
        if (childType(word) > 1) leafRefs += childType(word) - 1;
      }
    }
    expect(leafRefs).toBe(s.references);
  });

  it('the same input gives bit-identical node buffers (seed 11)', () => {
    const a = buildBVH(terrain.positions, terrain.indices);
    const b = buildBVH(terrain.positions, terrain.indices);
    expect(new Uint8Array(a.quantized!.buffer)).toEqual(new Uint8Array(b.quantized!.buffer));
    expect(new Uint8Array(a.float!.buffer)).toEqual(new Uint8Array(b.float!.buffer));
  });

  const meshes = (): (TestMesh | TerrainMesh)[] => [terrain, triangleSoup(5, 800), stackedDuplicates(40), flatGrid(12), withDegenerates(9)];
  for (const layout of ['quantized', 'float'] as const) {
    for (const share of [true, false]) {
      it(`every ${layout} child box contains its subtree's float32 triangle boxes (share leaves ${share}, no spatial splits)`, () => {
        for (const mesh of meshes()) {
          const bvh = buildBVH(mesh.positions, mesh.indices, { spatialSplits: false, shareHalfFullLeaves: share });
          const result = checkContainment(bvh, mesh, layout);
          expect(result.uncontained, `${'name' in mesh ? mesh.name : 'terrain'}`).toBe(0);
          expect(result.unreached).toBe(0);
          // A shared node is walked from both parents, so its triangles are counted twice.
          if (share) expect(result.pairs).toBeGreaterThanOrEqual(bvh.triangleCount);
          else expect(result.pairs).toBe(bvh.triangleCount);
        }
      });
    }
  }

  it('spatial splits duplicate references within the budget on crossed slivers (seed 3)', () => {
    const mesh = crossedSlivers(3, 400);
    const bvh = buildBVH(mesh.positions, mesh.indices, { spatialOverlapThreshold: 0 });
    expect(bvh.stats.references).toBeGreaterThan(bvh.stats.triangles);
    expect(bvh.stats.references).toBeLessThanOrEqual(Math.floor(bvh.stats.triangles * (1 + bvh.options.spatialReferenceBudget)));
    expect(bvh.hasDuplicateReferences).toBe(true);
    const none = buildBVH(mesh.positions, mesh.indices, { spatialSplits: false });
    expect(none.stats.references).toBe(none.stats.triangles);
  });

  it('builds trivial meshes: empty, one triangle, identical triangles', () => {
    const empty = buildBVH(new Float32Array(0), new Uint32Array(0));
    expect(empty.stats.nodes).toBe(0);
    const one = buildBVH(Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]), Uint32Array.from([0, 1, 2]));
    expect(one.stats.nodes).toBe(1);
    expect(one.stats.references).toBe(1);
    const dup = buildBVH(stackedDuplicates(100).positions, stackedDuplicates(100).indices);
    expect(dup.stats.references).toBe(100);
  });

  it('reorderTriangles permutes the mesh in place and drops the order array', () => {
    const indices = terrain.indices.slice();
    const bvh = buildBVH(terrain.positions, indices, { reorderTriangles: true, spatialSplits: false });
    expect(bvh.triangleOrder).toBeNull();
    expect(bvh.stats.bytes).toBe(bvh.quantized!.bytes + bvh.triangleCount + 2 * 1024);
    const key = (ix: Uint32Array, t: number): string => [ix[3 * t], ix[3 * t + 1], ix[3 * t + 2]].join(',');
    const before = new Set(Array.from({ length: terrain.triangleCount }, (_, t) => key(terrain.indices, t)));
    for (let t = 0; t < terrain.triangleCount; t++) expect(before.has(key(indices, t))).toBe(true);
    const result = checkContainment(bvh, { ...terrain, indices }, 'quantized');
    expect(result.unreached).toBe(0);
  });

  it('a swept radius gives fewer, larger leaves (seed 11)', () => {
    const tight = buildBVH(terrain.positions, terrain.indices);
    const swept = buildBVH(terrain.positions, terrain.indices, { sweptRadius: 4 });
    expect(swept.stats.nodes).toBeLessThan(tight.stats.nodes);
  });

  it('rejects bad meshes and options with InvalidParameterError', () => {
    const p = Float32Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const i = Uint32Array.from([0, 1, 2]);
    expect(() => buildBVH([0, 0, 0] as unknown as Float32Array, i)).toThrow(InvalidParameterError);
    expect(() => buildBVH(p, [0, 1, 2] as unknown as Uint32Array)).toThrow(InvalidParameterError);
    expect(() => buildBVH(p, Uint32Array.from([0, 1, 3]))).toThrow(/indices\[2\]/);
    expect(() => buildBVH(p, Uint32Array.from([0, 1]))).toThrow(InvalidParameterError);
    expect(() => buildBVH(Float32Array.from([0, 0, NaN, 1, 0, 0, 0, 1, 0]), i)).toThrow(/positions\[2\]/);
    expect(() => buildBVH(Float32Array.from([0, 0, Infinity, 1, 0, 0, 0, 1, 0]), i)).toThrow(InvalidParameterError);
    expect(() => buildBVH(p, i, { maxLeafSize: 15 })).toThrow(/maxLeafSize/);
    expect(() => buildBVH(p, i, { maxLeafSize: 0 })).toThrow(/maxLeafSize/);
    expect(() => buildBVH(p, i, { layouts: [] })).toThrow(/layouts/);
    expect(() => buildBVH(p, i, { layouts: ['nope' as 'float'] })).toThrow(/layouts/);
    expect(() => buildBVH(p, i, { triangleCost: NaN })).toThrow(/triangleCost/);
    expect(() => buildBVH(p, i, { sweptRadius: -1 })).toThrow(/sweptRadius/);
  });
});

describe('quantization', () => {
  it('decoded 16-bit bounds always contain the value, on random and extreme frames (seed 21)', () => {
    const random = new Random(21);
    for (let trial = 0; trial < 20000; trial++) {
      const scale = 10 ** random.range(-6, 6);
      const offset = (random.next() < 0.5 ? 0 : 1) * 10 ** random.range(0, 6) * (random.next() < 0.5 ? -1 : 1);
      const a = offset + random.range(-1, 1) * scale;
      const b = a + random.next() * scale;
      const frameMin = float32Below(a);
      const frameMax = float32Above(b);
      const step = quantizationStep(frameMin, frameMax);
      const lo = frameMin + random.next() * (frameMax - frameMin);
      const hi = lo + random.next() * (frameMax - lo);
      const values = [lo, hi, frameMin, frameMax];
      for (const v of values) {
        if (!(v >= frameMin && v <= frameMax)) continue;
        const qd = quantizeDown(v, frameMin, step);
        const qu = quantizeUp(v, frameMin, step);
        expect(qd).toBeGreaterThanOrEqual(0);
        expect(qu).toBeLessThanOrEqual(QUANT_MAX);
        if (frameMax - frameMin >= 2 ** -22 * (Math.abs(frameMin) + Math.abs(frameMax))) {
          expect(frameMin + qd * step).toBeLessThanOrEqual(v);
          expect(frameMin + qu * step).toBeGreaterThanOrEqual(v);
        }
      }
    }
  });

  it('float32 outward rounding brackets the value (seed 22)', () => {
    const random = new Random(22);
    for (let trial = 0; trial < 20000; trial++) {
      const v = (random.next() - 0.5) * 10 ** random.range(-30, 30);
      const below = float32Below(v);
      const above = float32Above(v);
      expect(below).toBeLessThanOrEqual(v);
      expect(above).toBeGreaterThanOrEqual(v);
      expect(Math.fround(below)).toBe(below);
      expect(Math.fround(above)).toBe(above);
    }
    expect(float32Below(0)).toBe(0);
    expect(float32Above(-0)).toBe(-0);
  });
});
