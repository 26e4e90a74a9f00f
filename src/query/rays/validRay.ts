/** A usable ray: finite origin and direction, non-zero direction, tMax > 0 (NaN fails every test). */
export function isValidRay(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number, tMax: number): boolean {
  const finite =
    Math.abs(ox) < Infinity &&
    Math.abs(oy) < Infinity &&
    Math.abs(oz) < Infinity &&
    Math.abs(dx) < Infinity &&
    Math.abs(dy) < Infinity &&
    Math.abs(dz) < Infinity;
  return finite && (dx !== 0 || dy !== 0 || dz !== 0) && tMax > 0;
}
