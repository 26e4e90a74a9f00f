import { meshError } from './meshBuilder';

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a; // "JSON"
const CHUNK_BIN = 0x004e4942; // "BIN\0"

/** Whether the bytes start like a GLB container. */
export function isGlb(data: Uint8Array): boolean {
  return data.length >= 4 && new DataView(data.buffer, data.byteOffset, 4).getUint32(0, true) === GLB_MAGIC;
}

/**
 * Splits a GLB container into its JSON text and its binary chunk (the document's buffer 0 when that
 * buffer has no uri). Every length is checked against the file, so a truncated file is named as such.
 */
export function readGlb(data: Uint8Array, file: string): { json: string; bin: Uint8Array | null } {
  if (data.length < 12) throw meshError(file, `a GLB needs a 12-byte header, the file has ${data.length} bytes`, { byte: data.length });
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (view.getUint32(0, true) !== GLB_MAGIC) throw meshError(file, 'not a GLB file (no "glTF" magic)', { byte: 0 });
  const version = view.getUint32(4, true);
  if (version !== 2) throw meshError(file, `GLB version ${version}; only glTF 2.0 is read`, { byte: 4 });
  const length = view.getUint32(8, true);
  if (length > data.length) throw meshError(file, `the header says ${length} bytes, the file has ${data.length} (truncated)`, { byte: data.length });
  let json: string | null = null;
  let bin: Uint8Array | null = null;
  let at = 12;
  while (at < length) {
    if (at + 8 > length) throw meshError(file, 'a chunk header runs past the end of the file (truncated)', { byte: at });
    const chunkLength = view.getUint32(at, true);
    const type = view.getUint32(at + 4, true);
    const start = at + 8;
    if (start + chunkLength > length) {
      throw meshError(file, `a chunk of ${chunkLength} bytes runs past the end of the file at byte ${length} (truncated)`, { byte: at });
    }
    const bytes = data.subarray(start, start + chunkLength);
    if (type === CHUNK_JSON && json === null) json = new TextDecoder().decode(bytes);
    else if (type === CHUNK_BIN && bin === null) bin = bytes;
    at = start + chunkLength + ((4 - (chunkLength % 4)) % 4);
  }
  if (json === null) throw meshError(file, 'a GLB without its JSON chunk', { byte: 12 });
  return { json, bin };
}
