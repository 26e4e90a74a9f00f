import * as THREE from 'three';
import { TERRAIN_MATERIAL_NAMES, type TerrainColouring } from '../core';
import type { Legend } from './legend';

export { TERRAIN_COLOURINGS, type TerrainColouring } from '../core';

/**
 * Vertex colours for the terrain from height and slope: a palette indexed by normalised height, with
 * steep faces pushed towards rock. Written straight into a caller-owned Float32Array (rgb per vertex);
 * or, for 'material', from the triangles' collision materials (writeMaterialColors).
 */

/** Linear rgb of each terrain material, by material id (grass, rock, snow, water); the legend shows the same. */
export const MATERIAL_COLOURS: readonly (readonly [number, number, number])[] = [
  [0.13, 0.4, 0.07],
  [0.3, 0.22, 0.16],
  [0.9, 0.92, 0.95],
  [0.02, 0.16, 0.6],
];

/** The key of the material colouring (the vertex colours are linear; the swatches show their sRGB). */
export const MATERIAL_LEGEND: Legend = {
  title: 'terrain materials',
  swatches: TERRAIN_MATERIAL_NAMES.map((name, id) => {
    const [r, g, b] = MATERIAL_COLOURS[id]!;
    return { label: `${name} · bit ${id}`, colour: new THREE.Color().setRGB(r, g, b, THREE.LinearSRGBColorSpace).getStyle() };
  }),
};

/**
 * Vertex colours from the materials of the triangles around each vertex (the most common one; ties go
 * to water, then rock, snow, grass), since the surface shares its vertices between triangles: a border
 * between materials blends across one cell.
 */
export function writeMaterialColors(indices: Uint32Array, materials: Uint8Array, out: Float32Array): void {
  const vertexCount = out.length / 3;
  const kinds = MATERIAL_COLOURS.length;
  const counts = new Uint8Array(vertexCount * kinds);
  const triangleCount = Math.min(indices.length / 3, materials.length);
  for (let t = 0; t < triangleCount; t++) {
    const m = materials[t]!;
    if (m >= kinds) continue;
    for (let k = 0; k < 3; k++) {
      const slot = indices[3 * t + k]! * kinds + m;
      if (counts[slot]! < 255) counts[slot]!++;
    }
  }
  const priority = [3, 1, 2, 0];
  for (let v = 0; v < vertexCount; v++) {
    let best = 0;
    let bestCount = -1;
    for (const m of priority) {
      const c = counts[v * kinds + m]!;
      if (c > bestCount) {
        best = m;
        bestCount = c;
      }
    }
    const colour = MATERIAL_COLOURS[best]!;
    out[3 * v] = colour[0];
    out[3 * v + 1] = colour[1];
    out[3 * v + 2] = colour[2];
  }
}

// Palette stops: normalised height → rgb (linear-ish sRGB values; three.js converts on output).
const STOP_HEIGHT = [0, 0.12, 0.3, 0.55, 0.78, 1];
const STOP_RED = [0.16, 0.3, 0.42, 0.45, 0.52, 0.95];
const STOP_GREEN = [0.25, 0.42, 0.5, 0.4, 0.48, 0.96];
const STOP_BLUE = [0.14, 0.2, 0.22, 0.28, 0.42, 0.98];
const ROCK = [0.33, 0.3, 0.28];

export function writeTerrainColors(
  positions: Float32Array,
  normals: Float32Array,
  minHeight: number,
  maxHeight: number,
  colouring: TerrainColouring,
  out: Float32Array,
): void {
  const vertexCount = positions.length / 3;
  const inverseRange = maxHeight > minHeight ? 1 / (maxHeight - minHeight) : 0;
  for (let v = 0; v < vertexCount; v++) {
    const h = (positions[3 * v + 1]! - minHeight) * inverseRange;
    // Steepness: 0 for flat ground, 1 for a vertical wall.
    const steep = 1 - normals[3 * v + 1]!;
    let r = 0.62;
    let g = 0.6;
    let b = 0.56;
    if (colouring === 'height' || colouring === 'height+slope') {
      let k = 0;
      while (k < STOP_HEIGHT.length - 2 && h > STOP_HEIGHT[k + 1]!) k++;
      const span = STOP_HEIGHT[k + 1]! - STOP_HEIGHT[k]!;
      const f = Math.min(Math.max((h - STOP_HEIGHT[k]!) / span, 0), 1);
      r = STOP_RED[k]! + f * (STOP_RED[k + 1]! - STOP_RED[k]!);
      g = STOP_GREEN[k]! + f * (STOP_GREEN[k + 1]! - STOP_GREEN[k]!);
      b = STOP_BLUE[k]! + f * (STOP_BLUE[k + 1]! - STOP_BLUE[k]!);
    }
    if (colouring === 'height+slope') {
      // Snow does not stick to cliffs and grass does not grow on them: blend towards rock with slope.
      const rockiness = Math.min(Math.max((steep - 0.12) * 3.2, 0), 1);
      r += (ROCK[0]! - r) * rockiness;
      g += (ROCK[1]! - g) * rockiness;
      b += (ROCK[2]! - b) * rockiness;
    } else if (colouring === 'slope') {
      const s = Math.min(steep * 2.5, 1);
      r = 0.2 + 0.75 * s;
      g = 0.75 - 0.55 * s;
      b = 0.3 - 0.15 * s;
    }
    out[3 * v] = r;
    out[3 * v + 1] = g;
    out[3 * v + 2] = b;
  }
}
