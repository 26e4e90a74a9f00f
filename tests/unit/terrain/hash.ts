/** FNV-1a over the bytes of typed arrays: a compact fingerprint for determinism checks. */
export function hashArrays(...arrays: ArrayBufferView[]): string {
  let hash = 0x811c9dc5;
  for (const array of arrays) {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    for (let i = 0; i < bytes.length; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
