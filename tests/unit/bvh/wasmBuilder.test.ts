import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildBVH,
  childIndex,
  childType,
  forEachNodeBox,
  loadWasmBuilder,
  nodeMaskIndexAt,
  quantizedChildWord,
  type BVH,
  type MaterialInput,
} from '../../../src/bvh/index';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { createCapsuleHits, sweepCapsules } from '../../../src/query/capsule/index';
import { createBoxOverlapList, overlapBoxes, overlapBoxesBruteForce, type BoxBatch } from '../../../src/query/boxes/index';
import { castRays, castRaysBruteForce, type RayBatch } from '../../../src/query/rays/index';
import { loadSimdRays } from '../../../src/query/rays/simdRays';
import { generateTerrain, sampleTerrainHeight } from '../../../src/terrain/index';
import { centreAbove, compareWithReference, randomSweeps, TOI_TOLERANCE } from '../capsule/capsuleCheck';
import { emptyHits, meshBounds, randomRays } from '../rays/raySets';
import { crossedSlivers, flatGrid, stackedDuplicates, triangleSoup, withDegenerates, type TestMesh } from './meshes';
import { randomMaterials } from './randomMaterials';

beforeAll(async () => {
  // Node 20+ has WebAssembly SIMD; a null here means the modules were not built (npm run build:wasm).
  expect(await loadWasmBuilder()).not.toBeNull();
  expect(await loadSimdRays()).not.toBeNull();
});

/** Different triangles sharing one centre: rotated copies of a triangle about it (every centre bin equal). */
function sharedCentres(count: number): TestMesh {
  const positions: number[] = [];
  const indices: number[] = [];
  for (let i = 0; i < count; i++) {
    const angle = (2 * Math.PI * i) / count;
    const size = 1 + (i % 5);
    for (let corner = 0; corner < 3; corner++) {
      const a = angle + (2 * Math.PI * corner) / 3;
      positions.push(3 + size * Math.cos(a), 2 + 0.1 * corner - 0.1, -1 + size * Math.sin(a));
    }
    indices.push(3 * i, 3 * i + 1, 3 * i + 2);
  }
  return { name: 'shared centres', positions: Float32Array.from(positions), indices: Uint32Array.from(indices) };
}

function terrainMesh(cells: number, seed: number): TestMesh {
  const terrain = generateTerrain({ cells, seed });
  return { name: `terrain ${cells}`, positions: terrain.positions, indices: terrain.indices };
}

const oneTriangle: TestMesh = {
  name: 'one triangle',
  positions: Float32Array.from([0, 0, 0, 1, 0, 0, 0, 0, 1]),
  indices: Uint32Array.from([0, 2, 1]),
};

/** The meshes every check runs on: random, terrain and the adversarial ones. */
function meshes(): TestMesh[] {
  return [
    terrainMesh(24, 5),
    triangleSoup(301, 500),
    crossedSlivers(302, 200),
    withDegenerates(303),
    flatGrid(12),
    stackedDuplicates(70),
    sharedCentres(90),
    oneTriangle,
  ];
}

function triangleBox(mesh: TestMesh, triangle: number): number[] {
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
 * The tree is valid: every triangle in exactly one leaf slot; every leaf slot's decoded box contains
 * its triangles, and so does every ancestor's along some root path (a shared node's other half hangs
 * under another parent); each node's mask is exactly the union of its triangles' masks.
 */
function expectValidTree(bvh: BVH, mesh: TestMesh): void {
  const nodes = bvh.quantized!;
  const boxes = new Map<number, number[]>();
  forEachNodeBox(bvh, (a, b, c, d, e, f, _depth, _leaf, node, slot) => boxes.set(4 * node + slot, [a, b, c, d, e, f]), 'quantized');
  const triangleOf = (k: number): number => (bvh.triangleOrder === null ? k : bvh.triangleOrder[k]!);
  const leafSlots = new Int32Array(bvh.triangleCount);
  for (let node = 0; node < nodes.nodeCount; node++) {
    for (let slot = 0; slot < 4; slot++) {
      const word = quantizedChildWord(nodes.u32, node, slot);
      const type = childType(word);
      for (let k = childIndex(word); type > 1 && k < childIndex(word) + type - 1; k++) leafSlots[triangleOf(k)]!++;
    }
  }
  expect(Array.from(leafSlots).filter((n) => n !== 1).length).toBe(0);

  const reached = new Uint8Array(bvh.triangleCount);
  const { materialIds, materialMasks, nodeMasks } = bvh.masks;
  const unionBelow = (node: number, ancestors: number[][]): number => {
    let union = 0;
    for (let slot = 0; slot < 4; slot++) {
      const word = quantizedChildWord(nodes.u32, node, slot);
      const type = childType(word);
      if (type === 1) continue;
      const box = boxes.get(4 * node + slot)!;
      if (type === 0) {
        union |= unionBelow(childIndex(word), [...ancestors, box]);
        continue;
      }
      for (let k = childIndex(word); k < childIndex(word) + type - 1; k++) {
        const triangle = triangleOf(k);
        const tbox = triangleBox(mesh, triangle);
        expect(contains(box, tbox)).toBe(true);
        if (ancestors.every((a) => contains(a, tbox))) reached[triangle] = 1;
        union |= materialMasks[materialIds[triangle]!]!;
      }
    }
    expect(nodeMasks[nodeMaskIndexAt(nodes.u32, 16 * node + 12)]).toBe(union >>> 0);
    return union;
  };
  if (nodes.nodeCount > 0) unionBelow(0, []);
  expect(reached.every((r) => r === 1)).toBe(true);
}

/** Closest hits on the WebAssembly-built tree equal brute force and the TypeScript-built tree's, ray for ray (t bit for bit). */
function expectSameRays(mesh: TestMesh, wasm: BVH, typescript: BVH, rays: RayBatch): void {
  const reference = emptyHits(rays.count);
  castRaysBruteForce(mesh.positions, mesh.indices, rays, reference, {});
  for (const kernel of ['typescript', 'wasm-simd'] as const) {
    const onWasm = emptyHits(rays.count);
    const onTypeScript = emptyHits(rays.count);
    castRays(wasm, rays, onWasm, { kernel });
    castRays(typescript, rays, onTypeScript, { kernel });
    let mismatches = 0;
    for (let i = 0; i < rays.count; i++) {
      const hit = onWasm.triangle[i]! >= 0;
      if (hit !== reference.triangle[i]! >= 0 || !Object.is(onWasm.t[i], reference.t[i])) mismatches++;
      if (hit !== onTypeScript.triangle[i]! >= 0 || !Object.is(onWasm.t[i], onTypeScript.t[i])) mismatches++;
    }
    expect(mismatches).toBe(0);
  }
}

function randomBoxes(seed: number, count: number, mesh: TestMesh): BoxBatch {
  const bounds = meshBounds(mesh.positions);
  const random = new Random(seed);
  const batch: BoxBatch = { count, centers: new Float32Array(3 * count), halfSizes: new Float32Array(3 * count), axes: null };
  const extent = Math.max(1e-3, bounds.max[0] - bounds.min[0], bounds.max[1] - bounds.min[1], bounds.max[2] - bounds.min[2]);
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      batch.centers[3 * i + k] = random.range(bounds.min[k]!, bounds.max[k]!);
      batch.halfSizes[3 * i + k] = extent * random.range(0.01, 0.15);
    }
  }
  return batch;
}

/** (box, triangle) pairs of a box query, sorted. */
function boxPairs(run: (out: ReturnType<typeof createBoxOverlapList>) => void): string[] {
  const out = createBoxOverlapList(200_000);
  run(out);
  expect(out.dropped).toBe(0);
  const pairs: string[] = [];
  for (let k = 0; k < out.count; k++) pairs.push(`${out.box[k]}:${out.triangle[k]}`);
  return pairs.sort();
}

describe('WebAssembly BVH builder', () => {
  it('builds valid trees with exact mask unions on random and adversarial meshes (seed 311)', () => {
    const random = new Random(311);
    for (const mesh of meshes()) {
      const materials: MaterialInput = randomMaterials(random, mesh.indices.length / 3, 9);
      const bvh = buildBVH(mesh.positions, mesh.indices, { builder: 'wasm', layouts: ['quantized', 'float'] }, materials);
      expect(bvh.stats.builder, mesh.name).toBe('wasm');
      expect(bvh.stats.builderFallback).toBe('');
      expect(bvh.hasDuplicateReferences).toBe(false);
      expect(bvh.stats.references).toBe(bvh.triangleCount);
      expectValidTree(bvh, mesh);
    }
  });

  it('rays on its trees equal brute force and the TypeScript-built trees (seed 312)', () => {
    for (const mesh of meshes()) {
      const wasm = buildBVH(mesh.positions, mesh.indices, { builder: 'wasm', layouts: ['quantized'] });
      const typescript = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized'] });
      expectSameRays(mesh, wasm, typescript, randomRays(312, 400, meshBounds(mesh.positions)));
    }
  });

  it('box queries on its trees equal brute force and the TypeScript-built trees (seed 313)', () => {
    for (const mesh of meshes()) {
      const wasm = buildBVH(mesh.positions, mesh.indices, { builder: 'wasm', layouts: ['quantized'] });
      const typescript = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized'] });
      const boxes = randomBoxes(313, 60, mesh);
      const expected = boxPairs((out) => overlapBoxesBruteForce(mesh.positions, mesh.indices, boxes, out));
      expect(boxPairs((out) => overlapBoxes(wasm, boxes, out))).toEqual(expected);
      expect(boxPairs((out) => overlapBoxes(typescript, boxes, out))).toEqual(expected);
    }
  });

  it('capsule sweeps on its tree agree with brute force and the TypeScript-built tree (seed 314)', () => {
    const terrain = generateTerrain({ cells: 32, worldSize: 40, heightScale: 10, seed: 71 });
    const wasm = buildBVH(terrain.positions, terrain.indices, { builder: 'wasm' });
    const typescript = buildBVH(terrain.positions, terrain.indices);
    const batch = randomSweeps(
      314,
      1500,
      { halfLength: [0, 1.5], radius: [0.05, 0.8], motion: [0.5, 8] },
      centreAbove((x, z) => sampleTerrainHeight(terrain, x, z), [0, 4]),
    );
    const result = compareWithReference(terrain, wasm, batch);
    expect(result.failures.slice(0, 5)).toEqual([]);
    expect(result.grazes).toBeLessThanOrEqual(3);
    expect(result.hits).toBeGreaterThan(300);
    const onTypeScript = createCapsuleHits(batch.count);
    sweepCapsules(typescript, batch, onTypeScript);
    let disagreements = 0;
    for (let i = 0; i < batch.count; i++) {
      const hit = result.ours.triangle[i]! >= 0;
      if (hit !== onTypeScript.triangle[i]! >= 0 || (hit && Math.abs(result.ours.toi[i]! - onTypeScript.toi[i]!) > TOI_TOLERANCE)) disagreements++;
    }
    expect(disagreements).toBe(0);
  });

  it('matches the TypeScript builder in tree quality on a terrain (seed 11)', () => {
    const mesh = terrainMesh(64, 11);
    const wasm = buildBVH(mesh.positions, mesh.indices, { builder: 'wasm', layouts: ['quantized'] });
    const typescript = buildBVH(mesh.positions, mesh.indices, { layouts: ['quantized'], spatialSplits: false });
    expect(wasm.stats.sahCost).toBeLessThan(1.03 * typescript.stats.sahCost);
    expect(wasm.stats.leafFillRate).toBeGreaterThan(0.9);
    expect(wasm.stats.averageLeafSize).toBeGreaterThan(0.8 * typescript.stats.averageLeafSize);
  });

  it('gives bit-identical trees for the same input, and reorders the mesh on request', () => {
    const mesh = triangleSoup(315, 300);
    const first = buildBVH(mesh.positions, mesh.indices, { builder: 'wasm' });
    const second = buildBVH(mesh.positions, mesh.indices, { builder: 'wasm' });
    expect(new Uint8Array(second.quantized!.buffer)).toEqual(new Uint8Array(first.quantized!.buffer));
    expect(new Uint8Array(second.float!.buffer)).toEqual(new Uint8Array(first.float!.buffer));
    const indices = mesh.indices.slice();
    const reordered = buildBVH(mesh.positions, indices, { builder: 'wasm', reorderTriangles: true });
    expect(reordered.triangleOrder).toBeNull();
    for (let k = 0; k < first.triangleCount; k++) {
      const t = first.triangleOrder![k]!;
      expect(Array.from(indices.subarray(3 * k, 3 * k + 3))).toEqual(Array.from(mesh.indices.subarray(3 * t, 3 * t + 3)));
    }
  });

  it('builds an empty tree for an empty mesh, as the TypeScript builder does, and queries on it miss', () => {
    const bvh = buildBVH(new Float32Array(0), new Uint32Array(0), { builder: 'wasm' });
    expect(bvh.stats.builder).toBe('wasm');
    expect(bvh.quantized!.nodeCount).toBe(0);
    const hits = emptyHits(1);
    castRays(
      bvh,
      { count: 1, origins: Float32Array.from([0, 1, 0]), directions: Float32Array.from([0, -1, 0]), tMax: Float32Array.from([Infinity]) },
      hits,
    );
    expect(hits.triangle[0]).toBe(-1);
  });

  it('rejects bad meshes and an unknown builder with InvalidParameterError', () => {
    const positions = Float32Array.from([0, 0, 0, 1, 0, NaN, 0, 0, 1]);
    expect(() => buildBVH(positions, Uint32Array.from([0, 1, 2]), { builder: 'wasm' })).toThrow(InvalidParameterError);
    expect(() => buildBVH(oneTriangle.positions, Uint32Array.from([0, 1, 5]), { builder: 'wasm' })).toThrow(InvalidParameterError);
    expect(() => buildBVH(oneTriangle.positions, Uint32Array.from([0, 1, 3]), { builder: 'wasm' })).toThrow(InvalidParameterError);
    // A bad vertex no triangle uses is still bad input; so is a partial triangle.
    const unused = Float32Array.from([0, 0, 0, 1, 0, 0, 0, 0, 1, Infinity, 0, 0]);
    expect(() => buildBVH(unused, oneTriangle.indices, { builder: 'wasm' })).toThrow(InvalidParameterError);
    expect(() => buildBVH(oneTriangle.positions, Uint32Array.from([0, 1]), { builder: 'wasm' })).toThrow(InvalidParameterError);
    expect(() => buildBVH(oneTriangle.positions, oneTriangle.indices, { builder: 'rust' as 'wasm' })).toThrow(InvalidParameterError);
  });
});
