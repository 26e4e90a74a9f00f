import { RAY_TRIANGLE_KERNEL_NAMES, type RayTriangleKernelName } from '../query/rayTriangle/registry';
import { child, expectBoolean, expectKnownKeys, expectNumber, expectObject, expectOneOf, type Where } from '../scene/validate';

export const CRACK_PRECISIONS = ['float32', 'float64'] as const;
export type CrackPrecision = (typeof CRACK_PRECISIONS)[number];

/** The crack explorer's settings, complete: what the system runs with and what section() writes. */
export interface CrackSettings {
  /** Rays aimed through shared edges and vertices of the terrain grid. */
  rays: number;
  /** The share of them aimed at vertices (the rest at edges). */
  vertexShare: number;
  /** Float32 rays also go through the whole BVH (the BVH casts float32 rays, so only those compare). */
  precision: CrackPrecision;
  doubleSided: boolean;
  seed: number;
  /** The triangle test whose misses a view draws. */
  showMissesOf: RayTriangleKernelName;
}

/** The crack explorer's section of a scene file (`systems.cracks`); fields left out take the defaults. */
export type SceneCracks = Partial<CrackSettings>;

export const MAX_CRACK_RAYS = 1_000_000;

/**
 * Misses drawn by default are Möller–Trumbore's, the test that leaks most through shared edges and
 * vertices of a float grid (2,081 of 60,000 float64 rays on the 256-cell default terrain). The
 * watertight test has none to draw, and the edge-plane test, crack-free on shared edges, leaks only at
 * some vertices (118 there): drawn by default, either showed next to nothing.
 */
export const DEFAULT_CRACKS: Readonly<CrackSettings> = Object.freeze({
  rays: 100_000,
  vertexShare: 0.5,
  precision: 'float32',
  doubleSided: false,
  seed: 1,
  showMissesOf: 'moller-trumbore',
});

const FIELDS = ['rays', 'vertexShare', 'precision', 'doubleSided', 'seed', 'showMissesOf'] as const;

/** Validates the crack explorer's section: every field typed and in range, unknown fields are errors. */
export function parseCracks(value: unknown, where: Where): SceneCracks {
  const input = expectObject(value, where);
  expectKnownKeys(input, FIELDS, where);
  const result: SceneCracks = {};
  if (input.rays !== undefined) result.rays = expectNumber(input.rays, child(where, 'rays'), 1, MAX_CRACK_RAYS, true);
  if (input.vertexShare !== undefined) result.vertexShare = expectNumber(input.vertexShare, child(where, 'vertexShare'), 0, 1);
  if (input.precision !== undefined) result.precision = expectOneOf(input.precision, CRACK_PRECISIONS, child(where, 'precision'));
  if (input.doubleSided !== undefined) result.doubleSided = expectBoolean(input.doubleSided, child(where, 'doubleSided'));
  if (input.seed !== undefined) result.seed = expectNumber(input.seed, child(where, 'seed'), 0, 0xffffffff, true);
  if (input.showMissesOf !== undefined)
    result.showMissesOf = expectOneOf(input.showMissesOf, RAY_TRIANGLE_KERNEL_NAMES, child(where, 'showMissesOf'));
  return result;
}
