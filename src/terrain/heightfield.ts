import { classifyTerrainMaterials } from './materials';
import { createGradientNoise } from './noise';
import { multifractal, planMultifractal } from './multifractal';
import { writeHeightfieldNormals } from './normals';
import { resolveTerrainParams, type TerrainParams } from './params';
import { currentWasmHeights } from './wasmHeights';

/**
 * An indexed triangle mesh over a square grid, y up, centred on the origin in x and z.
 * Vertex (column i, row j) is index j·(cells+1) + i at x = -size/2 + i·size/cells, z likewise with j.
 * Each cell holds two counter-clockwise (seen from +y) triangles split along the same diagonal.
 */
export interface TerrainMesh {
  params: TerrainParams;
  /** xyz per vertex. */
  positions: Float32Array;
  /** Three vertex indices per triangle. */
  indices: Uint32Array;
  /** Unit normal per vertex. */
  normals: Float32Array;
  /** Material id per triangle (materials.ts): grass, rock, snow or water. */
  materials: Uint8Array;
  /** Height of every vertex, row-major (the y of positions), for height look-ups without the mesh. */
  heights: Float32Array;
  /** Which code computed the heights: the WebAssembly kernel once loadWasmHeights has resolved (same values); absent for a mesh file. */
  heightsKernel?: 'typescript' | 'wasm';
  vertexCount: number;
  triangleCount: number;
  minHeight: number;
  maxHeight: number;
  /** Wall-clock generation time. */
  generationMs: number;
  /**
   * The mesh file this world's triangles were read from (a scene's `terrain.mesh`); absent for the
   * generated heightfield. Then `heights` is the top surface sampled on the grid (for placing things),
   * not the mesh itself, and edits, which move grid vertices, do not apply.
   */
  source?: string;
}

export type ProgressCallback = (fraction: number, stage: string) => void;

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/**
 * Generates the terrain. Heights are normalised to [0, heightScale] so every kind spans the same range.
 * Throws InvalidParameterError for any parameter outside its domain (NaN, 0 cells, negative octaves…).
 */
export function generateTerrain(input: Partial<TerrainParams> = {}, onProgress?: ProgressCallback): TerrainMesh {
  const params = resolveTerrainParams(input);
  const start = now();
  const { cells, worldSize, baseFrequency, heightScale } = params;
  const side = cells + 1;
  const vertexCount = side * side;
  const triangleCount = 2 * cells * cells;

  const plan = planMultifractal(createGradientNoise(params.seed), params);
  const heights = new Float32Array(vertexCount);
  const raw = new Float64Array(vertexCount);
  // Noise coordinates run over [0, baseFrequency) across the world; the offset moves the grid off the
  // noise lattice, where gradient noise is exactly zero.
  const noiseStep = baseFrequency / cells;
  const latticeOffset = 0.318309886;
  let lowest = Infinity;
  let highest = -Infinity;
  const kernel = currentWasmHeights();
  if (kernel !== null) kernel.fill(plan, side, noiseStep, latticeOffset, raw, (rows) => onProgress?.((0.7 * rows) / side, 'heights'));
  else {
    const progressRows = Math.max(1, Math.floor(side / 50));
    for (let row = 0; row < side; row++) {
      const ny = row * noiseStep + latticeOffset;
      const base = row * side;
      for (let col = 0; col < side; col++) raw[base + col] = multifractal(plan, col * noiseStep + latticeOffset, ny);
      if (onProgress !== undefined && row % progressRows === 0) onProgress((0.7 * row) / side, 'heights');
    }
  }
  for (let i = 0; i < vertexCount; i++) {
    const value = raw[i]!;
    if (value < lowest) lowest = value;
    if (value > highest) highest = value;
  }
  const range = highest - lowest;
  const scale = range > 0 && Number.isFinite(range) ? heightScale / range : 0;
  for (let i = 0; i < vertexCount; i++) heights[i] = (raw[i]! - lowest) * scale;

  const positions = new Float32Array(vertexCount * 3);
  const spacing = worldSize / cells;
  const half = worldSize / 2;
  for (let row = 0; row < side; row++) {
    const z = row * spacing - half;
    for (let col = 0; col < side; col++) {
      const v = row * side + col;
      positions[3 * v] = col * spacing - half;
      positions[3 * v + 1] = heights[v]!;
      positions[3 * v + 2] = z;
    }
  }
  onProgress?.(0.8, 'triangles');

  const indices = new Uint32Array(triangleCount * 3);
  let t = 0;
  for (let row = 0; row < cells; row++) {
    for (let col = 0; col < cells; col++) {
      const a = row * side + col; // (col, row)
      const b = a + 1; // (col+1, row)
      const c = a + side; // (col, row+1)
      const d = c + 1; // (col+1, row+1)
      // Counter-clockwise seen from +y (x right, z towards the viewer): a, c, b and b, c, d.
      indices[t++] = a;
      indices[t++] = c;
      indices[t++] = b;
      indices[t++] = b;
      indices[t++] = c;
      indices[t++] = d;
    }
  }
  onProgress?.(0.9, 'normals');

  const normals = new Float32Array(vertexCount * 3);
  writeHeightfieldNormals(heights, side, spacing, normals);
  const materials = classifyTerrainMaterials(positions, indices, params);
  onProgress?.(1, 'done');
  return {
    params,
    positions,
    indices,
    normals,
    materials,
    heights,
    heightsKernel: kernel !== null ? 'wasm' : 'typescript',
    vertexCount,
    triangleCount,
    minHeight: 0,
    maxHeight: range > 0 && Number.isFinite(range) ? heightScale : 0,
    generationMs: now() - start,
  };
}

/** Height of the triangulated surface at (x, z), matching the mesh exactly (same split diagonal). */
export function sampleTerrainHeight(mesh: TerrainMesh, x: number, z: number): number {
  const { cells, worldSize } = mesh.params;
  const spacing = worldSize / cells;
  const gx = Math.min(Math.max((x + worldSize / 2) / spacing, 0), cells);
  const gz = Math.min(Math.max((z + worldSize / 2) / spacing, 0), cells);
  const col = Math.min(Math.floor(gx), cells - 1);
  const row = Math.min(Math.floor(gz), cells - 1);
  const u = gx - col;
  const v = gz - row;
  const side = cells + 1;
  const h = mesh.heights;
  const ha = h[row * side + col]!;
  const hb = h[row * side + col + 1]!;
  const hc = h[(row + 1) * side + col]!;
  const hd = h[(row + 1) * side + col + 1]!;
  // Triangle (a, c, b) covers u + v ≤ 1; (b, c, d) the rest.
  return u + v <= 1 ? ha + u * (hb - ha) + v * (hc - ha) : hd + (1 - u) * (hc - hd) + (1 - v) * (hb - hd);
}
