import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Every instance of a shared-memory kernel writes its active data segments into the one memory all the
 * pool's threads read, as it is instantiated: a worker that starts while others sweep or cast. So each
 * segment must already hold the bytes the memory holds once an instance has started (its start code
 * run), or the threads at work would read them half rewritten (the capsule tables once read as zeros,
 * and some capsules skipped feature tests).
 */

interface DataSegment {
  offset: number;
  bytes: Uint8Array;
}

/** The active data segments of a module with one memory (constant i32 offsets, as asc writes them). */
function activeDataSegments(wasm: Uint8Array): DataSegment[] {
  let at = 8;
  const leb = (): number => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = wasm[at++]!;
      value |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    return value >>> 0;
  };
  const segments: DataSegment[] = [];
  while (at < wasm.length) {
    const id = wasm[at++]!;
    const size = leb();
    const end = at + size;
    if (id === 11) {
      for (let count = leb(); count > 0; count--) {
        const flags = leb();
        if (flags === 1) {
          at += leb(); // passive: written only when the code asks
          continue;
        }
        if (flags === 2) leb(); // memory index
        expect(wasm[at++], 'an i32.const offset').toBe(0x41);
        const offset = leb();
        expect(wasm[at++], 'end of the offset expression').toBe(0x0b);
        const length = leb();
        segments.push({ offset, bytes: wasm.subarray(at, at + length) });
        at += length;
      }
    }
    at = end;
  }
  return segments;
}

describe('shared-memory kernels: instantiating one more changes no byte the others read', () => {
  for (const name of ['raysShared', 'capsuleShared', 'particlesShared']) {
    it(`${name}.wasm: each active data segment holds what the memory holds after start-up`, async () => {
      const wasm = new Uint8Array(readFileSync(new URL(`../../../src/platform/generated/${name}.wasm`, import.meta.url)));
      const segments = activeDataSegments(wasm);
      expect(segments.length).toBeGreaterThan(0);
      const memory = new WebAssembly.Memory({ initial: 16, maximum: 16384, shared: true });
      await WebAssembly.instantiate(wasm, { env: { memory } });
      const after = new Uint8Array(memory.buffer);
      for (const { offset, bytes } of segments)
        expect(Array.from(after.subarray(offset, offset + bytes.length)), `segment at ${offset}`).toEqual(Array.from(bytes));
    });
  }
});
