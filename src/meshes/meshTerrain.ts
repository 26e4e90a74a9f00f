import { buildBVH, type BVH } from '../bvh/buildBVH';
import type { BuildOptions } from '../bvh/options';
import { castRays } from '../query/rays/castRays';
import type { RayBatch, RayHits } from '../query/rays/rayTypes';
import type { TerrainMesh } from '../terrain/heightfield';
import { classifyTerrainMaterials, TERRAIN_MATERIAL, terrainMaterialInput, type TerrainMaterialName } from '../terrain/materials';
import { resolveTerrainParams, TERRAIN_NUMBER_RULES } from '../terrain/params';
import { meshError, NO_MATERIAL, type LoadedMesh } from './meshBuilder';

export interface MeshTerrainOptions {
  /** Multiplies every coordinate (a file in centimetres: 0.01). */
  scale: number;
  /** Cells per side of the height grid sampled over the footprint (where systems place things). */
  cells: number;
  /** Which BVH builder makes the tree (the WebAssembly one once loadWasmBuilder has resolved). */
  builder?: BuildOptions['builder'];
}

/**
 * A mesh placed as the world's ground: scaled, centred on the origin in x and z with its lowest point
 * at y = 0 (where the generated terrain lies), its BVH built, and the fields systems read of a terrain
 * filled in: the footprint as worldSize (the larger side), the top surface as heights on a cells × cells
 * grid (a ray straight down at every grid point; the lowest point where it misses), normals, and
 * materials: a file material whose name says grass, rock, snow or water (fileMaterialClass) gives its
 * triangles that material, so the collision filters see it; the others go by slope (steeper than 38°:
 * rock, else grass). Returns the terrain and its BVH.
 */
export function meshTerrain(mesh: LoadedMesh, options: MeshTerrainOptions): { terrain: TerrainMesh; bvh: BVH } {
  const start = performance.now();
  const { scale } = options;
  const b = mesh.bounds;
  const centreX = (b[0]! + b[3]!) / 2;
  const centreZ = (b[2]! + b[5]!) / 2;
  const source = mesh.positions;
  const positions = new Float32Array(source.length);
  for (let v = 0; v < source.length; v += 3) {
    positions[v] = (source[v]! - centreX) * scale;
    positions[v + 1] = (source[v + 1]! - b[1]!) * scale;
    positions[v + 2] = (source[v + 2]! - centreZ) * scale;
  }
  const indices = mesh.indices;
  const side = Math.max(b[3]! - b[0]!, b[5]! - b[2]!) * scale;
  const height = (b[4]! - b[1]!) * scale;
  const sizeRule = TERRAIN_NUMBER_RULES.worldSize;
  const heightRule = TERRAIN_NUMBER_RULES.heightScale;
  if (!(side > sizeRule.min && side <= sizeRule.max)) {
    throw meshError(
      mesh.file,
      `the mesh's footprint is ${side} units across once scaled by ${scale}; it must be in (0, ${sizeRule.max}] (see terrain.scale)`,
    );
  }
  if (!(height <= heightRule.max)) {
    throw meshError(mesh.file, `the mesh is ${height} units tall once scaled by ${scale}; at most ${heightRule.max} (see terrain.scale)`);
  }
  const params = resolveTerrainParams({ cells: options.cells, worldSize: side, heightScale: height, waterLevel: 0, snowLevel: 1 });
  const materials = classifyTerrainMaterials(positions, indices, params);
  applyFileMaterials(mesh, materials);
  const bvh = buildBVH(positions, indices, { builder: options.builder ?? 'typescript' }, terrainMaterialInput({ materials }));
  const heights = topSurface(bvh, params.cells, side, height);
  const terrain: TerrainMesh = {
    params,
    positions,
    indices,
    normals: vertexNormals(positions, indices),
    materials,
    heights,
    vertexCount: positions.length / 3,
    triangleCount: indices.length / 3,
    minHeight: 0,
    maxHeight: height,
    generationMs: performance.now() - start,
    source: mesh.file,
  };
  return { terrain, bvh };
}

/** The highest surface under every point of a (cells + 1)² grid over the footprint, by rays cast straight down (0 where none is hit). */
function topSurface(bvh: BVH, cells: number, side: number, height: number): Float32Array {
  const count = (cells + 1) * (cells + 1);
  const rays: RayBatch = {
    count,
    origins: new Float32Array(3 * count),
    directions: new Float32Array(3 * count),
    tMax: new Float32Array(count).fill(Infinity),
  };
  const top = height + 1;
  for (let row = 0, i = 0; row <= cells; row++) {
    for (let col = 0; col <= cells; col++, i++) {
      rays.origins[3 * i] = -side / 2 + (col * side) / cells;
      rays.origins[3 * i + 1] = top;
      rays.origins[3 * i + 2] = -side / 2 + (row * side) / cells;
      rays.directions[3 * i + 1] = -1;
    }
  }
  const hits: RayHits = { t: new Float32Array(count), triangle: new Int32Array(count) };
  castRays(bvh, rays, hits, { doubleSided: true, kernel: 'wasm-simd' });
  const heights = new Float32Array(count);
  for (let i = 0; i < count; i++) heights[i] = hits.triangle[i]! >= 0 ? Math.max(0, top - hits.t[i]!) : 0;
  return heights;
}

/** Area-weighted vertex normals (unit length; straight up for a vertex no triangle uses). */
function vertexNormals(positions: Float32Array, indices: Uint32Array): Float32Array {
  const sums = new Float64Array(positions.length);
  for (let t = 0; t < indices.length; t += 3) {
    const a = 3 * indices[t]!;
    const b = 3 * indices[t + 1]!;
    const c = 3 * indices[t + 2]!;
    const ux = positions[b]! - positions[a]!;
    const uy = positions[b + 1]! - positions[a + 1]!;
    const uz = positions[b + 2]! - positions[a + 2]!;
    const vx = positions[c]! - positions[a]!;
    const vy = positions[c + 1]! - positions[a + 1]!;
    const vz = positions[c + 2]! - positions[a + 2]!;
    const nx = uy * vz - uz * vy;
    const ny = uz * vx - ux * vz;
    const nz = ux * vy - uy * vx;
    addTo(sums, a, nx, ny, nz);
    addTo(sums, b, nx, ny, nz);
    addTo(sums, c, nx, ny, nz);
  }
  const normals = new Float32Array(positions.length);
  for (let v = 0; v < positions.length; v += 3) {
    const length = Math.hypot(sums[v]!, sums[v + 1]!, sums[v + 2]!);
    if (length > 0) {
      normals[v] = sums[v]! / length;
      normals[v + 1] = sums[v + 1]! / length;
      normals[v + 2] = sums[v + 2]! / length;
    } else normals[v + 1] = 1;
  }
  return normals;
}

function addTo(sums: Float64Array, v: number, x: number, y: number, z: number): void {
  sums[v] = sums[v]! + x;
  sums[v + 1] = sums[v + 1]! + y;
  sums[v + 2] = sums[v + 2]! + z;
}

/**
 * The terrain material a file material's name asks for: the first of grass, rock, snow and water that
 * starts a word of it, in any case ("Pool_Water", "rocky ledge", "SNOW"), or null.
 */
export function fileMaterialClass(name: string): TerrainMaterialName | null {
  const match = /(?:^|[^a-z])(grass|rock|snow|water)/.exec(name.toLowerCase());
  return match === null ? null : (match[1] as TerrainMaterialName);
}

/** Gives the triangles of every file material that names a terrain material that material. */
function applyFileMaterials(mesh: LoadedMesh, materials: Uint8Array): void {
  const names = mesh.materialNames;
  const ofTriangle = mesh.triangleMaterials;
  if (names === undefined || ofTriangle === undefined) return;
  const classOf = Int16Array.from(names, (name) => {
    const terrainClass = fileMaterialClass(name);
    return terrainClass === null ? -1 : TERRAIN_MATERIAL[terrainClass];
  });
  for (let t = 0; t < materials.length; t++) {
    const fileMaterial = ofTriangle[t]!;
    if (fileMaterial === NO_MATERIAL) continue;
    const terrainClass = classOf[fileMaterial]!;
    if (terrainClass >= 0) materials[t] = terrainClass;
  }
}
