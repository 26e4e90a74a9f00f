import { InvalidParameterError } from '../errors';

/** The largest triangle count a BVH can index: leaf starts and node indices are 24-bit fields. */
export const MAX_BVH_TRIANGLES = (1 << 24) - 1;

/**
 * Checks an indexed triangle mesh at the API boundary: typed arrays of whole triangles, every index in
 * range, every vertex finite. Returns the triangle count.
 */
export function validateMesh(positions: unknown, indices: unknown): number {
  if (!(positions instanceof Float32Array)) throw new InvalidParameterError('positions', 'a Float32Array of xyz per vertex', positions);
  if (!(indices instanceof Uint32Array)) throw new InvalidParameterError('indices', 'a Uint32Array of three vertex indices per triangle', indices);
  if (positions.length % 3 !== 0) throw new InvalidParameterError('positions.length', 'a multiple of 3', positions.length);
  if (indices.length % 3 !== 0) throw new InvalidParameterError('indices.length', 'a multiple of 3', indices.length);
  const vertexCount = positions.length / 3;
  const triangleCount = indices.length / 3;
  if (triangleCount > MAX_BVH_TRIANGLES) throw new InvalidParameterError('indices.length', `at most ${MAX_BVH_TRIANGLES} triangles`, triangleCount);
  for (let i = 0; i < indices.length; i++) {
    if (indices[i]! >= vertexCount) throw new InvalidParameterError(`indices[${i}]`, `a vertex index below ${vertexCount}`, indices[i]);
  }
  for (let i = 0; i < positions.length; i++) {
    const value = positions[i]!;
    if (!(Math.abs(value) < Infinity)) throw new InvalidParameterError(`positions[${i}]`, 'a finite coordinate', value);
  }
  return triangleCount;
}
