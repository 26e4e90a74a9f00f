import { MASK_ALL } from '../bvh/collisionMasks';
import { InvalidParameterError } from '../errors';
import { DEFAULT_KERNEL, KERNELS, type Kernel } from '../platform/kernels';
import { BOX_TRIANGLE_VARIANTS, type BoxTriangleVariant } from '../query/boxTriangle/registry';
import { child, expectBoolean, expectKnownKeys, expectNumber, expectObject, expectOneOf, type Where } from '../scene/validate';

/**
 * The box probe's section of a scene file (`systems.boxProbe`); fields left out take the defaults
 * (DEFAULT_BOX_PROBE). One box, placed on the terrain, whose overlapped triangles the system keeps.
 */
export interface SceneBoxProbe {
  /** World x and z of the box's centre. */
  center?: [number, number];
  /** Height of the centre above the terrain surface under it. */
  lift?: number;
  /** Half extents along the box's own x, y, z axes (0 is a flat or degenerate box, still queried). */
  halfSize?: [number, number, number];
  /** Rotation about the vertical axis, degrees; with tilt 0 too the box stays axis-aligned. */
  yaw?: number;
  /** Tilt about the box's own x axis, degrees. */
  tilt?: number;
  /** The TypeScript box–triangle test at the leaves (the wasm-simd kernel is v1's twin and ignores it). */
  test?: BoxTriangleVariant;
  kernel?: Kernel;
  /** Also keep the candidates a leaf test rejected, with the exit that rejected them, for drawing. */
  includeRejected?: boolean;
  /** Collision filter: only triangles whose material mask shares a bit with it are queried (all by default). */
  filter?: number;
}

export type BoxProbeSettings = Required<SceneBoxProbe>;

const DEFAULTS: BoxProbeSettings = {
  center: [0, 0],
  lift: 0,
  halfSize: [12, 8, 12],
  yaw: 0,
  tilt: 0,
  test: 'optimized',
  kernel: DEFAULT_KERNEL,
  includeRejected: false,
  filter: MASK_ALL,
};
export const DEFAULT_BOX_PROBE: Readonly<BoxProbeSettings> = Object.freeze(DEFAULTS);

const BOX_PROBE_FIELDS = ['center', 'lift', 'halfSize', 'yaw', 'tilt', 'test', 'kernel', 'includeRejected', 'filter'] as const;
/** Far beyond any terrain the page builds, but finite: the box's float32 corners stay exact enough. */
export const MAX_BOX_COORDINATE = 1e6;
export const MAX_HALF_SIZE = 10_000;

/** Validates the box probe's section: every field typed and in range, unknown fields are errors. */
export function parseBoxProbe(value: unknown, where: Where): SceneBoxProbe {
  const input = expectObject(value, where);
  expectKnownKeys(input, BOX_PROBE_FIELDS, where);
  const result: SceneBoxProbe = {};
  if (input.center !== undefined) {
    const at = child(where, 'center');
    if (!Array.isArray(input.center) || input.center.length !== 2)
      throw new InvalidParameterError(at.field, 'an array of 2 finite numbers [x, z]', input.center, at.file);
    const coordinate = (k: number): number => expectNumber((input.center as unknown[])[k], child(at, k), -MAX_BOX_COORDINATE, MAX_BOX_COORDINATE);
    result.center = [coordinate(0), coordinate(1)];
  }
  if (input.lift !== undefined) result.lift = expectNumber(input.lift, child(where, 'lift'), -MAX_BOX_COORDINATE, MAX_BOX_COORDINATE);
  if (input.halfSize !== undefined) {
    const at = child(where, 'halfSize');
    if (!Array.isArray(input.halfSize) || input.halfSize.length !== 3)
      throw new InvalidParameterError(at.field, `an array of 3 numbers [x, y, z] in [0, ${MAX_HALF_SIZE}]`, input.halfSize, at.file);
    const half = (k: number): number => expectNumber((input.halfSize as unknown[])[k], child(at, k), 0, MAX_HALF_SIZE);
    result.halfSize = [half(0), half(1), half(2)];
  }
  if (input.yaw !== undefined) result.yaw = expectNumber(input.yaw, child(where, 'yaw'), -360, 360);
  if (input.tilt !== undefined) result.tilt = expectNumber(input.tilt, child(where, 'tilt'), -360, 360);
  if (input.test !== undefined) result.test = expectOneOf(input.test, BOX_TRIANGLE_VARIANTS, child(where, 'test'));
  if (input.kernel !== undefined) result.kernel = expectOneOf(input.kernel, KERNELS, child(where, 'kernel'));
  if (input.includeRejected !== undefined) result.includeRejected = expectBoolean(input.includeRejected, child(where, 'includeRejected'));
  if (input.filter !== undefined) result.filter = expectNumber(input.filter, child(where, 'filter'), 0, MASK_ALL, true);
  return result;
}
