/**
 * Whirl and explosion written by hand in TypeScript, as a programmer would without the field
 * language: parameters hoisted into locals, 3-vectors, one loop. The benchmark's yardstick for the
 * back ends, and a second check of the example programs' meaning (they agree to float rounding).
 * Parameters are arguments, not literals, as they would be for an effect a designer can place and tune.
 */
export interface WhirlParameters {
  readonly center: readonly [number, number, number];
  readonly axis: readonly [number, number, number];
  readonly speed: number;
  readonly radius: number;
}

export interface ExplosionParameters {
  readonly center: readonly [number, number, number];
  readonly strength: number;
  readonly radius: number;
}

/** Adds whirl then explosion into `wind` (float4 per point; w left as it is) at `count` positions. */
export function handWrittenWhirlExplosion(
  positions: Float32Array,
  wind: Float32Array,
  count: number,
  whirl: WhirlParameters,
  explosion: ExplosionParameters,
): void {
  const wcx = whirl.center[0],
    wcy = whirl.center[1],
    wcz = whirl.center[2];
  const ax = whirl.axis[0],
    ay = whirl.axis[1],
    az = whirl.axis[2];
  const whirlScale = whirl.speed * whirl.radius;
  const ecx = explosion.center[0],
    ecy = explosion.center[1],
    ecz = explosion.center[2];
  const strength = explosion.strength;
  const blastRadiusSquared = explosion.radius * explosion.radius;
  for (let p = 0, end = count * 4; p < end; p += 4) {
    const px = positions[p]!,
      py = positions[p + 1]!,
      pz = positions[p + 2]!;
    let wx = wind[p]!,
      wy = wind[p + 1]!,
      wz = wind[p + 2]!;

    const rx = px - wcx,
      ry = py - wcy,
      rz = pz - wcz;
    const falloff = whirlScale / (rx * rx + ry * ry + rz * rz);
    wx += (ay * rz - az * ry) * falloff;
    wy += (az * rx - ax * rz) * falloff;
    wz += (ax * ry - ay * rx) * falloff;

    const ox = px - ecx,
      oy = py - ecy,
      oz = pz - ecz;
    const distanceSquared = ox * ox + oy * oy + oz * oz;
    if (distanceSquared < blastRadiusSquared && distanceSquared > 0) {
      const push = strength / Math.sqrt(distanceSquared);
      wx += ox * push;
      wy += oy * push;
      wz += oz * push;
    }
    wind[p] = wx;
    wind[p + 1] = wy;
    wind[p + 2] = wz;
  }
}

/**
 * The same two effects spelt exactly as the field programs define them (float4 throughout, w included,
 * the division per component, the blast computed then selected), so it does the programs' arithmetic
 * and no more: the yardstick that separates the JIT's own overhead from the cost of the language's
 * float4 semantics. Matches the bytecode back ends bit for bit when given the programs' constants.
 */
export function handWrittenWhirlExplosionFloat4(
  positions: Float32Array,
  wind: Float32Array,
  count: number,
  whirl: {
    readonly center: ArrayLike<number>;
    readonly up: ArrayLike<number>;
    readonly speed: ArrayLike<number>;
    readonly radius: ArrayLike<number>;
  },
  explosion: { readonly center: ArrayLike<number>; readonly strength: ArrayLike<number>; readonly radius: ArrayLike<number> },
): void {
  const cx = whirl.center[0]!,
    cy = whirl.center[1]!,
    cz = whirl.center[2]!,
    cw = whirl.center[3]!;
  const ux = whirl.up[0]!,
    uy = whirl.up[1]!,
    uz = whirl.up[2]!;
  const sx = whirl.speed[0]!,
    sy = whirl.speed[1]!,
    sz = whirl.speed[2]!,
    sw = whirl.speed[3]!;
  const rx = whirl.radius[0]!,
    ry = whirl.radius[1]!,
    rz = whirl.radius[2]!,
    rw = whirl.radius[3]!;
  const ex = explosion.center[0]!,
    ey = explosion.center[1]!,
    ez = explosion.center[2]!,
    ew = explosion.center[3]!;
  const gx = explosion.strength[0]!,
    gy = explosion.strength[1]!,
    gz = explosion.strength[2]!,
    gw = explosion.strength[3]!;
  const bx = explosion.radius[0]! * explosion.radius[0]!,
    by = explosion.radius[1]! * explosion.radius[1]!;
  const bz = explosion.radius[2]! * explosion.radius[2]!,
    bw = explosion.radius[3]! * explosion.radius[3]!;
  const sw0 = sw * 0;
  for (let p = 0, end = count * 4; p < end; p += 4) {
    const px = positions[p]!,
      py = positions[p + 1]!,
      pz = positions[p + 2]!,
      pw = positions[p + 3]!;
    const dx = px - cx,
      dy = py - cy,
      dz = pz - cz,
      dw = pw - cw;
    const d2 = dx * dx + dy * dy + dz * dz + dw * dw;
    const wx = wind[p]! + ((sx * (uy * dz - uz * dy)) / d2) * rx;
    const wy = wind[p + 1]! + ((sy * (uz * dx - ux * dz)) / d2) * ry;
    const wz = wind[p + 2]! + ((sz * (ux * dy - uy * dx)) / d2) * rz;
    const ww = wind[p + 3]! + (sw0 / d2) * rw;

    const ox = px - ex,
      oy = py - ey,
      oz = pz - ez,
      ow = pw - ew;
    const o2 = ox * ox + oy * oy + oz * oz + ow * ow;
    const inverse = o2 > 0 ? 1 / Math.sqrt(o2) : 0;
    wind[p] = wx + (o2 < bx ? ox * inverse * gx : 0);
    wind[p + 1] = wy + (o2 < by ? oy * inverse * gy : 0);
    wind[p + 2] = wz + (o2 < bz ? oz * inverse * gz : 0);
    wind[p + 3] = ww + (o2 < bw ? ow * inverse * gw : 0);
  }
}
