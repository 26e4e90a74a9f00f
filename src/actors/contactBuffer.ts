/**
 * Contact points of one substep, packed for the solver. Each contact is one record of CONTACT_STRIDE
 * float64 in `data` (every solver iteration reads a contact's fields together, so they sit side by side)
 * and two int32 in `bodies`: actor a, and actor b or TERRAIN, and two int32 in `features`: which contact
 * sphere of a and which triangle (or contact sphere of b) made it — with the bodies, the key under which
 * the next substep finds the contact again (ContactCache). The normal points from b (or the ground)
 * towards a; depth > 0 is overlap, depth < 0 a gap the solver may close within the substep (a
 * speculative contact, which is what keeps fast actors from tunnelling through the terrain).
 *
 *   0..2   normal                 3..5   world point
 *   6      depth                  7..9   point − centre of a     10..12 point − centre of b
 *   13..15 tangent 1              16..18 tangent 2
 *   19     normal mass            20, 21 tangent masses
 *   22     normal velocity target (speculative gap, restitution)
 *   23     normal impulse         24, 25 tangent impulses
 *   26     push-out velocity target (split impulse)      27 push-out impulse
 *   28     rolling radius (the contact sphere's)          29, 30, 31 rolling masses about t1, t2, normal
 *   32, 33, 34 rolling impulses about t1, t2, normal      35 (padding)
 *   36..44 I_a⁻¹ (r_a × normal), I_a⁻¹ (r_a × t1), I_a⁻¹ (r_a × t2)   (zero when a does not move)
 *   45..53 the same for b                                              (zero when b does not move)
 *   54, 55 inverse masses of a and b                                   (zero when they do not move)
 * The last rows are what an impulse along the normal or a tangent does to the bodies' spins and
 * velocities: computed once per substep, they spare every solver sweep two matrix products per body.
 */
export const CONTACT_STRIDE = 56;
export const C_NX = 0;
export const C_PX = 3;
export const C_DEPTH = 6;
export const C_RA = 7;
export const C_RB = 10;
export const C_T1 = 13;
export const C_T2 = 16;
export const C_MASS_N = 19;
export const C_MASS_T1 = 20;
export const C_MASS_T2 = 21;
export const C_TARGET = 22;
export const C_LAMBDA_N = 23;
export const C_LAMBDA_T1 = 24;
export const C_LAMBDA_T2 = 25;
export const C_PUSH_TARGET = 26;
export const C_LAMBDA_PUSH = 27;
export const C_ROLL_RADIUS = 28;
export const C_ROLL_MASS1 = 29;
export const C_ROLL_MASS2 = 30;
export const C_ROLL_MASS3 = 31;
export const C_LAMBDA_ROLL1 = 32;
export const C_LAMBDA_ROLL2 = 33;
export const C_LAMBDA_ROLL3 = 34;
export const C_ANG_A_N = 36;
export const C_ANG_A_T1 = 39;
export const C_ANG_A_T2 = 42;
export const C_ANG_B_N = 45;
export const C_ANG_B_T1 = 48;
export const C_ANG_B_T2 = 51;
export const C_INV_MASS_A = 54;
export const C_INV_MASS_B = 55;
/** Body b of a contact with the ground. */
export const TERRAIN = -1;

export class ContactBuffer {
  data = new Float64Array(CONTACT_STRIDE * 256);
  bodies = new Int32Array(2 * 256);
  features = new Int32Array(2 * 256);
  count = 0;
  /** How many of the contacts are with the terrain. */
  terrainCount = 0;

  clear(): void {
    this.count = 0;
    this.terrainCount = 0;
  }

  /** Appends a contact; returns its record offset in `data`. Grows (doubling) when full. */
  add(
    a: number,
    b: number,
    nx: number,
    ny: number,
    nz: number,
    px: number,
    py: number,
    pz: number,
    depth: number,
    rollRadius: number,
    featureA: number,
    featureB: number,
  ): number {
    if (this.count * 2 === this.bodies.length) this.grow();
    const i = this.count++;
    this.bodies[2 * i] = a;
    this.bodies[2 * i + 1] = b;
    this.features[2 * i] = featureA;
    this.features[2 * i + 1] = featureB;
    const o = CONTACT_STRIDE * i;
    const d = this.data;
    d[o] = nx;
    d[o + 1] = ny;
    d[o + 2] = nz;
    d[o + 3] = px;
    d[o + 4] = py;
    d[o + 5] = pz;
    d[o + 6] = depth;
    d[o + 28] = rollRadius;
    return o;
  }

  private grow(): void {
    const data = new Float64Array(this.data.length * 2);
    data.set(this.data);
    this.data = data;
    const bodies = new Int32Array(this.bodies.length * 2);
    bodies.set(this.bodies);
    this.bodies = bodies;
    const features = new Int32Array(this.features.length * 2);
    features.set(this.features);
    this.features = features;
  }
}
