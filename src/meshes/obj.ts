import { MeshBuilder, meshError, type LoadedMesh } from './meshBuilder';

/**
 * Reads the geometry of a Wavefront OBJ file: `v x y z [w]` vertices and `f` faces, each corner written
 * `v`, `v/vt`, `v//vn` or `v/vt/vn`, 1-based or negative (counted back from the latest vertex). Polygons
 * are fan-triangulated (OBJ polygons are convex by the format's definition). `usemtl` names the
 * material of the faces after it (LoadedMesh.triangleMaterials). Texture coordinates, normals, groups,
 * objects, material libraries, smoothing, lines and points carry no collision geometry and are skipped.
 * Every error names the line.
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
    const firstLine = line;
    // Only v and f lines carry geometry: anything else (vt, vn, comments, groups…) is passed over unread,
    // unless it continues on the next line.
    let first = lineStart;
    while (first < lineEnd && (text.charCodeAt(first) === 0x20 || text.charCodeAt(first) === 0x09)) first++;
    const c0 = text.charCodeAt(first);
    const c1 = text.charCodeAt(first + 1);
    const geometry = (c0 === 0x76 || c0 === 0x66) && (c1 === 0x20 || c1 === 0x09 || c1 === 0x0d || first + 1 >= lineEnd);
    const material = c0 === 0x75 && text.startsWith('usemtl', first);
    if (!geometry && !material && !continues(text, lineStart, lineEnd)) {
      lineStart = lineEnd + 1;
      continue;
    }
    if (geometry && !continues(text, lineStart, lineEnd)) {
      // The common line, read in place; anything unusual (an error to name, a comment) takes the general path below.
      const read = c0 === 0x76 ? readVertexInPlace(text, first + 1, lineEnd, mesh) : readFaceInPlace(text, first + 1, lineEnd, mesh, corners);
      if (read) {
        if (corners.length > 3) polygons++;
        corners.length = 0;
        lineStart = lineEnd + 1;
        continue;
      }
    }
    // A line ending in a backslash continues on the next one.
    let content = text.slice(lineStart, lineEnd);
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
      for (let k = 1; k + 1 < corners.length; k++) mesh.addTriangle(corners[0]!, corners[k]!, corners[k + 1]!);
      if (corners.length > 3) polygons++;
    } else if (keyword === 'usemtl') {
      // The name is the rest of the line (names may hold spaces); `usemtl` alone ends the material.
      const name = content.trim().slice('usemtl'.length).trim();
      mesh.useMaterial(name === '' ? null : name, { line: firstLine });
    }
  }
  if (polygons > 0) mesh.notes.push(`split ${polygons} polygon${polygons === 1 ? '' : 's'} of more than 3 corners into triangles`);
  if (mesh.triangleCount === 0 && mesh.vertexCount > 0)
    throw meshError(file, `the mesh has no triangles: ${mesh.vertexCount} vertices but no "f" face`);
  return mesh.finish();
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d;

const vertexScratch = new Float64Array(3);

/** Reads `x y z [w]` from [at, end) into the mesh; false (and nothing added) for anything else. */
function readVertexInPlace(text: string, at: number, end: number, mesh: MeshBuilder): boolean {
  const xyz = vertexScratch;
  let i = at;
  for (let k = 0; k < 3; k++) {
    while (i < end && isSpace(text.charCodeAt(i))) i++;
    const start = i;
    while (i < end && !isSpace(text.charCodeAt(i))) i++;
    if (i === start) return false;
    const value = Number(text.slice(start, i));
    if (!Number.isFinite(value)) return false;
    xyz[k] = value;
  }
  for (; i < end; i++) if (text.charCodeAt(i) === 0x23) return false;
  mesh.addVertex(xyz[0]!, xyz[1]!, xyz[2]!);
  return true;
}

/**
 * Reads the corners of an `f` line from [at, end) (each a vertex number, then anything of / and digits)
 * and adds its fan; false (and nothing added) for anything the general path should report.
 */
function readFaceInPlace(text: string, at: number, end: number, mesh: MeshBuilder, corners: number[]): boolean {
  corners.length = 0;
  const vertexCount = mesh.vertexCount;
  let i = at;
  for (;;) {
    while (i < end && isSpace(text.charCodeAt(i))) i++;
    if (i >= end) break;
    let negative = false;
    if (text.charCodeAt(i) === 0x2d) {
      negative = true;
      i++;
    }
    let value = 0;
    const digits = i;
    for (let c = text.charCodeAt(i); i < end && c >= 0x30 && c <= 0x39; c = text.charCodeAt(++i)) value = value * 10 + (c - 0x30);
    if (i === digits || value === 0 || value > vertexCount) return false;
    for (let c = text.charCodeAt(i); i < end && !isSpace(c); c = text.charCodeAt(++i)) if (c !== 0x2f && (c < 0x30 || c > 0x39)) return false;
    corners.push(negative ? vertexCount - value : value - 1);
  }
  if (corners.length < 3) return false;
  for (let k = 1; k + 1 < corners.length; k++) mesh.addTriangle(corners[0]!, corners[k]!, corners[k + 1]!);
  return true;
}

/** Whether the line [start, end) ends in a backslash (before a carriage return). */
function continues(text: string, start: number, end: number): boolean {
  let last = end - 1;
  if (last >= start && text.charCodeAt(last) === 0x0d) last--;
  return last >= start && text.charCodeAt(last) === 0x5c;
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
