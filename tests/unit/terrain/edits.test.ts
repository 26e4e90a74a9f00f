import { describe, expect, it } from 'vitest';
import {
  CRATER_RIM_REACH,
  InvalidParameterError,
  applyTerrainEdit,
  generateTerrain,
  parseScene,
  sceneToJson,
  undoTerrainEdit,
  validateTerrainEdit,
  writeHeightfieldNormals,
  type TerrainEdit,
  type TerrainMesh,
} from '../../../src/core';

const small = (): TerrainMesh => generateTerrain({ cells: 32, worldSize: 64, heightScale: 20, seed: 7 });
const edit = (kind: TerrainEdit['kind'], x: number, z: number, radius: number, amount: number): TerrainEdit => ({
  frame: 0,
  kind,
  at: [x, z],
  radius,
  amount,
});

/** Everything an edit may change, copied. */
function snapshot(t: TerrainMesh): { heights: Float32Array; positions: Float32Array; normals: Float32Array; min: number; max: number } {
  return { heights: t.heights.slice(), positions: t.positions.slice(), normals: t.normals.slice(), min: t.minHeight, max: t.maxHeight };
}

/** The reference: every vertex's height from the formula, straight from a copy of the heights before. */
function referenceHeights(before: Float32Array, t: TerrainMesh, e: TerrainEdit): Float32Array {
  const { cells, worldSize } = t.params;
  const side = cells + 1;
  const spacing = worldSize / cells;
  const out = before.slice();
  const fall = (s2: number): number => (s2 < 1 ? (1 - s2) ** 2 : 0);
  for (let row = 0; row < side; row++) {
    for (let col = 0; col < side; col++) {
      const dx = col * spacing - worldSize / 2 - e.at[0];
      const dz = row * spacing - worldSize / 2 - e.at[1];
      const s2 = (dx * dx + dz * dz) / (e.radius * e.radius);
      const h = before[row * side + col]!;
      let next = h;
      if (e.kind === 'crater') {
        if (Math.sqrt(s2) > CRATER_RIM_REACH) continue;
        const u = (Math.sqrt(s2) - 1) / (CRATER_RIM_REACH - 1);
        next = h - e.amount * fall(s2) + 0.2 * e.amount * fall(u * u);
      } else if (e.kind === 'raise') next = h + e.amount * fall(s2);
      else if (e.kind === 'lower') next = h - e.amount * fall(s2);
      else if (s2 < 1) {
        let sum = 0;
        let n = 0;
        for (let r = row - 1; r <= row + 1; r++)
          for (let c = col - 1; c <= col + 1; c++)
            if (r >= 0 && c >= 0 && r < side && c < side && (r !== row || c !== col)) {
              sum += before[r * side + c]!;
              n++;
            }
        next = h + (sum / n - h) * e.amount * fall(s2);
      }
      out[row * side + col] = Math.fround(next);
    }
  }
  return out;
}

const EDITS: TerrainEdit[] = [
  edit('crater', 3.3, -5.1, 9, 6),
  edit('raise', -20, 12.5, 7, 3),
  edit('lower', 31, 31, 12, 2.5), // a corner: most of the brush off the terrain
  edit('smooth', 0.5, 0.5, 15, 0.8),
  edit('crater', -40, 0, 10, 30), // centre off the terrain, rim on it; deeper than the terrain is high
];

describe('terrain edits', () => {
  it.each(EDITS)('$kind at $at: heights follow the formula, positions and normals follow the heights', (e) => {
    const t = small();
    const before = snapshot(t);
    const applied = applyTerrainEdit(t, e);
    expect(applied).not.toBeNull();
    expect(t.heights).toEqual(referenceHeights(before.heights, t, e));
    const side = t.params.cells + 1;
    for (let v = 0; v < side * side; v++) {
      expect(t.positions[3 * v + 1]).toBe(t.heights[v]);
      expect(t.positions[3 * v]).toBe(before.positions[3 * v]);
      expect(t.positions[3 * v + 2]).toBe(before.positions[3 * v + 2]);
    }
    // Normals updated around the change equal normals of the whole grid computed afresh.
    const fresh = new Float32Array(t.normals.length);
    writeHeightfieldNormals(t.heights, side, t.params.worldSize / t.params.cells, fresh);
    expect(t.normals).toEqual(fresh);
    let lowest = Infinity;
    let highest = -Infinity;
    for (const h of t.heights) {
      lowest = Math.min(lowest, h);
      highest = Math.max(highest, h);
    }
    expect(t.minHeight).toBeLessThanOrEqual(lowest);
    expect(t.maxHeight).toBeGreaterThanOrEqual(highest);
  });

  it.each(EDITS)('$kind at $at: names every triangle with a moved vertex, and only near ones', (e) => {
    const t = small();
    const before = t.heights.slice();
    const applied = applyTerrainEdit(t, e)!;
    const named = new Set(applied.triangles);
    expect(named.size).toBe(applied.triangles.length);
    for (let tri = 0; tri < t.triangleCount; tri++) {
      let moved = false;
      for (let k = 0; k < 3; k++) {
        const v = t.indices[3 * tri + k]!;
        if (t.heights[v] !== before[v]) moved = true;
      }
      if (moved) expect(named.has(tri), `triangle ${tri}`).toBe(true);
    }
    // Every named triangle lies in the changed area.
    const [minX, minZ, maxX, maxZ] = applied.area;
    for (const tri of applied.triangles) {
      for (let k = 0; k < 3; k++) {
        const v = t.indices[3 * tri + k]!;
        expect(t.positions[3 * v]).toBeGreaterThanOrEqual(minX!);
        expect(t.positions[3 * v]).toBeLessThanOrEqual(maxX!);
        expect(t.positions[3 * v + 2]).toBeGreaterThanOrEqual(minZ!);
        expect(t.positions[3 * v + 2]).toBeLessThanOrEqual(maxZ!);
      }
    }
  });

  it('undoing edits last first restores every array and the height range bit for bit', () => {
    const t = small();
    const before = snapshot(t);
    const applied = EDITS.map((e) => applyTerrainEdit(t, e)!);
    for (const a of applied.reverse()) undoTerrainEdit(t, a);
    expect(snapshot(t)).toEqual(before);
  });

  it('a brush smaller than a cell between vertices moves nothing and says so', () => {
    const t = small();
    const before = snapshot(t);
    expect(applyTerrainEdit(t, edit('raise', 1, 1, 0.3, 5))).toBeNull();
    expect(snapshot(t)).toEqual(before);
  });

  it.each([
    [{ radius: 0 }, 'edit.radius'],
    [{ radius: -3 }, 'edit.radius'],
    [{ radius: NaN }, 'edit.radius'],
    [{ radius: Infinity }, 'edit.radius'],
    [{ at: [NaN, 0] as const }, 'edit.at'],
    [{ at: [0, Infinity] as const }, 'edit.at'],
    [{ at: [100, 0] as const }, 'edit.at'], // reach 9·1.35 from x = 100 misses [−32, 32]
    [{ amount: 0 }, 'edit.amount'],
    [{ amount: NaN }, 'edit.amount'],
    [{ kind: 'smooth' as const, amount: 1.5 }, 'edit.amount'],
    [{ frame: -1 }, 'edit.frame'],
    [{ frame: 1.5 }, 'edit.frame'],
    [{ kind: 'explode' as TerrainEdit['kind'] }, 'edit.kind'],
  ])('%o is refused, naming %s', (change, field) => {
    const e = { ...edit('crater', 0, 0, 9, 4), ...change };
    expect(() => validateTerrainEdit(e, { worldSize: 64 })).toThrow(InvalidParameterError);
    expect(() => validateTerrainEdit(e, { worldSize: 64 })).toThrow(field);
  });

  it('a scene carries its edits in terrain.edits, round trip, with located errors', () => {
    const edits = [
      { frame: 3, kind: 'crater', at: [1, 2], radius: 20, amount: 5 },
      { kind: 'smooth', at: [0, 0], radius: 30, amount: 0.5 },
    ];
    const scene = parseScene({ terrain: { cells: 32, edits } }, 'blast.json');
    expect(scene.terrainEdits).toEqual([edits[0], { frame: 0, ...edits[1] }]);
    expect(scene.terrain).not.toHaveProperty('edits');
    expect(parseScene(sceneToJson(scene), 'blast.json').terrainEdits).toEqual(scene.terrainEdits);
    expect(sceneToJson(parseScene({}, 'plain.json')).terrain).not.toHaveProperty('edits');
    const bad =
      (entry: object): (() => unknown) =>
      () =>
        parseScene({ terrain: { edits: [edits[0], entry] } }, 'blast.json');
    expect(bad({ kind: 'crater', at: [0, 0], radius: -1, amount: 5 })).toThrow('blast.json: terrain.edits[1].radius');
    expect(bad({ kind: 'crater', at: [9000, 0], radius: 10, amount: 5 })).toThrow('terrain.edits[1].at');
    expect(bad({ kind: 'crater', at: [0], radius: 10, amount: 5 })).toThrow('terrain.edits[1].at');
    expect(bad({ kind: 'crater', at: [0, 0], radius: 10, amount: 5, depth: 3 })).toThrow('unknown field "depth"');
    expect(() => parseScene({ terrain: { edits: 'crater' } }, 'blast.json')).toThrow('terrain.edits');
  });
});
