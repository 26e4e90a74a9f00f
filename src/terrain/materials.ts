import type { TerrainParams } from './params';

/**
 * The terrain's materials, one per triangle, for the collision masks: water below a level, rock on
 * steep slopes, snow up high, grass elsewhere. Material m's mask is bit m, so a filter is a set of
 * materials (e.g. everything but water: MASK_ALL & ~(1 << TERRAIN_MATERIAL.water)).
 */
export const TERRAIN_MATERIAL_NAMES = ['grass', 'rock', 'snow', 'water'] as const;
export type TerrainMaterialName = (typeof TERRAIN_MATERIAL_NAMES)[number];
export const TERRAIN_MATERIAL = Object.freeze({ grass: 0, rock: 1, snow: 2, water: 3 }) satisfies Readonly<Record<TerrainMaterialName, number>>;
/** material id → mask: one bit per material. */
export const TERRAIN_MATERIAL_MASKS: Uint32Array = Uint32Array.from(TERRAIN_MATERIAL_NAMES, (_, id) => 1 << id);

/** The mask bits of a set of material names. */
export const materialFilter = (names: readonly TerrainMaterialName[]): number =>
  names.reduce((filter, name) => (filter | (1 << TERRAIN_MATERIAL[name])) >>> 0, 0);

/** Material id of every triangle, from its centre's height and its steepness (triangle order of `indices`). */
export function classifyTerrainMaterials(
  positions: Float32Array,
  indices: Uint32Array,
  params: Pick<TerrainParams, 'heightScale' | 'waterLevel' | 'rockSlope' | 'snowLevel'>,
): Uint8Array {
  const triangleCount = indices.length / 3;
  const materials = new Uint8Array(triangleCount);
  const waterHeight = params.waterLevel * params.heightScale;
  const snowHeight = params.snowLevel * params.heightScale;
  // Steeper than rockSlope ⇔ the normal's y share is below cos(rockSlope); compared squared to skip the root.
  const cosine = Math.cos((params.rockSlope * Math.PI) / 180);
  const cosineSquared = cosine * cosine;
  for (let t = 0; t < triangleCount; t++) {
    const a = 3 * indices[3 * t]!;
    const b = 3 * indices[3 * t + 1]!;
    const c = 3 * indices[3 * t + 2]!;
    const ay = positions[a + 1]!;
    const by = positions[b + 1]!;
    const cy = positions[c + 1]!;
    const centreHeight = (ay + by + cy) / 3;
    let material: number = TERRAIN_MATERIAL.grass;
    if (centreHeight < waterHeight) material = TERRAIN_MATERIAL.water;
    else {
      const ex = positions[b]! - positions[a]!,
        ey = by - ay,
        ez = positions[b + 2]! - positions[a + 2]!;
      const fx = positions[c]! - positions[a]!,
        fy = cy - ay,
        fz = positions[c + 2]! - positions[a + 2]!;
      const nx = ey * fz - ez * fy;
      const ny = ez * fx - ex * fz;
      const nz = ex * fy - ey * fx;
      const lengthSquared = nx * nx + ny * ny + nz * nz;
      if (lengthSquared > 0 && ny * ny < cosineSquared * lengthSquared) material = TERRAIN_MATERIAL.rock;
      else if (centreHeight > snowHeight) material = TERRAIN_MATERIAL.snow;
    }
    materials[t] = material;
  }
  return materials;
}

/** The terrain's materials as buildBVH takes them. */
export const terrainMaterialInput = (mesh: { readonly materials: Uint8Array }): { ids: Uint8Array; masks: Uint32Array } => ({
  ids: mesh.materials,
  masks: TERRAIN_MATERIAL_MASKS,
});
