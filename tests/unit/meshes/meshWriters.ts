/**
 * Writers of small mesh files for the parser tests: the reference a parser's output is compared to is
 * the mesh that went in. Kept deliberately plain (no cleverness a parser bug could share).
 */
import { MeshoptEncoder } from 'meshoptimizer';

export interface PlainMesh {
  positions: number[];
  indices: number[];
}

export function writeObj(mesh: PlainMesh): string {
  const lines: string[] = [];
  for (let v = 0; v < mesh.positions.length; v += 3) lines.push(`v ${mesh.positions[v]} ${mesh.positions[v + 1]} ${mesh.positions[v + 2]}`);
  for (let t = 0; t < mesh.indices.length; t += 3) lines.push(`f ${mesh.indices[t]! + 1} ${mesh.indices[t + 1]! + 1} ${mesh.indices[t + 2]! + 1}`);
  return lines.join('\n') + '\n';
}

/** A binary STL whose 80-byte header starts with "solid", as many exporters write it. */
export function writeBinaryStl(mesh: PlainMesh, header = 'solid exported by a tool that says solid'): Uint8Array {
  const count = mesh.indices.length / 3;
  const bytes = new Uint8Array(84 + 50 * count);
  bytes.set(new TextEncoder().encode(header.slice(0, 80)));
  const view = new DataView(bytes.buffer);
  view.setUint32(80, count, true);
  for (let t = 0; t < count; t++) {
    const at = 84 + 50 * t;
    for (let k = 0; k < 3; k++) {
      const v = mesh.indices[3 * t + k]!;
      for (let axis = 0; axis < 3; axis++) view.setFloat32(at + 12 + 12 * k + 4 * axis, mesh.positions[3 * v + axis]!, true);
    }
  }
  return bytes;
}

export function writeAsciiStl(mesh: PlainMesh): string {
  const lines = ['solid test'];
  for (let t = 0; t < mesh.indices.length; t += 3) {
    lines.push('facet normal 0 0 0', 'outer loop');
    for (let k = 0; k < 3; k++) {
      const v = mesh.indices[t + k]!;
      lines.push(`vertex ${mesh.positions[3 * v]} ${mesh.positions[3 * v + 1]} ${mesh.positions[3 * v + 2]}`);
    }
    lines.push('endloop', 'endfacet');
  }
  lines.push('endsolid test');
  return lines.join('\n') + '\n';
}

export interface GltfWriteOptions {
  /** 5121, 5123 or 5125; none writes a non-indexed primitive. */
  indexType?: 5121 | 5123 | 5125 | null;
  /** Bytes between vertices (≥ 12); the gap is filled with junk a reader must skip. */
  stride?: number;
  /** Junk bytes before the accessor's first element (a multiple of 4). */
  accessorOffset?: number;
  /** A node matrix (column-major) the mesh hangs under. */
  matrix?: number[];
  extra?: Record<string, unknown>;
}

/** A glTF document and its binary buffer: one mesh, one primitive, under one node. */
export function writeGltfParts(mesh: PlainMesh, options: GltfWriteOptions = {}): { json: Record<string, unknown>; bin: Uint8Array } {
  const vertexCount = mesh.positions.length / 3;
  const stride = options.stride ?? 12;
  const offset = options.accessorOffset ?? 0;
  const vertexBytes = offset + stride * vertexCount;
  const indexType = options.indexType === undefined ? 5125 : options.indexType;
  const indexSize = indexType === 5121 ? 1 : indexType === 5123 ? 2 : 4;
  const indexStart = align4(vertexBytes);
  const total = align4(indexStart + (indexType === null ? 0 : indexSize * mesh.indices.length));
  const bin = new Uint8Array(total).fill(0xcd);
  const view = new DataView(bin.buffer);
  for (let v = 0; v < vertexCount; v++) {
    for (let axis = 0; axis < 3; axis++) view.setFloat32(offset + stride * v + 4 * axis, mesh.positions[3 * v + axis]!, true);
  }
  if (indexType !== null) {
    for (let i = 0; i < mesh.indices.length; i++) {
      const at = indexStart + indexSize * i;
      if (indexSize === 1) view.setUint8(at, mesh.indices[i]!);
      else if (indexSize === 2) view.setUint16(at, mesh.indices[i]!, true);
      else view.setUint32(at, mesh.indices[i]!, true);
    }
  }
  const accessors: Record<string, unknown>[] = [{ bufferView: 0, byteOffset: offset, componentType: 5126, count: vertexCount, type: 'VEC3' }];
  const bufferViews: Record<string, unknown>[] = [
    { buffer: 0, byteOffset: 0, byteLength: vertexBytes, ...(stride !== 12 ? { byteStride: stride } : {}) },
  ];
  const primitive: Record<string, unknown> = { attributes: { POSITION: 0 } };
  if (indexType !== null) {
    bufferViews.push({ buffer: 0, byteOffset: indexStart, byteLength: indexSize * mesh.indices.length });
    accessors.push({ bufferView: 1, componentType: indexType, count: mesh.indices.length, type: 'SCALAR' });
    primitive.indices = 1;
  }
  const json = {
    asset: { version: '2.0' },
    scene: 0,
    scenes: [{ nodes: [0] }],
    nodes: [{ mesh: 0, ...(options.matrix !== undefined ? { matrix: options.matrix } : {}) }],
    meshes: [{ primitives: [primitive] }],
    buffers: [{ byteLength: total }],
    bufferViews,
    accessors,
    ...options.extra,
  };
  return { json, bin };
}

/** The document as .gltf text with its buffer inlined as a data: uri. */
export function writeGltf(mesh: PlainMesh, options: GltfWriteOptions = {}): string {
  const { json, bin } = writeGltfParts(mesh, options);
  const buffers = json.buffers as Record<string, unknown>[];
  buffers[0]!.uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString('base64')}`;
  return JSON.stringify(json);
}

/** A GLB container: the JSON chunk, then the binary chunk (buffer 0 without uri). */
export function writeGlb(json: Record<string, unknown>, bin: Uint8Array | null): Uint8Array {
  const jsonBytes = new TextEncoder().encode(JSON.stringify(json));
  const jsonLength = align4(jsonBytes.length);
  const binLength = bin === null ? 0 : align4(bin.length);
  const total = 12 + 8 + jsonLength + (bin === null ? 0 : 8 + binLength);
  const bytes = new Uint8Array(total);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true);
  bytes.fill(0x20, 20, 20 + jsonLength);
  bytes.set(jsonBytes, 20);
  if (bin !== null) {
    const at = 20 + jsonLength;
    view.setUint32(at, binLength, true);
    view.setUint32(at + 4, 0x004e4942, true);
    bytes.set(bin, at + 8);
  }
  return bytes;
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

/** Each triangle as its three corners' coordinates (rounded to float32), the corners rotated so the smallest comes first; sorted. */
export function triangleSet(positions: ArrayLike<number>, indices: ArrayLike<number>): string[] {
  const triangles: string[] = [];
  for (let t = 0; t < indices.length; t += 3) {
    const corners = [0, 1, 2].map((k) => {
      const v = indices[t + k]!;
      return [0, 1, 2].map((axis) => Math.fround(positions[3 * v + axis]!)).join(',');
    });
    let first = 0;
    for (let k = 1; k < 3; k++) if (corners[k]! < corners[first]!) first = k;
    triangles.push([0, 1, 2].map((k) => corners[(first + k) % 3]).join(' | '));
  }
  return triangles.sort();
}

/**
 * The GLB of `mesh` with every buffer view compressed as EXT_meshopt_compression lays it out: the
 * compressed bytes in the binary chunk (buffer 0), the views pointing into a fallback buffer without
 * data (buffer 1) and naming their compressed bytes in the extension. MeshoptEncoder.ready must have resolved.
 */
export function meshoptGlb(
  mesh: PlainMesh,
  indexMode: 'TRIANGLES' | 'INDICES' = 'TRIANGLES',
  extension = 'EXT_meshopt_compression',
): { json: Record<string, unknown>; bin: Uint8Array } {
  const { json, bin } = writeGltfParts(mesh);
  const views = json.bufferViews as { buffer: number; byteOffset: number; byteLength: number; byteStride?: number; extensions?: unknown }[];
  const parts: Uint8Array[] = [];
  let at = 0;
  views.forEach((view, i) => {
    const source = bin.subarray(view.byteOffset, view.byteOffset + view.byteLength);
    const stride = i === 0 ? 12 : 4;
    const count = view.byteLength / stride;
    const encoded = MeshoptEncoder.encodeGltfBuffer(source, count, stride, i === 0 ? 'ATTRIBUTES' : indexMode);
    view.buffer = 1;
    if (i === 0) view.byteStride = 12;
    view.extensions = {
      [extension]: { buffer: 0, byteOffset: at, byteLength: encoded.length, byteStride: stride, count, mode: i === 0 ? 'ATTRIBUTES' : indexMode },
    };
    parts.push(encoded, new Uint8Array((4 - (encoded.length % 4)) % 4));
    at += encoded.length + ((4 - (encoded.length % 4)) % 4);
  });
  const packed = new Uint8Array(at);
  let offset = 0;
  for (const part of parts) {
    packed.set(part, offset);
    offset += part.length;
  }
  json.buffers = [{ byteLength: packed.length }, { byteLength: bin.length, extensions: { [extension]: { fallback: true } } }];
  json.extensionsUsed = [extension];
  json.extensionsRequired = [extension];
  return { json, bin: packed };
}
