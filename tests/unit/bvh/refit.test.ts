import { beforeAll, describe, expect, it } from 'vitest';
import {
  adoptRefitState,
  buildBVH,
  forEachNodeBox,
  bvhRevision,
  loadWasmBuilder,
  prepareRefit,
  refitBVH,
  refitPrepared,
  type BVH,
  type BuildOptions,
  type RefitReport,
} from '../../../src/bvh/index';
import { CHILD_INDEX_MASK, childIndex, childLeafCount } from '../../../src/bvh/childWord';
import { FLOAT_NODE_WORDS, FLOAT_WORDS_OFFSET } from '../../../src/bvh/floatLayout';
import { QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32, frameOf } from '../../../src/bvh/quantizedLayout';
import { TriangleBoxQuery } from '../../../src/actors/triangleBoxQuery';
import { WIDE_SORTINGS } from '../../../src/query/rays/sorting';
import { QUANT_STEP_SCALE } from '../../../src/bvh/quantize';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { createBoxOverlapList, overlapBoxes, overlapBoxesBruteForce, type BoxBatch, type BoxOverlapList } from '../../../src/query/boxes/index';
import { loadSimdBoxTriangles } from '../../../src/query/boxTriangle/boxTriangleKernel';
import { createCapsuleBatch, createCapsuleHits, type CapsuleBatch } from '../../../src/query/capsule/capsuleTypes';
import { loadSimdCapsules, sweepCapsulesSimd } from '../../../src/query/capsule/simdCapsules';
import { computeEdgeMasks, edgeMasksFor, sweepCapsules } from '../../../src/query/capsule/index';
import { castRays, castRaysBruteForce, type RayBatch } from '../../../src/query/rays/index';
import type { SimdRayKernel } from '../../../src/query/rays/rayKernel';
import { loadSimdRays } from '../../../src/query/rays/simdRays';
import { generateTerrain } from '../../../src/terrain/index';
import { emptyHits, meshBounds, randomRays } from '../rays/raySets';
import { triangleSoup, withDegenerates, type TestMesh } from './meshes';

let rayKernel: SimdRayKernel;
beforeAll(async () => {
  const rays = await loadSimdRays();
  // Node 20+ has WebAssembly SIMD; a null here means the modules were not built (npm run build:wasm).
  expect(rays).not.toBeNull();
  rayKernel = rays!;
  expect(await loadSimdCapsules()).not.toBeNull();
  expect(await loadSimdBoxTriangles()).not.toBeNull();
  expect(await loadWasmBuilder()).not.toBeNull();
});

/** A mesh the test may move: its own copies of the arrays. */
const copyOf = (mesh: { positions: Float32Array; indices: Uint32Array }, name = 'mesh'): TestMesh => ({
  name,
  positions: mesh.positions.slice(),
  indices: mesh.indices.slice(),
});

const smallTerrain = (): TestMesh => copyOf(generateTerrain({ cells: 24, seed: 5, worldSize: 96, heightScale: 20 }), 'terrain');

/** The nodes holding a leaf slot of one of `triangles`, and their ancestors (the packed tree read upwards). */
function ancestorsOfTriangles(bvh: BVH, triangles: Uint32Array): Set<number> {
  const q = bvh.quantized!;
  const parents: number[][] = Array.from({ length: q.nodeCount }, () => []);
  const named = new Set(triangles);
  const found = new Set<number>();
  const pending: number[] = [];
  for (let node = 0; node < q.nodeCount; node++) {
    for (let s = 0; s < 4; s++) {
      const word = q.u32[16 * node + 12 + s]!;
      const type = (word >>> 24) & 15;
      const index = word & CHILD_INDEX_MASK;
      if (type === 0) parents[index]!.push(node);
      for (let r = index; type > 1 && r < index + type - 1; r++)
        if (named.has(bvh.triangleOrder === null ? r : bvh.triangleOrder[r]!)) pending.push(node);
    }
  }
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (found.has(node)) continue;
    found.add(node);
    pending.push(...parents[node]!);
  }
  return found;
}

/** Ids of the triangles whose bounding box overlaps [lo, hi] (what TriangleBoxQuery reports), ascending. */
function trianglesOverlappingBox(mesh: TestMesh, lo: number[], hi: number[]): number[] {
  const ids: number[] = [];
  const { positions, indices } = mesh;
  for (let t = 0; t < indices.length / 3; t++) {
    let overlaps = true;
    for (let k = 0; k < 3; k++) {
      const a = positions[3 * indices[3 * t]! + k]!,
        b = positions[3 * indices[3 * t + 1]! + k]!,
        c = positions[3 * indices[3 * t + 2]! + k]!;
      if (Math.min(a, b, c) > hi[k]! || Math.max(a, b, c) < lo[k]!) overlaps = false;
    }
    if (overlaps) ids.push(t);
  }
  return ids;
}

/** Ids of the triangles using any vertex flagged in `moved`. */
function trianglesOf(mesh: TestMesh, moved: Uint8Array): Uint32Array {
  const ids: number[] = [];
  const { indices } = mesh;
  for (let t = 0; t < indices.length / 3; t++) if (moved[indices[3 * t]!] || moved[indices[3 * t + 1]!] || moved[indices[3 * t + 2]!]) ids.push(t);
  return Uint32Array.from(ids);
}

/** Moves the vertices within `radius` (in x, z) of (cx, cz) by `depth` · a smooth bowl on y; returns the triangles touched. */
function bowl(mesh: TestMesh, cx: number, cz: number, radius: number, depth: number): Uint32Array {
  const p = mesh.positions;
  const moved = new Uint8Array(p.length / 3);
  for (let v = 0; v < moved.length; v++) {
    const d2 = ((p[3 * v]! - cx) ** 2 + (p[3 * v + 2]! - cz) ** 2) / radius ** 2;
    if (d2 >= 1) continue;
    p[3 * v + 1]! += depth * (1 - d2) ** 2;
    moved[v] = 1;
  }
  return trianglesOf(mesh, moved);
}

/** Moves a random `fraction` of the vertices by up to `amount` on every axis. */
function jitter(mesh: TestMesh, random: Random, fraction: number, amount: number): Uint32Array {
  const p = mesh.positions;
  const moved = new Uint8Array(p.length / 3);
  for (let v = 0; v < moved.length; v++) {
    if (random.next() >= fraction) continue;
    for (let k = 0; k < 3; k++) p[3 * v + k]! += random.range(-amount, amount);
    moved[v] = 1;
  }
  return trianglesOf(mesh, moved);
}

/**
 * Walks the decoded quantized tree as the queries do (frames from the parent's decoded slot box, the
 * root frame, shared frames) and checks that every triangle reference lies, all three corners, inside
 * every box on at least one path from the root to its leaf slot; the float layout likewise.
 */
function expectTreeContainsTriangles(bvh: BVH): void {
  const q = bvh.quantized!;
  const { positions, indices, triangleOrder } = bvh;
  const references = triangleOrder === null ? bvh.triangleCount : triangleOrder.length;
  const inside = (t: number, box: readonly number[]): boolean => {
    for (let c = 0; c < 3; c++) {
      const v = 3 * indices[3 * t + c]!;
      for (let k = 0; k < 3; k++) if (!(positions[v + k]! >= box[k]! && positions[v + k]! <= box[k + 3]!)) return false;
    }
    return true;
  };
  const check = (
    read: (node: number, s: number, frame: readonly number[]) => number[],
    word: (node: number, s: number) => number,
    root: number[],
  ): void => {
    const covered = new Uint8Array(references);
    const stack: { node: number; frame: number[]; path: number[] }[] = [
      { node: 0, frame: root, path: [-Infinity, -Infinity, -Infinity, Infinity, Infinity, Infinity] },
    ];
    while (stack.length > 0) {
      const { node, frame, path } = stack.pop()!;
      for (let s = 0; s < 4; s++) {
        const w = word(node, s);
        const type = (w >>> 24) & 15;
        if (type === 1) continue;
        const box = read(node, s, frame);
        const meet = [0, 1, 2].map((k) => Math.max(path[k]!, box[k]!)).concat([3, 4, 5].map((k) => Math.min(path[k]!, box[k]!)));
        const index = w & CHILD_INDEX_MASK;
        if (type > 1) {
          for (let r = index; r < index + type - 1; r++) if (inside(triangleOrder === null ? r : triangleOrder[r]!, meet)) covered[r] = 1;
        } else {
          const own = new Float64Array(6);
          stack.push({ node: index, frame: frameOf(q, index, own) ? Array.from(own) : box, path: meet });
        }
      }
    }
    const missing: number[] = [];
    for (let r = 0; r < references; r++) if (!covered[r]) missing.push(r);
    expect(missing.slice(0, 5)).toEqual([]);
  };
  if (q.nodeCount === 0) return;
  check(
    (node, s, frame) => {
      const box = [0, 0, 0, 0, 0, 0];
      for (let k = 0; k < 3; k++) {
        const step = (frame[k + 3]! - frame[k]!) * QUANT_STEP_SCALE;
        box[k] = frame[k]! + q.u16[32 * node + 4 * k + s]! * step;
        box[k + 3] = frame[k]! + q.u16[32 * node + 4 * (k + 3) + s]! * step;
      }
      return box;
    },
    (node, s) => q.u32[16 * node + 12 + s]!,
    Array.from(q.rootFrame),
  );
  const f = bvh.float;
  if (f !== null) {
    check(
      (node, s) => [0, 1, 2, 3, 4, 5].map((b) => f.f32[FLOAT_NODE_WORDS * node + 4 * b + s]!),
      (node, s) => f.u32[FLOAT_NODE_WORDS * node + FLOAT_WORDS_OFFSET + s]!,
      [],
    );
  }
}

/** Rays (TypeScript quantized and float walks, the SIMD kernel) against brute force over the moved mesh. */
function expectRaysMatchBruteForce(mesh: TestMesh, bvh: BVH, seed: number): void {
  const bounds = meshBounds(mesh.positions);
  const rays: RayBatch = randomRays(seed, 300, bounds);
  const expected = emptyHits(rays.count);
  castRaysBruteForce(mesh.positions, mesh.indices, rays, expected, {});
  const walks: [string, (hits: ReturnType<typeof emptyHits>) => void][] = [
    ['quantized', (hits) => castRays(bvh, rays, hits, { layout: 'quantized' })],
    ['simd', (hits) => rayKernel.cast(bvh, rays, hits, {})],
  ];
  if (bvh.float !== null) walks.push(['float', (hits) => castRays(bvh, rays, hits, { layout: 'float' })]);
  let hitCount = 0;
  for (const [name, walk] of walks) {
    const actual = emptyHits(rays.count);
    walk(actual);
    const mismatches: string[] = [];
    for (let i = 0; i < rays.count; i++) {
      if (expected.triangle[i]! >= 0) hitCount++;
      if (expected.triangle[i]! >= 0 !== actual.triangle[i]! >= 0 || !Object.is(expected.t[i], actual.t[i]))
        mismatches.push(`${name} ray ${i}: expected ${expected.t[i]}, got ${actual.t[i]}`);
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
  }
  expect(hitCount).toBeGreaterThan(0);
}

function randomBoxes(seed: number, count: number, mesh: TestMesh): BoxBatch {
  const random = new Random(seed);
  const b = meshBounds(mesh.positions);
  const centers = new Float32Array(3 * count);
  const halfSizes = new Float32Array(3 * count);
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      centers[3 * i + k] = random.range(b.min[k]!, b.max[k]!);
      halfSizes[3 * i + k] = random.range(0.2, 0.08 * (b.max[k]! - b.min[k]!) + 0.5);
    }
  }
  return { count, centers, halfSizes };
}

const overlapPairs = (list: BoxOverlapList): string[] => {
  const result: string[] = [];
  for (let i = 0; i < list.count; i++) result.push(`${list.box[i]}:${list.triangle[i]}`);
  return result.sort();
};

/** Box queries (TypeScript and the SIMD box–triangle test) against brute force over the moved mesh. */
function expectBoxesMatchBruteForce(mesh: TestMesh, bvh: BVH, seed: number): void {
  const boxes = randomBoxes(seed, 40, mesh);
  const expected = createBoxOverlapList(100_000);
  overlapBoxesBruteForce(mesh.positions, mesh.indices, boxes, expected, { test: 'optimized' });
  for (const test of ['optimized', 'wasm-simd'] as const) {
    const actual = createBoxOverlapList(100_000);
    overlapBoxes(bvh, boxes, actual, { test });
    expect(overlapPairs(actual)).toEqual(overlapPairs(expected));
  }
}

function randomCapsules(seed: number, count: number, mesh: TestMesh): CapsuleBatch {
  const random = new Random(seed);
  const b = meshBounds(mesh.positions);
  const batch = createCapsuleBatch(count);
  const size = Math.max(b.max[0] - b.min[0], b.max[2] - b.min[2]);
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < 3; k++) {
      const c = random.range(b.min[k]!, b.max[k]!);
      batch.start[3 * i + k] = c;
      batch.end[3 * i + k] = c + (k === 1 ? 0.05 * size : 0);
      batch.motion[3 * i + k] = random.range(-0.2, 0.2) * size;
    }
    batch.radius[i] = random.range(0.05, 0.02 * size);
  }
  return batch;
}

/** Capsule sweeps (TypeScript and SIMD) on the refit tree against the same sweep on a fresh build of the moved mesh. */
function expectCapsulesMatchFreshBuild(mesh: TestMesh, bvh: BVH, seed: number): void {
  const fresh = buildBVH(mesh.positions.slice(), mesh.indices.slice(), bvh.options);
  const batch = randomCapsules(seed, 60, mesh);
  const expected = createCapsuleHits(batch.count);
  sweepCapsules(fresh, batch, expected);
  for (const sweep of [sweepCapsules, sweepCapsulesSimd]) {
    const actual = createCapsuleHits(batch.count);
    sweep(bvh, batch, actual);
    const mismatches: string[] = [];
    for (let i = 0; i < batch.count; i++) {
      if (expected.triangle[i]! >= 0 !== actual.triangle[i]! >= 0 || !Object.is(expected.toi[i], actual.toi[i]))
        mismatches.push(`capsule ${i}: expected ${expected.toi[i]}, got ${actual.toi[i]}`);
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
  }
}

/** Every check after an edit and its refit. */
function expectCorrect(mesh: TestMesh, bvh: BVH, seed: number): void {
  expectTreeContainsTriangles(bvh);
  // The capsule sweep's edge masks, patched after a partial refit, as if computed afresh.
  expect(Array.from(edgeMasksFor(bvh))).toEqual(Array.from(computeEdgeMasks(mesh.positions, mesh.indices)));
  expectRaysMatchBruteForce(mesh, bvh, seed);
  expectBoxesMatchBruteForce(mesh, bvh, seed + 1);
  expectCapsulesMatchFreshBuild(mesh, bvh, seed + 2);
}

/** Query every kernel once so each holds the BVH's pre-edit geometry: a stale copy would then show. */
function warmCaches(mesh: TestMesh, bvh: BVH): void {
  expectCorrect(mesh, bvh, 7);
}

const BUILDS: [string, Partial<BuildOptions>][] = [
  ['default build (spatial splits, shared leaves)', {}],
  ['no spatial splits, reordered triangles', { spatialSplits: false, reorderTriangles: true }],
  ['the WebAssembly builder', { builder: 'wasm' }],
  ['the grid builder', { builder: 'grid' }],
];

describe('refitBVH keeps every box around its triangles', () => {
  for (const [label, options] of BUILDS) {
    it(`terrain: craters, bumps and jitter, partial refits (${label})`, () => {
      const mesh = smallTerrain();
      const bvh = buildBVH(mesh.positions, mesh.indices, { builder: 'typescript', ...options });
      expect(bvh.stats.builder).toBe(options.builder ?? 'typescript');
      warmCaches(mesh, bvh);
      const random = new Random(31);
      const first = refitBVH(bvh, null);
      expect(first.full).toBe(true);
      expectCorrect(mesh, bvh, 40);
      for (let round = 0; round < 6; round++) {
        const kind = round % 3;
        const ids =
          kind === 0
            ? bowl(mesh, random.range(-40, 40), random.range(-40, 40), 12, -8 - 10 * round)
            : kind === 1
              ? bowl(mesh, random.range(-40, 40), random.range(-40, 40), 10, 15)
              : jitter(mesh, random, 0.05, 1.5);
        const revision = bvhRevision(bvh);
        const report = refitBVH(bvh, ids);
        expect(report.full).toBe(false);
        expect(report.triangles).toBe(ids.length);
        expect(report.leavesRefit).toBeGreaterThan(0);
        expect(bvhRevision(bvh)).toBe(revision + 1);
        expectCorrect(mesh, bvh, 50 + round);
      }
    });
  }

  it('the first refit of a BVH is a full one, named triangles or not', () => {
    const mesh = smallTerrain();
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const ids = bowl(mesh, 0, 0, 15, -12);
    const report = refitBVH(bvh, ids);
    expect(report.full).toBe(true);
    expect(report.triangles).toBe(ids.length);
    expectCorrect(mesh, bvh, 60);
  });

  it('random soups (huge triangles, spatial-split duplicates): jitter, degenerate and zero-area triangles', () => {
    for (const source of [triangleSoup(71, 500), withDegenerates(72)]) {
      const mesh = copyOf(source, source.name);
      const bvh = buildBVH(mesh.positions, mesh.indices);
      refitBVH(bvh, null);
      warmCaches(mesh, bvh);
      const random = new Random(73);
      expectCorrect(mesh, bvh, 74);
      refitBVH(bvh, jitter(mesh, random, 0.2, 5));
      expectCorrect(mesh, bvh, 75);
      // Collapse some triangles to a point, some to a segment.
      const p = mesh.positions;
      const ids: number[] = [];
      for (let t = 0; t < mesh.indices.length / 3; t += 11) {
        const [a, b, c] = [0, 1, 2].map((k) => mesh.indices[3 * t + k]!);
        for (let k = 0; k < 3; k++) {
          p[3 * b! + k] = p[3 * a! + k]!;
          if (t % 2 === 0) p[3 * c! + k] = p[3 * a! + k]!;
        }
        ids.push(t);
      }
      // Every triangle sharing a moved vertex must be named.
      const moved = new Uint8Array(p.length / 3);
      for (const t of ids) for (let k = 0; k < 3; k++) moved[mesh.indices[3 * t + k]!] = 1;
      refitBVH(bvh, trianglesOf(mesh, moved));
      expectCorrect(mesh, bvh, 76);
    }
  });

  it('a region moved far outside the root frame widens it, and the SAH degradation grows', () => {
    const mesh = smallTerrain();
    const bvh = buildBVH(mesh.positions, mesh.indices, { builder: 'typescript' });
    refitBVH(bvh, null);
    warmCaches(mesh, bvh);
    const p = mesh.positions;
    const moved = new Uint8Array(p.length / 3);
    for (let v = 0; v < moved.length; v++) {
      if (p[3 * v]! < 20 || p[3 * v + 2]! < 20) continue;
      p[3 * v]! += 300;
      p[3 * v + 1]! -= 200;
      moved[v] = 1;
    }
    const report = refitBVH(bvh, trianglesOf(mesh, moved));
    expect(report.rootFrameChanged).toBe(true);
    expect(report.degradation).toBeGreaterThan(1.5);
    expectCorrect(mesh, bvh, 80);
    // A full refit after it: exactly the tree a full refit alone gives.
    const twin = smallTerrain();
    const alone = buildBVH(twin.positions, twin.indices, { builder: 'typescript' });
    twin.positions.set(mesh.positions);
    refitBVH(alone, null);
    refitBVH(bvh, null);
    expect(Array.from(bvh.quantized!.u16)).toEqual(Array.from(alone.quantized!.u16));
    expect(Array.from(bvh.quantized!.rootFrame)).toEqual(Array.from(alone.quantized!.rootFrame));
    expect(Array.from(bvh.float!.f32)).toEqual(Array.from(alone.float!.f32));
  });

  it('a full refit after partial ones is exactly as tight as a full refit alone', () => {
    const mesh = smallTerrain();
    const twin = copyOf(mesh);
    const bvh = buildBVH(mesh.positions, mesh.indices);
    const other = buildBVH(twin.positions, twin.indices);
    refitBVH(bvh, null);
    const random = new Random(90);
    for (let round = 0; round < 4; round++) {
      const ids =
        round % 2 === 0
          ? bowl(mesh, random.range(-40, 40), random.range(-40, 40), 14, -9)
          : bowl(mesh, random.range(-40, 40), random.range(-40, 40), 14, 6);
      refitBVH(bvh, ids);
    }
    refitBVH(bvh, null);
    twin.positions.set(mesh.positions);
    refitBVH(other, null);
    expect(Array.from(bvh.quantized!.u16)).toEqual(Array.from(other.quantized!.u16));
    expect(Array.from(bvh.quantized!.sharedFrames)).toEqual(Array.from(other.quantized!.sharedFrames));
    // The partial refits detached nodes; the full one attached them all again.
    expect(bvh.quantized!.ownsFrame.every((flag) => flag === 0)).toBe(true);
  });

  it('SAH degradation: 1 for no motion, growing as the geometry is scattered further', () => {
    const mesh = smallTerrain();
    const bvh = buildBVH(mesh.positions, mesh.indices, { spatialSplits: false });
    const still = refitBVH(bvh, null);
    expect(still.builtSahCost).toBe(bvh.stats.sahCost);
    expect(still.degradation).toBeCloseTo(1, 9);
    const random = new Random(91);
    let previous = 1;
    for (const amount of [0.5, 4, 20]) {
      const report = refitBVH(bvh, jitter(mesh, random, 0.5, amount));
      expect(report.degradation).toBeGreaterThan(previous);
      previous = report.degradation;
    }
    expect(previous).toBeGreaterThan(1.3);
  });
});

describe('a crater dug deeper stroke by stroke re-encodes little', () => {
  /** The lowest vertex's x and z, and the terrain's height range. */
  const lowestPoint = (mesh: TestMesh): { x: number; z: number; range: number } => {
    const p = mesh.positions;
    let lowest = 0;
    let top = -Infinity;
    for (let v = 0; v < p.length / 3; v++) {
      if (p[3 * v + 1]! < p[3 * lowest + 1]!) lowest = v;
      top = Math.max(top, p[3 * v + 1]!);
    }
    return { x: p[3 * lowest]!, z: p[3 * lowest + 2]!, range: top - p[3 * lowest + 1]! };
  };

  for (const builder of ['typescript', 'wasm', 'grid'] as const) {
    it(`the built root frame has headroom below the lowest point (${builder} builder)`, () => {
      const mesh = smallTerrain();
      const bvh = buildBVH(mesh.positions, mesh.indices, { builder });
      prepareRefit(bvh);
      const { x, z, range } = lowestPoint(mesh);
      // A crater a fifth of the height range below the lowest point: inside the root frame's headroom.
      const report = refitBVH(bvh, bowl(mesh, x, z, 10, -0.2 * range));
      expect(report.full).toBe(false);
      expect(report.rootFrameChanged).toBe(false);
      expect(report.nodesReencoded).toBeLessThan(bvh.quantized!.nodeCount);
      expectCorrect(mesh, bvh, 90);
    });
  }

  it('every walk reads a detached node through its own frame', () => {
    const mesh = copyOf(generateTerrain({ cells: 32, seed: 9, worldSize: 128, heightScale: 24 }), 'terrain');
    const bvh = buildBVH(mesh.positions, mesh.indices, { builder: 'wasm' });
    warmCaches(mesh, bvh);
    prepareRefit(bvh);
    const { x, z, range } = lowestPoint(mesh);
    // Deeper than the root frame's headroom: the root's frame moves and its node children are detached
    // (so are others on the way); their slot boxes shrink to their content, their frames stay.
    const report = refitBVH(bvh, bowl(mesh, x, z, 12, -0.6 * range));
    expect(report.rootFrameChanged).toBe(true);
    expect(report.nodesDetached).toBeGreaterThan(0);
    const q = bvh.quantized!;
    // A walk that took a detached node's slot box as its frame would decode its children elsewhere.
    const slotBox = new Float64Array(6);
    let framesDiffer = 0;
    forEachNodeBox(bvh, (minX, minY, minZ, maxX, maxY, maxZ, _depth, isLeaf, node, slot) => {
      const child = q.u32[16 * node + 12 + slot]! & CHILD_INDEX_MASK;
      if (isLeaf || child >= q.firstShared || q.ownsFrame[child] !== 1) return;
      slotBox.set([minX, minY, minZ, maxX, maxY, maxZ]);
      if (slotBox.some((value, k) => value !== q.ownFrames[6 * child + k])) framesDiffer++;
    });
    expect(framesDiffer).toBeGreaterThan(0);
    // The overlay's walk (forEachNodeBox) decodes each leaf box around its triangles, as the queries do.
    let uncovered = 0;
    forEachNodeBox(bvh, (minX, minY, minZ, maxX, maxY, maxZ, _depth, isLeaf, node, slot) => {
      if (!isLeaf) return;
      const word = q.u32[QUANTIZED_NODE_U32 * node + QUANTIZED_WORDS_U32 + slot]!;
      const first = childIndex(word);
      for (let r = first; r < first + childLeafCount(word); r++) {
        const t = bvh.triangleOrder === null ? r : bvh.triangleOrder[r]!;
        for (let c = 0; c < 3; c++) {
          const v = 3 * bvh.indices[3 * t + c]!;
          const [x, y, z] = [bvh.positions[v]!, bvh.positions[v + 1]!, bvh.positions[v + 2]!];
          if (x < minX || x > maxX || y < minY || y > maxY || z < minZ || z > maxZ) uncovered++;
        }
      }
    });
    expect(uncovered).toBe(0);

    // Two refits behind, the SIMD kernels copy the whole tree again (decodeFrames); one behind, they
    // patch the rewritten nodes (rewriteNodeRecords): both must give detached nodes their own frames.
    refitBVH(bvh, bowl(mesh, -x, -z, 6, 2));
    expectCorrect(mesh, bvh, 120);
    refitBVH(bvh, bowl(mesh, x, -z, 6, -2));
    expectCorrect(mesh, bvh, 121);
    // Every ray walk of the quantized tree: the sortings, one ray at a time and in batches.
    const rays = randomRays(121, 300, meshBounds(mesh.positions));
    const expected = emptyHits(rays.count);
    castRaysBruteForce(mesh.positions, mesh.indices, rays, expected, {});
    for (const sorting of WIDE_SORTINGS) {
      for (const batchSize of [0, 16, Infinity]) {
        const actual = emptyHits(rays.count);
        castRays(bvh, rays, actual, { layout: 'quantized', sorting, batchSize });
        expect(Array.from(actual.t), `${sorting}, batches of ${batchSize}`).toEqual(Array.from(expected.t));
      }
    }
    // The actors' triangle query.
    const query = new TriangleBoxQuery(bvh);
    const random = new Random(122);
    const b = meshBounds(mesh.positions);
    for (let i = 0; i < 60; i++) {
      const lo = [0, 1, 2].map((k) => random.range(b.min[k]!, b.max[k]!));
      const hi = lo.map((value, k) => value + random.range(0, 0.2) * (b.max[k]! - b.min[k]!));
      const count = query.run(lo[0]!, lo[1]!, lo[2]!, hi[0]!, hi[1]!, hi[2]!);
      const found = Array.from(query.triangles.subarray(0, count)).sort((m, n) => m - n);
      expect(found).toEqual(trianglesOverlappingBox(mesh, lo, hi));
    }
  });

  it('the root frame moves out a logarithmic number of times, and a move rewrites only the nodes on the way', () => {
    const mesh = copyOf(generateTerrain({ cells: 48, seed: 5, worldSize: 192, heightScale: 20 }), 'terrain');
    const bvh = buildBVH(mesh.positions, mesh.indices, { builder: 'grid' });
    warmCaches(mesh, bvh);
    prepareRefit(bvh);
    const { x, z, range } = lowestPoint(mesh);
    const reports: RefitReport[] = [];
    // 16 strokes of a fifth of the height range each: three times the height range dug in one spot.
    for (let stroke = 0; stroke < 16; stroke++) {
      const ids = bowl(mesh, x, z, 10, -0.2 * range);
      const report = refitBVH(bvh, ids);
      reports.push(report);
      // A moved frame rewrites its node and detaches the node's children, which keep their frames: no
      // node outside the crater's leaves and their ancestors is rewritten (before detaching, a root
      // move re-encoded the whole tree).
      expect(report.nodesReencoded).toBeLessThanOrEqual(ancestorsOfTriangles(bvh, ids).size);
      if (stroke % 5 === 4) expectCorrect(mesh, bvh, 91 + stroke);
    }
    const rootMoves = reports.filter((report) => report.rootFrameChanged).length;
    // Slack doubling at each move: 0.25, 0.5, 1 and 2 times the extent cover it in at most four moves
    // (a fixed quarter would move it every second stroke or so).
    expect(rootMoves).toBeGreaterThan(0);
    expect(rootMoves).toBeLessThanOrEqual(4);
    expect(reports.some((report) => report.nodesDetached > 0)).toBe(true);
    expect(bvh.quantized!.ownsFrame.some((flag) => flag === 1)).toBe(true);
    expectCorrect(mesh, bvh, 111);
  });
});

describe('prepareRefit: the bookkeeping made ahead, so the first edit is a partial refit', () => {
  for (const [label, options] of BUILDS) {
    it(`leaves the tree untouched, then partial refits from the first edit stay correct (${label})`, () => {
      const mesh = smallTerrain();
      const bvh = buildBVH(mesh.positions, mesh.indices, { builder: 'typescript', ...options });
      warmCaches(mesh, bvh);
      const nodes = Array.from(bvh.quantized!.u16);
      const floats = Array.from(bvh.float!.f32);
      const revision = bvhRevision(bvh);
      expect(refitPrepared(bvh)).toBe(false);
      prepareRefit(bvh);
      expect(refitPrepared(bvh)).toBe(true);
      expect(Array.from(bvh.quantized!.u16)).toEqual(nodes);
      expect(Array.from(bvh.float!.f32)).toEqual(floats);
      expect(bvhRevision(bvh)).toBe(revision);
      const random = new Random(41);
      for (let round = 0; round < 5; round++) {
        const ids =
          round % 2 === 0
            ? bowl(mesh, random.range(-40, 40), random.range(-40, 40), 12, -6 - 12 * round)
            : bowl(mesh, random.range(-40, 40), random.range(-40, 40), 9, 10 + 5 * round);
        const report = refitBVH(bvh, ids);
        expect(report.full).toBe(false);
        expectCorrect(mesh, bvh, 90 + round);
      }
    });
  }

  it('a tree with clipped references (spatial splits) refits whole once, then partially, staying correct', () => {
    const mesh = triangleSoup(3, 400);
    const bvh = buildBVH(mesh.positions, mesh.indices, { builder: 'typescript', spatialSplits: true });
    // A spatial split's leaf box covers only its part of a triangle; the refit's covers the whole.
    expect(bvh.stats.references).toBeGreaterThan(bvh.triangleCount);
    // The kernels hold the built geometry (warmCaches, without its whole-triangle containment check).
    expectRaysMatchBruteForce(mesh, bvh, 7);
    expectBoxesMatchBruteForce(mesh, bvh, 8);
    expectCapsulesMatchFreshBuild(mesh, bvh, 9);
    expect(prepareRefit(bvh).fullRefitPending).toBe(true);
    const random = new Random(47);
    for (let round = 0; round < 4; round++) {
      const report = refitBVH(bvh, jitter(mesh, random, 0.05, 3));
      expect(report.full).toBe(round === 0);
      expectCorrect(mesh, bvh, 80 + round);
    }
  });

  it('a state made over a twin tree and posted (structured clone) refits exactly as one made here', () => {
    const here = smallTerrain();
    const there = smallTerrain();
    const worker = smallTerrain();
    const local = buildBVH(here.positions, here.indices, { builder: 'wasm' });
    const adopted = buildBVH(there.positions, there.indices, { builder: 'wasm' });
    const made = buildBVH(worker.positions, worker.indices, { builder: 'wasm' });
    prepareRefit(local);
    expect(adoptRefitState(adopted, structuredClone(prepareRefit(made)))).toBe(true);
    // A BVH keeps the bookkeeping it has: a later one (a refit ran meanwhile) is not taken.
    expect(adoptRefitState(adopted, structuredClone(prepareRefit(made)))).toBe(false);
    const random = new Random(43);
    for (let round = 0; round < 4; round++) {
      const cx = random.range(-40, 40);
      const cz = random.range(-40, 40);
      const a = refitBVH(local, bowl(here, cx, cz, 11, -9 * (round + 1)));
      const b = refitBVH(adopted, bowl(there, cx, cz, 11, -9 * (round + 1)));
      expect(b.full).toBe(false);
      expect(b.nodesReencoded).toBe(a.nodesReencoded);
      expect(Array.from(adopted.quantized!.u16)).toEqual(Array.from(local.quantized!.u16));
      expect(b.sahCost).toBe(a.sahCost);
    }
    expectCorrect(there, adopted, 97);
    // A state over another tree is refused, naming the mismatch; the tree keeps refitting on its own.
    const other = smallTerrain();
    const coarser = copyOf(generateTerrain({ cells: 16, seed: 2 }));
    const coarserTree = buildBVH(coarser.positions, coarser.indices);
    const fresh = buildBVH(other.positions, other.indices, { builder: 'wasm' });
    expect(() => adoptRefitState(fresh, structuredClone(prepareRefit(coarserTree)))).toThrow(/another tree/);
    expect(refitBVH(fresh, bowl(other, 0, 0, 10, -5)).full).toBe(true);
    expectCorrect(other, fresh, 98);
  });

  it('NaN in the mesh: an InvalidParameterError naming the coordinate, nothing left behind', () => {
    const mesh = smallTerrain();
    const bvh = buildBVH(mesh.positions, mesh.indices);
    mesh.positions[31] = NaN;
    expect(() => prepareRefit(bvh)).toThrow(InvalidParameterError);
    expect(() => prepareRefit(bvh)).toThrow(/positions\[31\]/);
    expect(refitPrepared(bvh)).toBe(false);
  });
});

describe('refitBVH rejects bad input and leaves the tree untouched', () => {
  const snapshot = (bvh: BVH): number[] => [...bvh.quantized!.u16, ...bvh.quantized!.rootFrame, bvhRevision(bvh)];

  it('duplicate ids are fine; an id out of range or a bad count is an InvalidParameterError naming it', () => {
    const mesh = smallTerrain();
    const bvh = buildBVH(mesh.positions, mesh.indices);
    refitBVH(bvh, null);
    const ids = bowl(mesh, 5, 5, 10, -6);
    const doubled = new Uint32Array([...ids, ...ids, ids[0]!]);
    const report: RefitReport = refitBVH(bvh, doubled);
    expect(report.triangles).toBe(doubled.length);
    expectTreeContainsTriangles(bvh);
    const before = snapshot(bvh);
    const bad = new Uint32Array([...ids, 1_000_000]);
    expect(() => refitBVH(bvh, bad)).toThrow(InvalidParameterError);
    expect(() => refitBVH(bvh, bad)).toThrow(`triangles[${ids.length}]`);
    expect(() => refitBVH(bvh, ids, ids.length + 1)).toThrow(/count/);
    expect(() => refitBVH(bvh, ids, -1)).toThrow(/count/);
    expect(() => refitBVH(bvh, [1, 2] as unknown as Uint32Array)).toThrow(/triangles/);
    expect(() => refitBVH(bvh, ids, undefined, { narrowRatio: 0.5 })).toThrow(/narrowRatio/);
    expect(snapshot(bvh)).toEqual(before);
    // Only the first `count` ids are read.
    expect(refitBVH(bvh, bad, ids.length).triangles).toBe(ids.length);
  });

  it('NaN and infinite coordinates: an InvalidParameterError naming the coordinate, before anything changes', () => {
    const mesh = smallTerrain();
    const bvh = buildBVH(mesh.positions, mesh.indices);
    refitBVH(bvh, null);
    const before = snapshot(bvh);
    for (const value of [NaN, Infinity, -Infinity]) {
      const v = mesh.indices[3 * 100]!;
      const saved = mesh.positions[3 * v + 1]!;
      mesh.positions[3 * v + 1] = value;
      expect(() => refitBVH(bvh, new Uint32Array([99, 100]))).toThrow(`positions[${3 * v + 1}]`);
      expect(() => refitBVH(bvh, null)).toThrow(InvalidParameterError);
      expect(snapshot(bvh)).toEqual(before);
      mesh.positions[3 * v + 1] = saved;
    }
    // Also on the first refit of a BVH (no state yet).
    const fresh = buildBVH(mesh.positions.slice(), mesh.indices);
    fresh.positions[4] = NaN;
    const untouched = snapshot(fresh);
    expect(() => refitBVH(fresh, new Uint32Array([0, 1, 2, 3]))).toThrow(InvalidParameterError);
    expect(snapshot(fresh)).toEqual(untouched);
  });
});
