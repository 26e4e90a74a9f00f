import { describe, expect, it } from 'vitest';
import {
  ParticleSystem,
  Sandbox,
  TERRAIN_MATERIAL,
  buildBVH,
  generateTerrain,
  loadSimdParticles,
  loadSimdRays,
  parseScene,
  particleEffectPreset,
  simdParticleKernel,
  terrainMaterialInput,
  type ParticleEffectParams,
  type TerrainMesh,
} from '../../../src/core';
import { HeightfieldNet } from '../../../src/particles/heightfieldNet';
import { PLANE_CONTACT, PLANE_RAY, ParticleBuffers } from '../../../src/particles/particleBuffers';
import { Random } from '../../../src/math/random';

/** A flat grid whose vertex heights are then set to height(x, z): the adversarial shapes. */
function shapedTerrain(cells: number, worldSize: number, height: (x: number, z: number) => number): TerrainMesh {
  const terrain = generateTerrain({ cells, worldSize, heightScale: 0 });
  const { positions, heights } = terrain;
  let low = Infinity,
    high = -Infinity;
  for (let v = 0; v < heights.length; v++) {
    const y = height(positions[3 * v]!, positions[3 * v + 2]!);
    heights[v] = positions[3 * v + 1] = y;
    low = Math.min(low, y);
    high = Math.max(high, y);
  }
  terrain.minHeight = low;
  terrain.maxHeight = high;
  return terrain;
}

/** The ground under x, z by brute force: the mesh triangle whose xz projection holds the point, its plane (float64). */
function groundByTriangles(terrain: TerrainMesh, x: number, z: number): { y: number; n: [number, number, number] } | null {
  const { positions: p, indices } = terrain;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [3 * indices[t]!, 3 * indices[t + 1]!, 3 * indices[t + 2]!];
    const [ax, az, bx, bz, cx, cz] = [p[a]!, p[a + 2]!, p[b]!, p[b + 2]!, p[c]!, p[c + 2]!];
    const det = (bz - cz) * (ax - cx) + (cx - bx) * (az - cz);
    const wa = ((bz - cz) * (x - cx) + (cx - bx) * (z - cz)) / det;
    const wb = ((cz - az) * (x - cx) + (ax - cx) * (z - cz)) / det;
    const wc = 1 - wa - wb;
    if (wa < -1e-9 || wb < -1e-9 || wc < -1e-9) continue;
    const y = wa * p[a + 1]! + wb * p[b + 1]! + wc * p[c + 1]!;
    // Normal of the triangle, up.
    const ux = bx - ax,
      uy = p[b + 1]! - p[a + 1]!,
      uz = bz - az,
      vx = cx - ax,
      vy = p[c + 1]! - p[a + 1]!,
      vz = cz - az;
    let nx = uy * vz - uz * vy,
      ny = uz * vx - ux * vz,
      nz = ux * vy - uy * vx;
    const length = Math.hypot(nx, ny, nz) * Math.sign(ny);
    nx /= length;
    ny /= length;
    nz /= length;
    return { y, n: [nx, ny, nz] };
  }
  return null;
}

const RADIUS = 0.05;

/**
 * Particles over `terrain` at random x, z (some off the grid), above and below the ground (none
 * within 1e-3 of it, where float32 storage decides), some dead; the net against the brute-force ground.
 */
function checkAgainstBruteForce(terrain: TerrainMesh, seed: number, count: number): number {
  const random = new Random(seed);
  const b = new ParticleBuffers(count);
  const half = terrain.params.worldSize / 2;
  const grounds: ({ y: number; n: [number, number, number] } | null)[] = [];
  for (let i = 0; i < count; i++) {
    const x = (random.next() * 2.2 - 1.1) * half;
    const z = (random.next() * 2.2 - 1.1) * half;
    b.positions[4 * i] = x;
    b.positions[4 * i + 2] = z;
    const ground = groundByTriangles(terrain, b.positions[4 * i]!, b.positions[4 * i + 2]!);
    grounds.push(ground);
    let y = (ground?.y ?? 0) + (random.next() - 0.5) * 4;
    if (Math.abs(y - (ground?.y ?? 0)) < 1e-3) y += 2e-3;
    b.positions[4 * i + 1] = y;
    for (let k = 0; k < 3; k++) b.velocities[4 * i + k] = (random.next() - 0.5) * 10;
    b.planes.set([0, 1, 0, -1e9], 4 * i);
    b.planeSources[i] = PLANE_RAY;
    b.lifetimes[i] = random.next() < 0.1 ? 0 : 1;
  }
  const before = { positions: b.positions.slice(), velocities: b.velocities.slice(), planes: b.planes.slice() };
  const caught = new HeightfieldNet(terrain).catch(b, 0, count, RADIUS);
  let expected = 0;
  for (let i = 0; i < count; i++) {
    const i4 = 4 * i;
    const ground = grounds[i]!;
    const under = ground !== null && b.lifetimes[i] !== 0 && before.positions[i4 + 1]! < ground.y;
    if (!under) {
      // Untouched, bit for bit.
      expect([...b.positions.subarray(i4, i4 + 4), ...b.velocities.subarray(i4, i4 + 4), ...b.planes.subarray(i4, i4 + 4)]).toEqual([
        ...before.positions.subarray(i4, i4 + 4),
        ...before.velocities.subarray(i4, i4 + 4),
        ...before.planes.subarray(i4, i4 + 4),
      ]);
      expect(b.planeSources[i]).toBe(PLANE_RAY);
      continue;
    }
    expected++;
    const [nx, ny, nz] = ground.n;
    // Same x, z; lifted to `radius` in front of the triangle's plane; the plane is the triangle's.
    expect(b.positions[i4]).toBe(before.positions[i4]);
    expect(b.positions[i4 + 2]).toBe(before.positions[i4 + 2]);
    expect((b.positions[i4 + 1]! - ground.y) * ny).toBeCloseTo(RADIUS, 3);
    expect(b.planes[i4]).toBeCloseTo(nx, 5);
    expect(b.planes[i4 + 1]).toBeCloseTo(ny, 5);
    expect(b.planes[i4 + 2]).toBeCloseTo(nz, 5);
    expect(nx * b.positions[i4]! + ny * ground.y + nz * b.positions[i4 + 2]! - b.planes[i4 + 3]!).toBeCloseTo(0, 3);
    expect(b.planeSources[i]).toBe(PLANE_CONTACT);
    // No speed into the ground is left; speed along it is kept.
    const [vx, vy, vz] = [before.velocities[i4]!, before.velocities[i4 + 1]!, before.velocities[i4 + 2]!];
    const vn = vx * nx + vy * ny + vz * nz;
    const after = [b.velocities[i4]!, b.velocities[i4 + 1]!, b.velocities[i4 + 2]!];
    const keptVn = Math.max(vn, 0);
    expect(after[0]).toBeCloseTo(vx - (vn - keptVn) * nx, 4);
    expect(after[1]).toBeCloseTo(vy - (vn - keptVn) * ny, 4);
    expect(after[2]).toBeCloseTo(vz - (vn - keptVn) * nz, 4);
  }
  expect(caught).toBe(expected);
  return caught;
}

describe('the heightfield net against brute force (every mesh triangle)', () => {
  it('random steep terrain: catches exactly the particles under their triangle and puts them on it (seeds 1–3)', () => {
    for (const seed of [1, 2, 3]) {
      const terrain = generateTerrain({ cells: 16, worldSize: 8, heightScale: 12, seed, kind: 'hetero' });
      expect(checkAgainstBruteForce(terrain, seed, 400)).toBeGreaterThan(50);
    }
  });

  it('adversarial shapes: a V valley, a vertical step (a wall one cell wide), a spike', () => {
    const shapes: Record<string, (x: number, z: number) => number> = {
      'V valley': (x) => 6 * Math.abs(x),
      wall: (x) => (x > 0.1 ? 20 : 0),
      spike: (x, z) => (Math.abs(x) < 0.01 && Math.abs(z) < 0.01 ? 30 : 0),
    };
    for (const [name, height] of Object.entries(shapes)) {
      const terrain = shapedTerrain(16, 4, height);
      expect(checkAgainstBruteForce(terrain, name.length, 400), name).toBeGreaterThan(50);
    }
  });

  it('triangles whose material is not kept catch nothing', () => {
    const terrain = generateTerrain({ cells: 16, worldSize: 16, heightScale: 4, seed: 3, waterLevel: 0.5 });
    const b = new ParticleBuffers(64);
    for (let i = 0; i < 64; i++) {
      b.positions.set([((i % 8) - 3.5) * 1.9, -10, (Math.floor(i / 8) - 3.5) * 1.9], 4 * i);
      b.lifetimes[i] = 1;
    }
    const net = new HeightfieldNet(terrain);
    net.keepMaterials((m) => m !== TERRAIN_MATERIAL.water);
    const caught = net.catch(b, 0, 64, RADIUS);
    const water = terrain.materials.filter((m) => m === TERRAIN_MATERIAL.water).length;
    expect(water).toBeGreaterThan(0);
    expect(caught).toBeGreaterThan(0);
    expect(caught).toBeLessThan(64);
    let stillUnder = 0;
    for (let i = 0; i < 64; i++) stillUnder += b.positions[4 * i + 1] === -10 ? 1 : 0;
    expect(caught + stillUnder).toBe(64);
  });
});

/** Sparks and debris raining on `terrain`, 20 rays a frame; the totals after `frames`. */
function rain(terrain: TerrainMesh, options: { heightfieldNet: boolean; kernel?: 'typescript' | 'wasm-simd' }, frames = 180): ParticleSystem {
  const sandbox = new Sandbox(
    parseScene({ name: 'net', seed: 1, terrain: { cells: terrain.params.cells, worldSize: terrain.params.worldSize } }),
    terrain,
  );
  sandbox.setBvh(buildBVH(terrain.positions, terrain.indices, {}, terrainMaterialInput(terrain)));
  const at = (x: number, z: number): [number, number, number] => [x, terrain.maxHeight + 1, z];
  const effects: ParticleEffectParams[] = [
    Object.assign(particleEffectPreset('sparks', at(-0.3, 0.2)), { rate: 600, speed: 6, budget: 10 }),
    Object.assign(particleEffectPreset('debris', at(0.4, -0.2)), { rate: 300, speed: 4, budget: 10 }),
  ];
  const system = new ParticleSystem(effects, { seed: 4, ...options }, false);
  sandbox.addSystem(system);
  for (let frame = 0; frame < frames; frame++) sandbox.step(1 / 60);
  return system;
}

describe('the heightfield net scan in WebAssembly (findUnder)', () => {
  it('finds exactly the particles the TypeScript scan catches: random, off the grid, on its edges, NaN (seeds 1–4)', async () => {
    expect(await loadSimdParticles()).not.toBeNull();
    const kernel = simdParticleKernel()!;
    for (const seed of [1, 2, 3, 4]) {
      const terrain = generateTerrain({ cells: 16, worldSize: 8, heightScale: 12, seed, kind: 'ridged' });
      const count = 203;
      const b = kernel.createResident(count, [], terrain.heights.length);
      const random = new Random(seed);
      const half = 4;
      for (let i = 0; i < count; i++) {
        const edge = i % 7 === 0 ? half : i % 11 === 0 ? -half : NaN;
        const x = Number.isNaN(edge) ? (random.next() * 2.2 - 1.1) * half : edge;
        const z = i % 13 === 0 ? Math.round(random.next() * 16) * 0.5 - half : (random.next() * 2.2 - 1.1) * half;
        b.positions.set([i === 5 ? NaN : x, 6 * random.next() + 1 - 0.5 * (i % 3), z], 4 * i);
        b.lifetimes[i] = i % 17 === 0 ? 0 : 1;
      }
      expect(kernel.loadHeights(b, terrain.heights)).toBe(true);
      const net = new HeightfieldNet(terrain);
      const found = kernel.findUnder(b, 0, count, net.cells, net.half, net.inverseSpacing);
      const list = [...b.askers.subarray(0, found)];
      b.planeSources.fill(0);
      const caught = net.catch(b, 0, count, RADIUS);
      const expected = [...b.planeSources.keys()].filter((i) => b.planeSources[i] === PLANE_CONTACT);
      expect(found).toBe(caught);
      expect(list).toEqual(expected);
      expect(found).toBeGreaterThan(10);
    }
  });
});

describe('the heightfield net in the particle system', () => {
  it('nothing falls through a V valley, a wall or a spike on a budget; the planes alone let some through', () => {
    const shapes: [string, (x: number, z: number) => number][] = [
      ['V valley', (x) => 8 * Math.abs(x)],
      ['wall', (x) => (x > 0 ? 6 : 0)],
      ['spikes', (x, z) => ((Math.round(x * 4) + Math.round(z * 4)) % 2 === 0 ? 3 : 0)],
    ];
    for (const [name, height] of shapes) {
      const netted = rain(shapedTerrain(16, 4, height), { heightfieldNet: true });
      const alone = rain(shapedTerrain(16, 4, height), { heightfieldNet: false });
      expect(netted.totals.lives, name).toBeGreaterThan(500);
      expect(netted.totals.fellThroughLives, name).toBe(0);
      expect(netted.totals.caught, name).toBeGreaterThan(0);
      expect(alone.totals.fellThroughLives, name).toBeGreaterThan(0);
    }
  });

  it('the TypeScript and WebAssembly kernels stay bit for bit alike with the net catching', async () => {
    expect(await loadSimdRays()).not.toBeNull();
    expect(await loadSimdParticles()).not.toBeNull();
    const terrain = (): TerrainMesh => shapedTerrain(16, 4, (x) => 8 * Math.abs(x));
    const simd = rain(terrain(), { heightfieldNet: true, kernel: 'wasm-simd' }, 120);
    const typescript = rain(terrain(), { heightfieldNet: true, kernel: 'typescript' }, 120);
    expect(simd.simdInUse().move).toBe(true);
    // The scan ran on the kernel's copy of the heights.
    expect(simdParticleKernel()!.heightRoom(simd.buffers)).toBe(17 * 17);
    expect(simd.totals.caught).toBeGreaterThan(0);
    expect(simd.totals).toEqual(typescript.totals);
    expect(simd.buffers.positions).toEqual(typescript.buffers.positions);
    expect(simd.buffers.velocities).toEqual(typescript.buffers.velocities);
    expect(simd.buffers.planes).toEqual(typescript.buffers.planes);
  });

  it('a mesh terrain (no exact heightfield) gets no net', () => {
    const terrain = shapedTerrain(16, 4, (x) => 8 * Math.abs(x));
    terrain.source = 'valley.obj';
    const system = rain(terrain, { heightfieldNet: true }, 90);
    expect(system.totals.caught).toBe(0);
  });
});
