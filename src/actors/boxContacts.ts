/**
 * Exact contacts of a box with a sphere and with another box — what a box's contact spheres only
 * approximated (two boxes face to face tested up to 38 × 38 sphere pairs).
 *
 * A box is its centre, its rotation (row-major, world = R · local, so its axes are R's columns, at
 * rotation[r…r+8]) and its half extents.
 */

/** Points boxBoxContacts writes at most: a quadrilateral clipped by four planes. */
export const BOX_BOX_MAX_POINTS = 8;
/** Per written point: x, y, z, depth, feature of a, feature of b. */
export const BOX_BOX_STRIDE = 6;
/** The normal of the last boxBoxContacts call (unit, from box b towards box a). */
export const boxBoxNormal = new Float64Array(3);
/** The last sphereBoxContact: normal (from the box towards the sphere) 0–2, point 3–5, depth 6. */
export const sphereBoxResult = new Float64Array(7);

/**
 * Sphere (centre s, radius sr) against the box: the box's closest point to the centre gives the normal
 * (towards the centre) and depth sr − distance; a centre inside the box leaves by its nearest face, depth
 * sr + distance to that face. The point is the middle of the overlap (or of the gap) along the normal.
 * Writes sphereBoxResult; always a result (the caller drops gaps beyond its reach).
 */
export function sphereBoxContact(
  sx: number,
  sy: number,
  sz: number,
  sr: number,
  cx: number,
  cy: number,
  cz: number,
  rotation: Float64Array,
  r: number,
  hx: number,
  hy: number,
  hz: number,
): void {
  const r00 = rotation[r]!,
    r01 = rotation[r + 1]!,
    r02 = rotation[r + 2]!,
    r10 = rotation[r + 3]!,
    r11 = rotation[r + 4]!,
    r12 = rotation[r + 5]!,
    r20 = rotation[r + 6]!,
    r21 = rotation[r + 7]!,
    r22 = rotation[r + 8]!;
  const wx = sx - cx,
    wy = sy - cy,
    wz = sz - cz;
  // The centre in the box's frame: Rᵀ (s − c).
  const dx = r00 * wx + r10 * wy + r20 * wz,
    dy = r01 * wx + r11 * wy + r21 * wz,
    dz = r02 * wx + r12 * wy + r22 * wz;
  let qx = dx < -hx ? -hx : dx > hx ? hx : dx;
  let qy = dy < -hy ? -hy : dy > hy ? hy : dy;
  let qz = dz < -hz ? -hz : dz > hz ? hz : dz;
  let nx: number, ny: number, nz: number, depth: number;
  const ex = dx - qx,
    ey = dy - qy,
    ez = dz - qz;
  const distance = Math.sqrt(ex * ex + ey * ey + ez * ez);
  if (distance > 1e-12 * (1 + hx + hy + hz)) {
    nx = ex / distance;
    ny = ey / distance;
    nz = ez / distance;
    depth = sr - distance;
  } else {
    // Inside: out through the nearest face (ties: x, then y, then z).
    const fx = hx - Math.abs(dx),
      fy = hy - Math.abs(dy),
      fz = hz - Math.abs(dz);
    nx = ny = nz = 0;
    if (fx <= fy && fx <= fz) {
      nx = dx < 0 ? -1 : 1;
      qx = nx * hx;
      depth = sr + fx;
    } else if (fy <= fz) {
      ny = dy < 0 ? -1 : 1;
      qy = ny * hy;
      depth = sr + fy;
    } else {
      nz = dz < 0 ? -1 : 1;
      qz = nz * hz;
      depth = sr + fz;
    }
  }
  const out = sphereBoxResult;
  const wnx = r00 * nx + r01 * ny + r02 * nz,
    wny = r10 * nx + r11 * ny + r12 * nz,
    wnz = r20 * nx + r21 * ny + r22 * nz;
  out[0] = wnx;
  out[1] = wny;
  out[2] = wnz;
  const half = 0.5 * depth;
  out[3] = cx + r00 * qx + r01 * qy + r02 * qz - half * wnx;
  out[4] = cy + r10 * qx + r11 * qy + r12 * qz - half * wny;
  out[5] = cz + r20 * qx + r21 * qy + r22 * qz - half * wnz;
  out[6] = depth;
}

// Scratch: the two boxes' axes (three columns each, x y z per axis), half extents, centres.
const axesA = new Float64Array(9);
const axesB = new Float64Array(9);
const halfA = new Float64Array(3);
const halfB = new Float64Array(3);
// The clipped polygon, two buffers swapped per plane, with per-vertex masks of the incident face edges
// it lies on and of the reference face's side planes that cut it.
const polyA = new Float64Array(3 * 12);
const polyB = new Float64Array(3 * 12);
const edgesA = new Int32Array(12);
const edgesB = new Int32Array(12);
const sidesA = new Int32Array(12);
const sidesB = new Int32Array(12);

function loadAxes(rotation: Float64Array, r: number, axes: Float64Array): void {
  // Axis k is column k of R.
  for (let k = 0; k < 3; k++) {
    axes[3 * k] = rotation[r + k]!;
    axes[3 * k + 1] = rotation[r + 3 + k]!;
    axes[3 * k + 2] = rotation[r + 6 + k]!;
  }
}

/** Half the box's extent along the unit direction (lx, ly, lz). */
function projectedHalf(axes: Float64Array, half: Float64Array, lx: number, ly: number, lz: number): number {
  return (
    half[0]! * Math.abs(axes[0]! * lx + axes[1]! * ly + axes[2]! * lz) +
    half[1]! * Math.abs(axes[3]! * lx + axes[4]! * ly + axes[5]! * lz) +
    half[2]! * Math.abs(axes[6]! * lx + axes[7]! * ly + axes[8]! * lz)
  );
}

/**
 * Box a against box b by separating axes: the three face normals of each box and the nine cross
 * products of their edges. The axis of least overlap wins, a face of a over a face of b and faces over
 * edge pairs unless clearly worse (5% and half a percent of the smaller box: a resting stack must not
 * flip between axes). Face axis: the other box's face most against it (the incident face) is clipped to
 * the reference face's four side planes, and the clipped corners below the reference face (or above it
 * by at most `reach`) are the contacts — up to 8, four for boxes resting face on face. Edge pair: one
 * contact, between the closest points of the two edges. Returns how many points were written to
 * out[offset…] (BOX_BOX_STRIDE each, points in the middle of the overlap), with the normal in
 * boxBoxNormal; 0 when some axis separates the boxes by more than `reach`.
 */
export function boxBoxContacts(
  ax: number,
  ay: number,
  az: number,
  rotationA: Float64Array,
  ra: number,
  hax: number,
  hay: number,
  haz: number,
  bx: number,
  by: number,
  bz: number,
  rotationB: Float64Array,
  rb: number,
  hbx: number,
  hby: number,
  hbz: number,
  reach: number,
  out: Float64Array,
  offset: number,
): number {
  loadAxes(rotationA, ra, axesA);
  loadAxes(rotationB, rb, axesB);
  halfA[0] = hax;
  halfA[1] = hay;
  halfA[2] = haz;
  halfB[0] = hbx;
  halfB[1] = hby;
  halfB[2] = hbz;
  const tx = bx - ax,
    ty = by - ay,
    tz = bz - az;
  const tolerance = 0.005 * Math.min(hax, hay, haz, hbx, hby, hbz);
  // Faces of a, then of b.
  let faceOverlap = Infinity;
  let faceOfA = true;
  let faceAxis = 0;
  for (let pass = 0; pass < 2; pass++) {
    const axes = pass === 0 ? axesA : axesB;
    for (let k = 0; k < 3; k++) {
      const lx = axes[3 * k]!,
        ly = axes[3 * k + 1]!,
        lz = axes[3 * k + 2]!;
      const overlap = projectedHalf(axesA, halfA, lx, ly, lz) + projectedHalf(axesB, halfB, lx, ly, lz) - Math.abs(tx * lx + ty * ly + tz * lz);
      if (overlap < -reach) return 0;
      const better = pass === 0 ? overlap < faceOverlap : overlap < faceOverlap - (0.05 * Math.abs(faceOverlap) + tolerance);
      if (better) {
        faceOverlap = overlap;
        faceOfA = pass === 0;
        faceAxis = k;
      }
    }
  }
  // Edge pairs.
  let edgeOverlap = Infinity;
  let edgeI = -1,
    edgeJ = -1;
  let elx = 0,
    ely = 0,
    elz = 0;
  for (let i = 0; i < 3; i++) {
    const ux = axesA[3 * i]!,
      uy = axesA[3 * i + 1]!,
      uz = axesA[3 * i + 2]!;
    for (let j = 0; j < 3; j++) {
      const vx = axesB[3 * j]!,
        vy = axesB[3 * j + 1]!,
        vz = axesB[3 * j + 2]!;
      let lx = uy * vz - uz * vy,
        ly = uz * vx - ux * vz,
        lz = ux * vy - uy * vx;
      const length = Math.sqrt(lx * lx + ly * ly + lz * lz);
      // Parallel edges: the face axes already cover this direction.
      if (length < 1e-6) continue;
      lx /= length;
      ly /= length;
      lz /= length;
      const overlap = projectedHalf(axesA, halfA, lx, ly, lz) + projectedHalf(axesB, halfB, lx, ly, lz) - Math.abs(tx * lx + ty * ly + tz * lz);
      if (overlap < -reach) return 0;
      if (overlap < edgeOverlap) {
        edgeOverlap = overlap;
        edgeI = i;
        edgeJ = j;
        elx = lx;
        ely = ly;
        elz = lz;
      }
    }
  }
  if (edgeI >= 0 && edgeOverlap < faceOverlap - (0.05 * Math.abs(faceOverlap) + tolerance)) {
    return edgeContact(ax, ay, az, bx, by, bz, edgeI, edgeJ, elx, ely, elz, edgeOverlap, out, offset);
  }
  return faceContacts(ax, ay, az, bx, by, bz, faceOfA, faceAxis, reach, out, offset);
}

function edgeContact(
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  i: number,
  j: number,
  lx: number,
  ly: number,
  lz: number,
  overlap: number,
  out: Float64Array,
  offset: number,
): number {
  // Orient the axis from a towards b.
  if ((bx - ax) * lx + (by - ay) * ly + (bz - az) * lz < 0) {
    lx = -lx;
    ly = -ly;
    lz = -lz;
  }
  // a's edge along axis i farthest towards b; b's edge along axis j farthest towards a.
  let pax = ax,
    pay = ay,
    paz = az;
  let pbx = bx,
    pby = by,
    pbz = bz;
  let cornerA = 0,
    cornerB = 0;
  for (let k = 0; k < 3; k++) {
    if (k !== i) {
      const s = axesA[3 * k]! * lx + axesA[3 * k + 1]! * ly + axesA[3 * k + 2]! * lz >= 0 ? 1 : -1;
      if (s > 0) cornerA |= 1 << k;
      pax += s * halfA[k]! * axesA[3 * k]!;
      pay += s * halfA[k]! * axesA[3 * k + 1]!;
      paz += s * halfA[k]! * axesA[3 * k + 2]!;
    }
    if (k !== j) {
      const s = axesB[3 * k]! * lx + axesB[3 * k + 1]! * ly + axesB[3 * k + 2]! * lz >= 0 ? -1 : 1;
      if (s > 0) cornerB |= 1 << k;
      pbx += s * halfB[k]! * axesB[3 * k]!;
      pby += s * halfB[k]! * axesB[3 * k + 1]!;
      pbz += s * halfB[k]! * axesB[3 * k + 2]!;
    }
  }
  // Closest points of the two edge lines (p_a + s·u, p_b + t·v), clamped to the edges.
  const ux = axesA[3 * i]!,
    uy = axesA[3 * i + 1]!,
    uz = axesA[3 * i + 2]!;
  const vx = axesB[3 * j]!,
    vy = axesB[3 * j + 1]!,
    vz = axesB[3 * j + 2]!;
  const wx = pax - pbx,
    wy = pay - pby,
    wz = paz - pbz;
  const uv = ux * vx + uy * vy + uz * vz;
  const uw = ux * wx + uy * wy + uz * wz;
  const vw = vx * wx + vy * wy + vz * wz;
  const denominator = 1 - uv * uv;
  let s = denominator > 1e-12 ? (uv * vw - uw) / denominator : 0;
  let t = denominator > 1e-12 ? (vw - uv * uw) / denominator : 0;
  const ha = halfA[i]!,
    hb = halfB[j]!;
  s = s < -ha ? -ha : s > ha ? ha : s;
  t = t < -hb ? -hb : t > hb ? hb : t;
  const o = offset;
  out[o] = 0.5 * (pax + s * ux + pbx + t * vx);
  out[o + 1] = 0.5 * (pay + s * uy + pby + t * vy);
  out[o + 2] = 0.5 * (paz + s * uz + pbz + t * vz);
  out[o + 3] = overlap;
  out[o + 4] = 256 + 8 * i + cornerA;
  out[o + 5] = 256 + 8 * j + cornerB;
  // From b towards a.
  boxBoxNormal[0] = -lx;
  boxBoxNormal[1] = -ly;
  boxBoxNormal[2] = -lz;
  return 1;
}

function faceContacts(
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  faceOfA: boolean,
  k: number,
  reach: number,
  out: Float64Array,
  offset: number,
): number {
  const refAxes = faceOfA ? axesA : axesB;
  const refHalf = faceOfA ? halfA : halfB;
  const incAxes = faceOfA ? axesB : axesA;
  const incHalf = faceOfA ? halfB : halfA;
  const rcx = faceOfA ? ax : bx,
    rcy = faceOfA ? ay : by,
    rcz = faceOfA ? az : bz;
  const icx = faceOfA ? bx : ax,
    icy = faceOfA ? by : ay,
    icz = faceOfA ? bz : az;
  // The reference face's outward normal n, towards the incident box.
  let nx = refAxes[3 * k]!,
    ny = refAxes[3 * k + 1]!,
    nz = refAxes[3 * k + 2]!;
  let refSign = 1;
  if ((icx - rcx) * nx + (icy - rcy) * ny + (icz - rcz) * nz < 0) {
    nx = -nx;
    ny = -ny;
    nz = -nz;
    refSign = -1;
  }
  // The incident face: the incident box's face most against n.
  let m = 0;
  let mostAgainst = 0;
  for (let q = 0; q < 3; q++) {
    const d = incAxes[3 * q]! * nx + incAxes[3 * q + 1]! * ny + incAxes[3 * q + 2]! * nz;
    if (Math.abs(d) > Math.abs(mostAgainst)) {
      mostAgainst = d;
      m = q;
    }
  }
  const incSign = mostAgainst > 0 ? -1 : 1;
  const m1 = (m + 1) % 3,
    m2 = (m + 2) % 3;
  const fx = icx + incSign * incHalf[m]! * incAxes[3 * m]!,
    fy = icy + incSign * incHalf[m]! * incAxes[3 * m + 1]!,
    fz = icz + incSign * incHalf[m]! * incAxes[3 * m + 2]!;
  const px = incHalf[m1]! * incAxes[3 * m1]!,
    py = incHalf[m1]! * incAxes[3 * m1 + 1]!,
    pz = incHalf[m1]! * incAxes[3 * m1 + 2]!;
  const qx = incHalf[m2]! * incAxes[3 * m2]!,
    qy = incHalf[m2]! * incAxes[3 * m2 + 1]!,
    qz = incHalf[m2]! * incAxes[3 * m2 + 2]!;
  let poly = polyA;
  let edges = edgesA;
  let sides = sidesA;
  poly[0] = fx - px - qx;
  poly[1] = fy - py - qy;
  poly[2] = fz - pz - qz;
  poly[3] = fx + px - qx;
  poly[4] = fy + py - qy;
  poly[5] = fz + pz - qz;
  poly[6] = fx + px + qx;
  poly[7] = fy + py + qy;
  poly[8] = fz + pz + qz;
  poly[9] = fx - px + qx;
  poly[10] = fy - py + qy;
  poly[11] = fz - pz + qz;
  edges[0] = 0b1001;
  edges[1] = 0b0011;
  edges[2] = 0b0110;
  edges[3] = 0b1100;
  sides[0] = sides[1] = sides[2] = sides[3] = 0;
  let n = 4;
  // The reference face's four side planes: |(x − c) · axis| ≤ half along its two other axes.
  for (let plane = 0; plane < 4 && n > 0; plane++) {
    const axis = plane < 2 ? (k + 1) % 3 : (k + 2) % 3;
    const sign = plane % 2 === 0 ? 1 : -1;
    const lx = sign * refAxes[3 * axis]!,
      ly = sign * refAxes[3 * axis + 1]!,
      lz = sign * refAxes[3 * axis + 2]!;
    const limit = refHalf[axis]!;
    const next = poly === polyA ? polyB : polyA;
    const nextEdges = edges === edgesA ? edgesB : edgesA;
    const nextSides = sides === sidesA ? sidesB : sidesA;
    const bit = 1 << plane;
    let kept = 0;
    let prev = n - 1;
    // Inside when limit − (x − c)·l ≥ 0.
    let prevInside = limit - ((poly[3 * prev]! - rcx) * lx + (poly[3 * prev + 1]! - rcy) * ly + (poly[3 * prev + 2]! - rcz) * lz);
    for (let v = 0; v < n; v++) {
      const inside = limit - ((poly[3 * v]! - rcx) * lx + (poly[3 * v + 1]! - rcy) * ly + (poly[3 * v + 2]! - rcz) * lz);
      if (inside >= 0 !== prevInside >= 0) {
        const t = prevInside / (prevInside - inside);
        next[3 * kept] = poly[3 * prev]! + t * (poly[3 * v]! - poly[3 * prev]!);
        next[3 * kept + 1] = poly[3 * prev + 1]! + t * (poly[3 * v + 1]! - poly[3 * prev + 1]!);
        next[3 * kept + 2] = poly[3 * prev + 2]! + t * (poly[3 * v + 2]! - poly[3 * prev + 2]!);
        nextEdges[kept] = edges[prev]! & edges[v]!;
        nextSides[kept] = (sides[prev]! & sides[v]!) | bit;
        kept++;
      }
      if (inside >= 0) {
        next[3 * kept] = poly[3 * v]!;
        next[3 * kept + 1] = poly[3 * v + 1]!;
        next[3 * kept + 2] = poly[3 * v + 2]!;
        nextEdges[kept] = edges[v]!;
        nextSides[kept] = sides[v]!;
        kept++;
      }
      prev = v;
      prevInside = inside;
    }
    poly = next;
    edges = nextEdges;
    sides = nextSides;
    n = kept;
  }
  const faceHeight = refHalf[k]!;
  // Which faces met: the reference (box, axis, side) and the incident one, the same for all points.
  const refFace = 2 * k + (refSign > 0 ? 0 : 1);
  const incFace = 2 * m + (incSign > 0 ? 0 : 1);
  let written = 0;
  for (let v = 0; v < n; v++) {
    const x = poly[3 * v]!,
      y = poly[3 * v + 1]!,
      z = poly[3 * v + 2]!;
    const depth = faceHeight - ((x - rcx) * nx + (y - rcy) * ny + (z - rcz) * nz);
    if (depth < -reach) continue;
    const o = offset + BOX_BOX_STRIDE * written++;
    // Halfway between the incident point and the reference face.
    const half = 0.5 * depth;
    out[o] = x + half * nx;
    out[o + 1] = y + half * ny;
    out[o + 2] = z + half * nz;
    out[o + 3] = depth;
    const refFeature = refFace * 8 + incFace + (faceOfA ? 0 : 64);
    const pointFeature = edges[v]! * 16 + sides[v]!;
    out[o + 4] = faceOfA ? refFeature : pointFeature;
    out[o + 5] = faceOfA ? pointFeature : refFeature;
  }
  // From b towards a: n points from the reference box to the incident one.
  const flip = faceOfA ? -1 : 1;
  boxBoxNormal[0] = flip * nx;
  boxBoxNormal[1] = flip * ny;
  boxBoxNormal[2] = flip * nz;
  return written;
}
