import { MASK_ALL, type MaterialInput } from '../../../src/bvh/index';
import type { Random } from '../../../src/math/random';

/** A material table of `count` random 32-bit masks (single bits, full words, one of them 0) and random ids. */
export function randomMaterials(random: Random, triangleCount: number, count: number): MaterialInput {
  const masks = new Uint32Array(count);
  for (let m = 0; m < count; m++) masks[m] = random.int(4) === 0 ? 1 << random.int(32) : random.nextUint32();
  masks[random.int(count)] = 0;
  const ids = new Uint8Array(triangleCount);
  for (let t = 0; t < triangleCount; t++) ids[t] = random.int(count);
  return { ids, masks };
}

/** Filters every masked query is checked with: none, all, and random 32-bit words and single bits. */
export function filtersToTry(random: Random, randomCount = 4): number[] {
  const filters = [0, MASK_ALL, 2 ** 31, 1];
  for (let k = 0; k < randomCount; k++) filters.push(k % 2 === 0 ? random.nextUint32() : (1 << random.int(32)) >>> 0);
  return filters;
}
