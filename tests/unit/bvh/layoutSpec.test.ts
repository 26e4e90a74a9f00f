import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CHILD_INDEX_MASK,
  CHILD_TYPE_EMPTY,
  CHILD_TYPE_NODE,
  childLeafCount,
  childType,
  encodeChildWord,
  leafType,
  nodeMaskIndexOf,
} from '../../../src/bvh/childWord';
import * as spec from '../../../src/bvh/layoutSpec';
import { NODE_RECORD_BYTES } from '../../../src/bvh/nodeRecords';
import { QUANT_MAX, QUANT_STEP_SCALE } from '../../../src/bvh/quantize';
import { QUANTIZED_NODE_BYTES, QUANTIZED_NODE_U32, QUANTIZED_WORDS_U32 } from '../../../src/bvh/quantizedLayout';
import { RAY_NODE_RECORD_BYTES } from '../../../src/query/rays/rayNodeRecords';
import { MASK_TO_PAIRS, PART_LUT } from '../../../src/query/capsule/featureBits';
import { GENERATED_CAPSULE_TABLES_PATH, GENERATED_LAYOUT_PATH, renderCapsuleTables, renderLayout } from '../../../tools/generate-layout';

/** `export const NAME: type = value;` lines of the generated AssemblyScript file. */
function parseGenerated(text: string): Map<string, { type: string; value: number }> {
  const constants = new Map<string, { type: string; value: number }>();
  for (const line of text.split('\n')) {
    const match = /^export const (\w+): (\w+) = (\S+);$/.exec(line);
    if (match !== null) constants.set(match[1]!, { type: match[2]!, value: Number(match[3]) });
  }
  return constants;
}

describe('layout constants shared by TypeScript and AssemblyScript', () => {
  const values = spec as unknown as Record<string, unknown>;

  it('every numeric constant of the spec has an AssemblyScript type, and every typed name a value', () => {
    const numeric = Object.keys(values).filter((name) => typeof values[name] === 'number');
    expect(numeric.sort()).toEqual(Object.keys(spec.LAYOUT_TYPES).sort());
  });

  it('the generated file (npm run build:wasm) holds every constant with its type and exact value', () => {
    const text = readFileSync(GENERATED_LAYOUT_PATH, 'utf8');
    expect(text, 'stale: run npm run build:wasm').toBe(renderLayout());
    const generated = parseGenerated(text);
    expect([...generated.keys()].sort()).toEqual(Object.keys(spec.LAYOUT_TYPES).sort());
    for (const [name, type] of Object.entries(spec.LAYOUT_TYPES)) {
      expect(generated.get(name), name).toEqual({ type, value: values[name] });
    }
  });

  it('the generated capsule tables (npm run build:wasm) are featureBits.ts’s, as static data', () => {
    const text = readFileSync(GENERATED_CAPSULE_TABLES_PATH, 'utf8');
    expect(text, 'stale: run npm run build:wasm').toBe(renderCapsuleTables());
    const table = (name: string): number[] =>
      JSON.parse(new RegExp(`${name}: usize = memory\\.data<\\w+>\\((\\[[^\\]]*\\])`).exec(text)![1]!) as number[];
    expect(table('PART_LUT')).toEqual(Array.from(PART_LUT));
    expect(table('MASK_TO_PAIRS')).toEqual(Array.from(MASK_TO_PAIRS));
  });

  it('the TypeScript layouts read their numbers from the spec', () => {
    expect(CHILD_INDEX_MASK).toBe(spec.CHILD_INDEX_MASK);
    expect(CHILD_TYPE_NODE).toBe(spec.CHILD_TYPE_NODE);
    expect(CHILD_TYPE_EMPTY).toBe(spec.CHILD_TYPE_EMPTY);
    expect(QUANT_MAX).toBe(spec.QUANT_MAX);
    expect(QUANT_STEP_SCALE).toBe(spec.QUANT_STEP_SCALE);
    expect(QUANTIZED_NODE_BYTES).toBe(spec.QUANTIZED_NODE_BYTES);
    expect(4 * QUANTIZED_NODE_U32).toBe(spec.QUANTIZED_NODE_BYTES);
    expect(4 * QUANTIZED_WORDS_U32).toBe(spec.QUANTIZED_WORDS_BYTES);
    expect(NODE_RECORD_BYTES).toBe(spec.NODE_RECORD_BYTES);
    expect(RAY_NODE_RECORD_BYTES).toBe(spec.RAY_NODE_RECORD_BYTES);
  });

  it('the child word fields sit where the spec says', () => {
    const word = encodeChildWord(0x123456, leafType(spec.LEAF_MAX_TRIANGLES), 1, 0xab);
    expect(word & spec.CHILD_INDEX_MASK).toBe(0x123456);
    expect((word >>> spec.CHILD_TYPE_SHIFT) & spec.CHILD_TYPE_BITS).toBe(childType(word));
    expect(childLeafCount(word)).toBe(spec.LEAF_MAX_TRIANGLES);
    expect(leafType(spec.LEAF_MAX_TRIANGLES)).toBe(spec.CHILD_TYPE_BITS);
    const low = encodeChildWord(7, spec.CHILD_TYPE_NODE, 0, 0xab);
    expect(word >>> spec.CHILD_MASK_NIBBLE_SHIFT).toBe(0xa);
    expect(nodeMaskIndexOf(low, word)).toBe(0xab);
  });

  it('the records and triangle groups fit their parts', () => {
    expect(spec.QUANTIZED_WORDS_BYTES + 16).toBe(spec.QUANTIZED_NODE_BYTES);
    expect(spec.NODE_RECORD_FRAME_MIN).toBe(spec.QUANTIZED_NODE_BYTES);
    expect(spec.NODE_RECORD_FRAME_STEP + 16).toBeLessThanOrEqual(spec.NODE_RECORD_BYTES);
    expect(spec.RAY_NODE_WORDS).toBe(6 * 16);
    expect(spec.RAY_NODE_CHILD_MASKS).toBe(spec.RAY_NODE_WORDS + 16);
    expect(spec.RAY_NODE_CHILD_MASKS + 16).toBe(spec.RAY_NODE_RECORD_BYTES);
    expect(spec.TRIANGLE_GROUP_BYTES).toBe(3 * spec.TRIANGLE_CORNER_BYTES);
    expect(spec.TRIANGLE_CORNER_BYTES).toBe(3 * spec.TRIANGLE_AXIS_BYTES);
  });
});
