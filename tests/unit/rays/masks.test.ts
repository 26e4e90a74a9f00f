import { beforeAll, describe, expect, it } from 'vitest';
import { MASK_ALL, buildBVH, nodeMaskIndexOf, quantizedChildWord, type BVH, type MaterialInput } from '../../../src/bvh/index';
import { CHILD_TYPE_NODE, childIndex, childType } from '../../../src/bvh/childWord';
import { InvalidParameterError } from '../../../src/errors';
import { Random } from '../../../src/math/random';
import { castRays, castRaysBruteForce, traceRay, type RayBatch } from '../../../src/query/rays/index';
import { TERRAIN_MATERIAL, generateTerrain, materialFilter, terrainMaterialInput, type TerrainMesh } from '../../../src/terrain/index';
import { triangleSoup } from '../bvh/meshes';
import { cameraRays, emptyHits, meshBounds, randomRays } from './raySets';
import { randomMaterials } from '../bvh/randomMaterials';

let terrain: TerrainMesh;
let terrainBvh: BVH;
let terrainRays: RayBatch;
beforeAll(() => {
  // Water at a fifth of the height so the lakes are large enough to matter.
  terrain = generateTerrain({ cells: 40, seed: 17, waterLevel: 0.2, snowLevel: 0.7 });
  terrainBvh = buildBVH(terrain.positions, terrain.indices, {}, terrainMaterialInput(terrain));
  const bounds = meshBounds(terrain.positions);
  terrainRays = concatRays(randomRays(5, 300, bounds), cameraRays(16, bounds));
});

function concatRays(a: RayBatch, b: RayBatch): RayBatch {
  const count = a.count + b.count;
  const origins = new Float32Array(3 * count);
  const directions = new Float32Array(3 * count);
  const tMax = new Float32Array(count);
  origins.set(a.origins.subarray(0, 3 * a.count));
  origins.set(b.origins.subarray(0, 3 * b.count), 3 * a.count);
  directions.set(a.directions.subarray(0, 3 * a.count));
  directions.set(b.directions.subarray(0, 3 * b.count), 3 * a.count);
  tMax.set(a.tMax.subarray(0, a.count));
  tMax.set(b.tMax.subarray(0, b.count), a.count);
  return { count, origins, directions, tMax };
}

/** castRays with `filter` against the brute force that skips filtered triangles; returns the hits. */
function expectFilteredHits(
  mesh: { positions: Float32Array; indices: Uint32Array },
  materials: MaterialInput,
  bvh: BVH,
  rays: RayBatch,
  filter: number,
  layout: 'quantized' | 'float' = 'quantized',
): number {
  const expected = emptyHits(rays.count);
  castRaysBruteForce(mesh.positions, mesh.indices, rays, expected, { filter, materials });
  const actual = emptyHits(rays.count);
  const counters = castRays(bvh, rays, actual, { filter, layout });
  let hits = 0;
  for (let i = 0; i < rays.count; i++) {
    if (expected.triangle[i]! >= 0) hits++;
    const sameTriangle = expected.triangle[i] === actual.triangle[i];
    const sameT = Object.is(expected.t[i], actual.t[i]) || Math.abs(expected.t[i]! - actual.t[i]!) <= 1e-5 * Math.abs(expected.t[i]!);
    // Two kept triangles meeting at the hit point may tie; the distance must agree either way.
    if (!(sameTriangle || (expected.triangle[i]! >= 0 && actual.triangle[i]! >= 0)) || !sameT)
      expect({ ray: i, filter, expected: [expected.triangle[i], expected.t[i]], actual: [actual.triangle[i], actual.t[i]] }).toBeNull();
    if (actual.triangle[i]! >= 0) expect((materials.masks[materials.ids[actual.triangle[i]!]!]! & filter) !== 0).toBe(true);
  }
  expect(counters.hits).toBe(hits);
  return hits;
}

describe('collision masks on the terrain (seed 17)', () => {
  it('gives every terrain material some triangles', () => {
    const counts = [0, 0, 0, 0];
    for (const id of terrain.materials) counts[id]!++;
    for (const count of counts) expect(count).toBeGreaterThan(0);
  });

  it('every filter equals the brute force that skips filtered triangles, both layouts', () => {
    const input = terrainMaterialInput(terrain);
    const filters = [MASK_ALL, 0, materialFilter(['grass', 'rock', 'snow']), materialFilter(['water']), materialFilter(['rock', 'snow']), 2 ** 31];
    for (const filter of filters)
      for (const layout of ['quantized', 'float'] as const) expectFilteredHits(terrain, input, terrainBvh, terrainRays, filter, layout);
  });

  it('a filter that rejects everything hits nothing and visits no node; one that rejects nothing changes nothing', () => {
    const none = emptyHits(terrainRays.count);
    const counters = castRays(terrainBvh, terrainRays, none, { filter: 0 });
    expect(Array.from(none.triangle.subarray(0, terrainRays.count)).every((t) => t === -1)).toBe(true);
    expect(counters.nodesVisited).toBe(0);
    expect(counters.subtreesMasked).toBe(terrainRays.count);
    const all = emptyHits(terrainRays.count);
    const unfiltered = emptyHits(terrainRays.count);
    const allCounters = castRays(terrainBvh, terrainRays, all, { filter: MASK_ALL });
    castRays(terrainBvh, terrainRays, unfiltered);
    expect(all.triangle).toEqual(unfiltered.triangle);
    expect(allCounters.subtreesMasked + allCounters.trianglesMasked).toBe(0);
  });

  it('ignoring water lets rays reach the lake beds, and cuts subtrees', () => {
    const dry = materialFilter(['grass', 'rock', 'snow']);
    const hits = emptyHits(terrainRays.count);
    const counters = castRays(terrainBvh, terrainRays, hits, { filter: dry });
    const everything = emptyHits(terrainRays.count);
    castRays(terrainBvh, terrainRays, everything);
    let changed = 0;
    for (let i = 0; i < terrainRays.count; i++) {
      const before = everything.triangle[i]!;
      if (before >= 0 && terrain.materials[before] === TERRAIN_MATERIAL.water) {
        changed++;
        expect(hits.triangle[i]).not.toBe(before);
      }
    }
    expect(changed).toBeGreaterThan(0);
    expect(counters.trianglesMasked).toBeGreaterThan(0);
    // Only water: everything else is cut, so far fewer nodes are entered.
    const wet = castRays(terrainBvh, terrainRays, emptyHits(terrainRays.count), { filter: materialFilter(['water']) });
    const all = castRays(terrainBvh, terrainRays, emptyHits(terrainRays.count));
    expect(wet.subtreesMasked).toBeGreaterThan(0);
    expect(wet.nodesVisited).toBeLessThan(all.nodesVisited);
  });

  it('traceRay takes the filter too', () => {
    const bounds = meshBounds(terrain.positions);
    const origin = [0, bounds.max[1] + 20, 0];
    const down = [0.01, -1, 0.02];
    const everything = traceRay(terrainBvh, origin, down);
    const nothing = traceRay(terrainBvh, origin, down, Infinity, { filter: 0 });
    expect(everything.triangle).toBeGreaterThanOrEqual(0);
    expect(nothing.triangle).toBe(-1);
    expect(nothing.visited.length).toBe(0);
  });
});

describe('collision masks on random soups with random 32-bit masks', () => {
  for (const seed of [1, 2, 3]) {
    it(`random filters equal brute force, nodes hold the union of their subtree (seed ${seed})`, () => {
      const random = new Random(seed);
      const soup = triangleSoup(seed, 600);
      const materials = randomMaterials(random, soup.indices.length / 3, 2 + random.int(12));
      const bvh = buildBVH(soup.positions, soup.indices, {}, materials);
      expectNodeUnions(bvh, materials);
      const rays = randomRays(seed + 100, 200, meshBounds(soup.positions));
      for (let k = 0; k < 6; k++) expectFilteredHits(soup, materials, bvh, rays, random.nextUint32());
      expectFilteredHits(soup, materials, bvh, rays, MASK_ALL);
    });
  }

  it('more distinct unions than a table holds fall back to MASK_ALL and stay correct (seed 9)', () => {
    const random = new Random(9);
    const soup = triangleSoup(9, 3000);
    const masks = new Uint32Array(256);
    for (let m = 0; m < 256; m++) masks[m] = random.nextUint32() | 1;
    const ids = new Uint8Array(soup.indices.length / 3);
    for (let t = 0; t < ids.length; t++) ids[t] = random.int(256);
    const materials = { ids, masks };
    const bvh = buildBVH(soup.positions, soup.indices, {}, materials);
    expect(bvh.masks.nodeMaskCount).toBeLessThanOrEqual(256);
    expectNodeUnions(bvh, materials);
    const rays = randomRays(19, 150, meshBounds(soup.positions));
    for (let k = 0; k < 4; k++) expectFilteredHits(soup, materials, bvh, rays, random.nextUint32());
  });

  it('materials follow a reordered mesh (seed 4)', () => {
    const random = new Random(4);
    const soup = triangleSoup(4, 500);
    const materials = randomMaterials(random, soup.indices.length / 3, 5);
    const originalIndices = soup.indices.slice();
    const bvh = buildBVH(soup.positions, soup.indices, { reorderTriangles: true, spatialSplits: false }, materials);
    expect(bvh.triangleOrder).toBeNull();
    // The BVH's ids now name the reordered mesh: its materials must be permuted the same way.
    const key = (ix: Uint32Array, t: number): string => `${ix[3 * t]},${ix[3 * t + 1]},${ix[3 * t + 2]}`;
    const materialOf = new Map<string, number>();
    for (let t = 0; t < materials.ids.length; t++) materialOf.set(key(originalIndices, t), materials.ids[t]!);
    for (let t = 0; t < materials.ids.length; t++) expect(bvh.masks.materialIds[t]).toBe(materialOf.get(key(soup.indices, t)));
    const rays = randomRays(14, 150, meshBounds(soup.positions));
    for (let k = 0; k < 4; k++) expectFilteredHits(soup, { ids: bvh.masks.materialIds, masks: materials.masks }, bvh, rays, random.nextUint32());
  });
});

/** Each node's mask covers every triangle below it, and equals their union unless the table overflowed. */
function expectNodeUnions(bvh: BVH, materials: MaterialInput): void {
  const nodes = bvh.quantized!;
  const { nodeMasks } = bvh.masks;
  const unionBelow = (node: number): number => {
    let union = 0;
    for (let s = 0; s < 4; s++) {
      const word = quantizedChildWord(nodes.u32, node, s);
      const type = childType(word);
      if (type === CHILD_TYPE_NODE) union |= unionBelow(childIndex(word));
      else if (type > 1)
        for (let k = childIndex(word); k < childIndex(word) + type - 1; k++) {
          const triangle = bvh.triangleOrder === null ? k : bvh.triangleOrder[k]!;
          union |= materials.masks[materials.ids[triangle]!]!;
        }
    }
    return union >>> 0;
  };
  for (let node = 0; node < nodes.nodeCount; node++) {
    const stored = nodeMasks[nodeMaskIndexOf(quantizedChildWord(nodes.u32, node, 0), quantizedChildWord(nodes.u32, node, 1))]!;
    const union = unionBelow(node);
    if (stored !== MASK_ALL) expect(stored).toBe(union);
    else expect((stored & union) >>> 0).toBe(union);
  }
}

describe('bad masks and filters', () => {
  it('names a filter that is not a 32-bit unsigned integer', () => {
    const rays = randomRays(3, 4, meshBounds(terrain.positions));
    for (const filter of [-1, 1.5, 2 ** 32, NaN, '3' as unknown as number]) {
      expect(() => castRays(terrainBvh, rays, emptyHits(4), { filter })).toThrow(InvalidParameterError);
      expect(() => castRays(terrainBvh, rays, emptyHits(4), { filter })).toThrow(/filter/);
    }
  });

  it('names material ids out of range and tables over 256 entries', () => {
    const soup = triangleSoup(2, 10);
    const ids = new Uint8Array(10);
    ids[7] = 3;
    expect(() => buildBVH(soup.positions, soup.indices, {}, { ids, masks: new Uint32Array(3) })).toThrow(/materials\.ids\[7\]/);
    expect(() => buildBVH(soup.positions, soup.indices, {}, { ids: new Uint8Array(9), masks: new Uint32Array(3) })).toThrow(/materials\.ids/);
    expect(() => buildBVH(soup.positions, soup.indices, {}, { ids: new Uint8Array(10), masks: new Uint32Array(257) })).toThrow(/materials\.masks/);
    expect(() => buildBVH(soup.positions, soup.indices, {}, { ids: new Uint8Array(10), masks: new Uint32Array(0) })).toThrow(/materials\.masks/);
  });
});
