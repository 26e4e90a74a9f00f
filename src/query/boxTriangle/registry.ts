import { InvalidParameterError } from '../../errors';
import { EXIT_INVALID } from './exits';
import { mollerV1 } from './mollerV1';
import { mollerV2 } from './mollerV2';
import { boxTriangleOptimized } from './single';
import { isValidBox, isValidTriangle } from './validate';

/** One box (box[b..b+5] = cx, cy, cz, hx, hy, hz) against one triangle (three vertex indices); returns the exit. */
export type BoxTriangleTest = (box: Float64Array, b: number, positions: Float32Array, vertex0: number, vertex1: number, vertex2: number) => number;

export const BOX_TRIANGLE_VARIANTS = ['v1', 'v2', 'optimized'] as const;
/** 'v1': Möller's old code; 'v2': his "new, faster" code; 'optimized': ours (same answer as v1, extra exits). */
export type BoxTriangleVariant = (typeof BOX_TRIANGLE_VARIANTS)[number];

const TESTS: Readonly<Record<BoxTriangleVariant, BoxTriangleTest>> = { v1: mollerV1, v2: mollerV2, optimized: boxTriangleOptimized };

export function getBoxTriangleTest(variant: BoxTriangleVariant): BoxTriangleTest {
  const test = (TESTS as Record<string, BoxTriangleTest | undefined>)[variant];
  if (test === undefined) throw new InvalidParameterError('variant', `one of ${BOX_TRIANGLE_VARIANTS.join(', ')}`, variant);
  return test;
}

const scratchBox = new Float64Array(6);
const scratchTriangle = new Float32Array(9);

/**
 * One checked test, for callers holding plain numbers: box = [cx, cy, cz, hx, hy, hz], triangle = nine
 * coordinates (rounded to float32, the mesh precision). NaN or infinite input, or a negative half-size,
 * gives EXIT_INVALID; otherwise the variant's exit.
 */
export function testBoxTriangle(variant: BoxTriangleVariant, box: ArrayLike<number>, triangle: ArrayLike<number>): number {
  const test = getBoxTriangleTest(variant);
  if (box.length < 6) throw new InvalidParameterError('box', 'six numbers: centre xyz, half-sizes xyz', box);
  if (triangle.length < 9) throw new InvalidParameterError('triangle', 'nine numbers: three vertices xyz', triangle);
  for (let i = 0; i < 6; i++) scratchBox[i] = box[i]!;
  for (let i = 0; i < 9; i++) scratchTriangle[i] = triangle[i]!;
  if (!isValidBox(scratchBox, 0) || !isValidTriangle(scratchTriangle, 0, 1, 2)) return EXIT_INVALID;
  return test(scratchBox, 0, scratchTriangle, 0, 1, 2);
}
