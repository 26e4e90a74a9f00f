import { InvalidParameterError } from '../errors';

/**
 * The three actor shapes, their mass properties, the contact spheres that stand in for them in the
 * collision tests (a box's own contacts are exact — boxTriangle.ts, boxContacts.ts — its spheres bound
 * it for the broad-phase and the tests that still read them), and their drag (coefficient and area
 * projected across the wind).
 *
 * Sizes are three numbers per actor, in the actor's local frame:
 *   sphere   (radius, radius, radius)
 *   box      (half extent x, half extent y, half extent z)
 *   capsule  (radius, half length of the axis segment, radius) — the axis is local y
 */
export const SHAPE_SPHERE = 0;
export const SHAPE_BOX = 1;
export const SHAPE_CAPSULE = 2;
export const SHAPE_NAMES = ['sphere', 'box', 'capsule'] as const;
export type ShapeName = (typeof SHAPE_NAMES)[number];

export type ActorShape =
  | { readonly kind: 'sphere'; readonly radius: number }
  | { readonly kind: 'box'; readonly halfExtents: readonly [number, number, number] }
  | { readonly kind: 'capsule'; readonly radius: number; readonly halfLength: number };

/**
 * Drag coefficients per shape kind, from the usual wind-tunnel tables: a smooth sphere ≈ 0.47, a cube
 * face-on ≈ 1.05, a cylinder side-on ≈ 0.8–1.2 and much less end-on — a capsule's rounded ends bring it
 * down, 0.82 is a middle value. Crude by design: one coefficient per kind, no Reynolds number.
 */
export const DRAG_COEFFICIENTS: Readonly<Record<ShapeName, number>> = Object.freeze({ sphere: 0.47, box: 1.05, capsule: 0.82 });
const DRAG_BY_KIND = [DRAG_COEFFICIENTS.sphere, DRAG_COEFFICIENTS.box, DRAG_COEFFICIENTS.capsule];
export const dragCoefficientOf = (kind: number): number => DRAG_BY_KIND[kind]!;

/** The largest size any actor may have; a terrain query box bigger than the world serves no one. */
export const MAX_ACTOR_SIZE = 1000;

function positiveSize(field: string, value: number): number {
  if (!(value > 0) || !(value <= MAX_ACTOR_SIZE)) throw new InvalidParameterError(field, `a number in (0, ${MAX_ACTOR_SIZE}]`, value);
  return value;
}

/** Shape kind code and the three size numbers; throws InvalidParameterError for a bad size. */
export function encodeShape(shape: ActorShape, size: Float32Array | Float64Array, offset: number): number {
  switch (shape.kind) {
    case 'sphere': {
      const r = positiveSize('shape.radius', shape.radius);
      size[offset] = size[offset + 1] = size[offset + 2] = r;
      return SHAPE_SPHERE;
    }
    case 'box': {
      const [x, y, z] = shape.halfExtents;
      size[offset] = positiveSize('shape.halfExtents[0]', x);
      size[offset + 1] = positiveSize('shape.halfExtents[1]', y);
      size[offset + 2] = positiveSize('shape.halfExtents[2]', z);
      return SHAPE_BOX;
    }
    case 'capsule': {
      const r = positiveSize('shape.radius', shape.radius);
      // A zero half length is a sphere, which is fine; a negative one is not.
      const h = shape.halfLength;
      if (!(h >= 0) || !(h <= MAX_ACTOR_SIZE)) throw new InvalidParameterError('shape.halfLength', `a number in [0, ${MAX_ACTOR_SIZE}]`, h);
      size[offset] = r;
      size[offset + 1] = h;
      size[offset + 2] = r;
      return SHAPE_CAPSULE;
    }
    default:
      throw new InvalidParameterError('shape.kind', `one of ${SHAPE_NAMES.join(', ')}`, (shape as { kind: unknown }).kind);
  }
}

/** Volume of a shape from its kind and size. */
export function shapeVolume(kind: number, sx: number, sy: number, sz: number): number {
  if (kind === SHAPE_SPHERE) return (4 / 3) * Math.PI * sx * sx * sx;
  if (kind === SHAPE_BOX) return 8 * sx * sy * sz;
  return Math.PI * sx * sx * (2 * sy) + (4 / 3) * Math.PI * sx * sx * sx;
}

/**
 * Mass and principal moments of inertia (about local x, y, z) for a uniform density: written to
 * out[0..3] as mass, Ix, Iy, Iz. The capsule is a cylinder plus two hemispheres, each hemisphere's
 * moment shifted to the capsule's centre (parallel axis theorem with its own centroid at 3r/8).
 */
export function massProperties(kind: number, sx: number, sy: number, sz: number, density: number, out: Float64Array): void {
  if (kind === SHAPE_SPHERE) {
    const m = density * shapeVolume(kind, sx, sy, sz);
    const i = 0.4 * m * sx * sx;
    out[0] = m;
    out[1] = out[2] = out[3] = i;
  } else if (kind === SHAPE_BOX) {
    const m = density * shapeVolume(kind, sx, sy, sz);
    out[0] = m;
    out[1] = (m / 3) * (sy * sy + sz * sz);
    out[2] = (m / 3) * (sx * sx + sz * sz);
    out[3] = (m / 3) * (sx * sx + sy * sy);
  } else {
    const r = sx;
    const h = sy;
    const cylinder = density * Math.PI * r * r * 2 * h;
    const caps = density * (4 / 3) * Math.PI * r * r * r;
    const axial = cylinder * 0.5 * r * r + caps * 0.4 * r * r;
    const across = cylinder * ((h * h) / 3 + (r * r) / 4) + caps * (0.4 * r * r + h * h + 0.75 * h * r);
    out[0] = cylinder + caps;
    out[1] = across;
    out[2] = axial;
    out[3] = across;
  }
}

/** Radius of the smallest sphere about the centre holding the shape. */
export function boundingRadius(kind: number, sx: number, sy: number, sz: number): number {
  if (kind === SHAPE_SPHERE) return sx;
  if (kind === SHAPE_BOX) return Math.sqrt(sx * sx + sy * sy + sz * sz);
  return sx + sy;
}

/** How many contact spheres a box gets at most along one axis (keeps long thin boxes affordable). */
const MAX_BOX_POINTS_PER_AXIS = 6;
/** Spacing of box contact spheres, in sphere radii: 1.5 leaves dips of a third of a radius between them. */
const BOX_SPACING_IN_RADII = 1.5;
/** Box contact sphere radius as a fraction of the box's smallest half extent. */
const BOX_SPHERE_FRACTION = 0.5;

/**
 * The contact spheres of a shape, in local coordinates, appended to `out` as (x, y, z, radius).
 * - sphere: itself;
 * - capsule: spheres of the capsule's radius along its axis, at most one radius apart, ends included;
 * - box: spheres of half the smallest half extent, inset by their radius, on a lattice over the box's
 *   surface (corners, then edge and face points), so their union is a rounded box of the same size.
 * Returns how many were appended.
 */
export function contactSpheres(kind: number, sx: number, sy: number, sz: number, out: number[]): number {
  if (kind === SHAPE_SPHERE) {
    out.push(0, 0, 0, sx);
    return 1;
  }
  if (kind === SHAPE_CAPSULE) {
    const r = sx;
    const h = sy;
    const n = h > 0 ? Math.ceil((2 * h) / r) + 1 : 1;
    for (let i = 0; i < n; i++) out.push(0, n === 1 ? 0 : -h + (2 * h * i) / (n - 1), 0, r);
    return n;
  }
  const r = BOX_SPHERE_FRACTION * Math.min(sx, sy, sz);
  const inner = [sx - r, sy - r, sz - r];
  const counts = inner.map((half) => Math.min(MAX_BOX_POINTS_PER_AXIS, Math.max(2, Math.ceil((2 * half) / (BOX_SPACING_IN_RADII * r)) + 1)));
  const [nx, ny, nz] = counts as [number, number, number];
  let added = 0;
  for (let i = 0; i < nx; i++) {
    for (let j = 0; j < ny; j++) {
      for (let k = 0; k < nz; k++) {
        // Only points on the lattice's surface: the interior never touches anything first.
        if (i > 0 && i < nx - 1 && j > 0 && j < ny - 1 && k > 0 && k < nz - 1) continue;
        out.push(
          -inner[0]! + (2 * inner[0]! * i) / (nx - 1),
          -inner[1]! + (2 * inner[1]! * j) / (ny - 1),
          -inner[2]! + (2 * inner[2]! * k) / (nz - 1),
          r,
        );
        added++;
      }
    }
  }
  return added;
}

/**
 * Area the shape shows to a flow along the unit direction (ux, uy, uz) given in the actor's local frame.
 * Exact for all three: a box shows 4(sy·sz|ux| + sx·sz|uy| + sx·sy|uz|); a capsule the disc of its caps
 * plus its cylinder's side times the sine of the angle between flow and axis.
 */
export function projectedArea(kind: number, sx: number, sy: number, sz: number, ux: number, uy: number, uz: number): number {
  if (kind === SHAPE_SPHERE) return Math.PI * sx * sx;
  if (kind === SHAPE_BOX) return 4 * (sy * sz * Math.abs(ux) + sx * sz * Math.abs(uy) + sx * sy * Math.abs(uz));
  const sine = Math.sqrt(Math.max(0, 1 - uy * uy));
  return Math.PI * sx * sx + 4 * sx * sy * sine;
}
