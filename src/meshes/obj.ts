import { MeshBuilder, meshError, type LoadedMesh } from './meshBuilder';

/**
 * Reads the geometry of a Wavefront OBJ file: `v x y z [w]` vertices and `f` faces, each corner written
 * `v`, `v/vt`, `v//vn` or `v/vt/vn`, 1-based or negative (counted back from the latest vertex). Polygons
 * are fan-triangulated (OBJ polygons are convex by the format's definition). Texture coordinates,
 * normals, groups, objects, materials, smoothing, lines and points carry no collision geometry and are
 * skipped. Every error names the line.
 */
export function parseObj(text: string, file = 'mesh.obj'): LoadedMesh {
  const mesh = new MeshBuilder(file, 'obj');
  const corners: number[] = [];
  let polygons = 0;
  let lineStart = 0;
  let line = 0;
  const length = text.length;
  while (lineStart < length) {
    line++;
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = length;
    // A line ending in a backslash continues on the next one.
    let content = text.slice(lineStart, lineEnd);
    const firstLine = line;
    lineStart = lineEnd + 1;
    while (/\\\r?$/.test(content) && lineStart < length) {
      line++;
      lineEnd = text.indexOf('\n', lineStart);
      if (lineEnd < 0) lineEnd = length;
      content = content.replace(/\\\r?$/, ' ') + text.slice(lineStart, lineEnd);
      lineStart = lineEnd + 1;
    }
    const hash = content.indexOf('#');
    if (hash >= 0) content = content.slice(0, hash);
    const words = content.trim().split(/\s+/);
    const keyword = words[0]!;
    if (keyword === 'v') {
      if (words.length < 4)
        throw meshError(file, `"v" needs x y z, got ${words.length - 1} number${words.length === 2 ? '' : 's'}`, { line: firstLine });
      const x = Number(words[1]);
      const y = Number(words[2]);
      const z = Number(words[3]);
      if (!Number.isFinite(x + y + z)) {
        throw meshError(file, `vertex ${mesh.vertexCount + 1} (${words.slice(1, 4).join(' ')}) is not three finite numbers`, { line: firstLine });
      }
      mesh.addVertex(x, y, z);
    } else if (keyword === 'f') {
      if (words.length < 4) throw meshError(file, `a face needs at least 3 corners, got ${words.length - 1}`, { line: firstLine });
      corners.length = 0;
      for (let k = 1; k < words.length; k++) corners.push(cornerIndex(words[k]!, mesh.vertexCount, file, firstLine));
      for (let k = 1; k + 1 < corners.length; k++) mesh.addTriangle(corners[0]!, corners[k]!, corners[k + 1]!, { line: firstLine });
      if (corners.length > 3) polygons++;
    }
  }
  if (polygons > 0) mesh.notes.push(`split ${polygons} polygon${polygons === 1 ? '' : 's'} of more than 3 corners into triangles`);
  if (mesh.triangleCount === 0 && mesh.vertexCount > 0)
    throw meshError(file, `the mesh has no triangles: ${mesh.vertexCount} vertices but no "f" face`);
  return mesh.finish();
}

/** The 0-based vertex of one face corner (`v`, `v/vt`, `v//vn`, `v/vt/vn`), checked against the vertices read so far. */
function cornerIndex(corner: string, vertexCount: number, file: string, line: number): number {
  const slash = corner.indexOf('/');
  const text = slash < 0 ? corner : corner.slice(0, slash);
  const value = Number(text);
  if (!Number.isInteger(value) || value === 0 || text === '') {
    throw meshError(file, `face corner ${JSON.stringify(corner)} does not start with a vertex number (1-based, or negative to count back)`, {
      line,
    });
  }
  const index = value > 0 ? value - 1 : vertexCount + value;
  if (index < 0 || index >= vertexCount) {
    throw meshError(file, `face corner ${JSON.stringify(corner)} names vertex ${value}, but only ${vertexCount} vertices are defined before it`, {
      line,
    });
  }
  return index;
}
