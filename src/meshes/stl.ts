import { MAX_MESH_TRIANGLES, MeshBuilder, meshError, type LoadedMesh } from './meshBuilder';
import { VertexWelder } from './vertexWelder';

const HEADER_BYTES = 80;
const FACET_BYTES = 50;

/**
 * Reads an STL file, binary or ASCII, merging the repeated corners into shared vertices. A binary file
 * may begin with "solid" too (many exporters write it into the 80-byte header), so the size decides
 * first: 84 + 50 × (the count at byte 80) bytes is binary whatever the header says; otherwise text that
 * begins with "solid" and holds no NUL byte is ASCII, and anything else is a binary file of the wrong
 * length (truncated).
 */
export function parseStl(data: Uint8Array, file = 'mesh.stl'): LoadedMesh {
  if (data.length >= HEADER_BYTES + 4) {
    const count = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(HEADER_BYTES, true);
    if (data.length === HEADER_BYTES + 4 + FACET_BYTES * count) return parseBinaryStl(data, count, file);
  }
  // A truncated binary file whose header says "solid" still holds NUL bytes (zeros in its floats and counts).
  if (startsWithSolid(data) && data.indexOf(0) < 0) return parseAsciiStl(new TextDecoder().decode(data), file);
  if (data.length < HEADER_BYTES + 4) {
    throw meshError(file, `a binary STL needs at least ${HEADER_BYTES + 4} bytes (header and triangle count), the file has ${data.length}`, {
      byte: data.length,
    });
  }
  const count = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(HEADER_BYTES, true);
  const expected = HEADER_BYTES + 4 + FACET_BYTES * count;
  const whole = Math.floor((data.length - HEADER_BYTES - 4) / FACET_BYTES);
  throw meshError(
    file,
    `binary STL of the wrong length: the header counts ${count} triangles (${expected} bytes), the file has ${data.length} bytes` +
      (data.length < expected ? ` (truncated after ${whole} whole triangles)` : ''),
    { byte: data.length < expected ? HEADER_BYTES + 4 + FACET_BYTES * whole : expected },
  );
}

function startsWithSolid(data: Uint8Array): boolean {
  let i = 0;
  while (i < data.length && (data[i] === 0x20 || data[i] === 0x09 || data[i] === 0x0a || data[i] === 0x0d)) i++;
  const word = 'solid';
  for (let k = 0; k < word.length; k++) if (data[i + k] !== word.charCodeAt(k)) return false;
  return true;
}

function parseBinaryStl(data: Uint8Array, count: number, file: string): LoadedMesh {
  if (count > MAX_MESH_TRIANGLES)
    throw meshError(file, `${count} triangles is more than the ${MAX_MESH_TRIANGLES} a BVH can index`, { byte: HEADER_BYTES });
  const mesh = new MeshBuilder(file, 'stl-binary');
  mesh.reserveTriangles(count);
  const welder = new VertexWelder(mesh);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const corner = [0, 0, 0];
  for (let t = 0; t < count; t++) {
    // Each facet: normal (3 floats, ignored: the winding decides), three corners, a 2-byte attribute.
    const facet = HEADER_BYTES + 4 + FACET_BYTES * t;
    for (let k = 0; k < 3; k++) {
      const at = facet + 12 + 12 * k;
      const x = view.getFloat32(at, true);
      const y = view.getFloat32(at + 4, true);
      const z = view.getFloat32(at + 8, true);
      if (!Number.isFinite(x + y + z)) throw meshError(file, `triangle ${t} has a corner that is not finite (${x}, ${y}, ${z})`, { byte: at });
      corner[k] = welder.vertex(x, y, z);
    }
    mesh.addTriangle(corner[0]!, corner[1]!, corner[2]!);
  }
  return mesh.finish();
}

/**
 * solid NAME / facet normal nx ny nz / outer loop / vertex x y z (three times) / endloop / endfacet …
 * endsolid. Only the vertices matter; a loop of more than three vertices is fan-triangulated.
 */
function parseAsciiStl(text: string, file: string): LoadedMesh {
  const mesh = new MeshBuilder(file, 'stl-ascii');
  const welder = new VertexWelder(mesh);
  const lines = text.split(/\r?\n/);
  let loop: number[] | null = null;
  let loopLine = 0;
  let facets = 0;
  let ended = false;
  for (let n = 0; n < lines.length; n++) {
    const line = n + 1;
    const words = lines[n]!.trim().split(/\s+/);
    const keyword = words[0]!.toLowerCase();
    if (keyword === '') continue;
    if (keyword === 'vertex') {
      if (loop === null) throw meshError(file, '"vertex" outside an "outer loop"', { line });
      if (words.length < 4) throw meshError(file, `"vertex" needs three coordinates, got ${words.length - 1}`, { line });
      const x = Number(words[1]);
      const y = Number(words[2]);
      const z = Number(words[3]);
      if (!Number.isFinite(x + y + z)) throw meshError(file, `vertex (${words.slice(1, 4).join(', ')}) is not three finite numbers`, { line });
      loop.push(welder.vertex(x, y, z));
    } else if (keyword === 'outer') {
      if (loop !== null) throw meshError(file, '"outer loop" inside another loop (missing "endloop")', { line });
      loop = [];
      loopLine = line;
    } else if (keyword === 'endloop') {
      if (loop === null) throw meshError(file, '"endloop" without "outer loop"', { line });
      if (loop.length < 3) throw meshError(file, `a facet needs 3 vertices, this one has ${loop.length}`, { line: loopLine });
      for (let k = 1; k + 1 < loop.length; k++) mesh.addTriangle(loop[0]!, loop[k]!, loop[k + 1]!);
      if (loop.length > 3) mesh.notes.push(`line ${loopLine}: a facet of ${loop.length} vertices was split into triangles`);
      loop = null;
      facets++;
    } else if (keyword === 'endsolid') {
      ended = true;
    } else if (keyword !== 'solid' && keyword !== 'facet' && keyword !== 'endfacet') {
      throw meshError(file, `unknown ASCII STL keyword ${JSON.stringify(words[0])}`, { line });
    }
  }
  if (loop !== null)
    throw meshError(file, `the file ends inside a facet (truncated?): its loop starts here and has no "endloop"`, { line: loopLine });
  if (facets > 0 && !ended) mesh.notes.push('no "endsolid" at the end (truncated after a whole facet?)');
  return mesh.finish();
}
