/**
 * Node transforms of a glTF scene as 4×4 column-major matrices (the glTF order): a node's `matrix`, or
 * its translation · rotation · scale, each part defaulting to identity.
 */
export type Matrix4 = Float64Array;

export function identityMatrix(): Matrix4 {
  return new Float64Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
}

/** a · b (column-major). */
export function multiplyMatrices(a: Matrix4, b: Matrix4): Matrix4 {
  const out = new Float64Array(16);
  for (let column = 0; column < 4; column++) {
    for (let row = 0; row < 4; row++) {
      let sum = 0;
      for (let k = 0; k < 4; k++) sum += a[k * 4 + row]! * b[column * 4 + k]!;
      out[column * 4 + row] = sum;
    }
  }
  return out;
}

/** T · R · S from a translation, a unit quaternion (x, y, z, w) and a scale. */
export function composeTrs(t: readonly number[], q: readonly number[], s: readonly number[]): Matrix4 {
  const [x, y, z, w] = q as [number, number, number, number];
  const [sx, sy, sz] = s as [number, number, number];
  const xx = x * x;
  const yy = y * y;
  const zz = z * z;
  const xy = x * y;
  const xz = x * z;
  const yz = y * z;
  const wx = w * x;
  const wy = w * y;
  const wz = w * z;
  return new Float64Array([
    (1 - 2 * (yy + zz)) * sx,
    2 * (xy + wz) * sx,
    2 * (xz - wy) * sx,
    0,
    2 * (xy - wz) * sy,
    (1 - 2 * (xx + zz)) * sy,
    2 * (yz + wx) * sy,
    0,
    2 * (xz + wy) * sz,
    2 * (yz - wx) * sz,
    (1 - 2 * (xx + yy)) * sz,
    0,
    t[0]!,
    t[1]!,
    t[2]!,
    1,
  ]);
}

/** The determinant of the upper 3×3: negative when the transform mirrors (triangle windings must flip). */
export function linearDeterminant(m: Matrix4): number {
  return m[0]! * (m[5]! * m[10]! - m[9]! * m[6]!) - m[4]! * (m[1]! * m[10]! - m[9]! * m[2]!) + m[8]! * (m[1]! * m[6]! - m[5]! * m[2]!);
}
