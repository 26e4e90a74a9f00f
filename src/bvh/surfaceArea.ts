/**
 * Half the surface area of a box inflated by `radius` on every side: the SAH only compares ratios, so
 * the factor 2 is dropped. Inflating prices every box as a swept volume would see it (the talk's half
 * player radius), which makes tiny leaves relatively dearer and the tree shallower.
 */
export function inflatedHalfArea(extentX: number, extentY: number, extentZ: number, radius: number): number {
  const x = extentX + 2 * radius;
  const y = extentY + 2 * radius;
  const z = extentZ + 2 * radius;
  return x * y + y * z + z * x;
}
