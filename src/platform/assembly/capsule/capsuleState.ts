// The capsule being swept and its best contact so far, as module globals: one capsule is swept at a
// time, and the walk, the culls and the feature tests all read it. The twin of SweepWorkspace.load
// and consider (src/query/capsule/sweepWorkspace.ts), in the same float64 operations, so the culls
// and tests that read it decide exactly as the TypeScript ones.

// The segment p0–p1, its direction s = p1 − p0, the motion d, the radius.
export let p0x: f64 = 0;
export let p0y: f64 = 0;
export let p0z: f64 = 0;
export let p1x: f64 = 0;
export let p1y: f64 = 0;
export let p1z: f64 = 0;
export let sx: f64 = 0;
export let sy: f64 = 0;
export let sz: f64 = 0;
export let dx: f64 = 0;
export let dy: f64 = 0;
export let dz: f64 = 0;
export let radius: f64 = 0;
/** The radius plus a few ulps of the coordinates, so rounding never culls a touching pair. */
export let rCull: f64 = 0;
/** The capsule's box: centre and half extents (grown by the same slack). */
export let centreX: f64 = 0;
export let centreY: f64 = 0;
export let centreZ: f64 = 0;
export let extentX: f64 = 0;
export let extentY: f64 = 0;
export let extentZ: f64 = 0;
export let hasAxis: bool = false;

// Best contact: time, depth key (squared distance − r² for ties at t = 0: the deepest wins), the
// caller's triangle id (−1: none), the point on the triangle and the unit normal towards the capsule.
export let bestT: f64 = 1;
export let bestKey: f64 = 0;
export let bestTriangle: i32 = -1;
export let contactPx: f64 = 0;
export let contactPy: f64 = 0;
export let contactPz: f64 = 0;
export let contactNx: f64 = 0;
export let contactNy: f64 = 0;
export let contactNz: f64 = 0;

/** Loads a capsule and clears its best contact (t = 1, none). */
export function loadCapsule(ax: f64, ay: f64, az: f64, bx: f64, by: f64, bz: f64, mx: f64, my: f64, mz: f64, r: f64): void {
  p0x = ax;
  p0y = ay;
  p0z = az;
  p1x = bx;
  p1y = by;
  p1z = bz;
  sx = bx - ax;
  sy = by - ay;
  sz = bz - az;
  dx = mx;
  dy = my;
  dz = mz;
  radius = r;
  const scale =
    Math.max(Math.max(Math.max(Math.abs(ax), Math.abs(ay)), Math.max(Math.abs(az), Math.abs(bx))), Math.max(Math.abs(by), Math.abs(bz))) +
    Math.abs(mx) +
    Math.abs(my) +
    Math.abs(mz) +
    r;
  rCull = r + 1e-9 * scale;
  centreX = 0.5 * (ax + bx);
  centreY = 0.5 * (ay + by);
  centreZ = 0.5 * (az + bz);
  extentX = 0.5 * Math.abs(bx - ax) + rCull;
  extentY = 0.5 * Math.abs(by - ay) + rCull;
  extentZ = 0.5 * Math.abs(bz - az) + rCull;
  hasAxis = ax != bx || ay != by || az != bz;
  bestT = 1;
  bestKey = 0;
  bestTriangle = -1;
}

/** Takes a contact if it is earlier than the best, or as early (t = 0) and deeper. */
export function consider(t: f64, key: f64, triangle: i32, px: f64, py: f64, pz: f64, nx: f64, ny: f64, nz: f64): void {
  if (!(t < bestT || (t == bestT && (bestTriangle < 0 || key < bestKey)))) return;
  bestT = t;
  bestKey = key;
  bestTriangle = triangle;
  contactPx = px;
  contactPy = py;
  contactPz = pz;
  contactNx = nx;
  contactNy = ny;
  contactNz = nz;
}
