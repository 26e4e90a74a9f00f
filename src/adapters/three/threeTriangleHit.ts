import {
  BackSide,
  FrontSide,
  Triangle,
  Vector2,
  Vector3,
  type BufferAttribute,
  type Face,
  type InterleavedBufferAttribute,
  type Intersection,
  type Object3D,
  type Ray,
  type Raycaster,
  type Side,
} from 'three';

export type VertexAttribute = BufferAttribute | InterleavedBufferAttribute;

/** The attributes an intersection reads, looked up once per raycast. */
export interface HitAttributes {
  position: VertexAttribute;
  uv: VertexAttribute | undefined;
  uv1: VertexAttribute | undefined;
  normal: VertexAttribute | undefined;
}

const cornerA = new Vector3();
const cornerB = new Vector3();
const cornerC = new Vector3();
const localPoint = new Vector3();
const worldPoint = new Vector3();

/**
 * One triangle the BVH reported, tested again the way three's Mesh.raycast tests it (the same
 * Ray.intersectTriangle in float64 on the attribute's values, the same side rule, the same world
 * distance and near/far check) and described the way it describes a hit: distance, point, object, uv,
 * uv1, normal where the geometry has them, face {a, b, c, normal, materialIndex}, faceIndex, barycoord.
 * So an accepted hit carries exactly three's numbers, and a hit three would not report is dropped (null).
 */
export function threeTriangleHit(
  object: Object3D,
  side: Side,
  raycaster: Raycaster,
  localRay: Ray,
  attributes: HitAttributes,
  a: number,
  b: number,
  c: number,
  faceIndex: number,
  materialIndex: number,
): Intersection | null {
  const { position, uv, uv1, normal } = attributes;
  readCorner(position, a, cornerA);
  readCorner(position, b, cornerB);
  readCorner(position, c, cornerC);
  const met =
    side === BackSide
      ? localRay.intersectTriangle(cornerC, cornerB, cornerA, true, localPoint)
      : localRay.intersectTriangle(cornerA, cornerB, cornerC, side === FrontSide, localPoint);
  if (met === null) return null;
  worldPoint.copy(localPoint).applyMatrix4(object.matrixWorld);
  const distance = raycaster.ray.origin.distanceTo(worldPoint);
  if (distance < raycaster.near || distance > raycaster.far) return null;
  const hit: Intersection = { distance, point: worldPoint.clone(), object };
  const barycoord = new Vector3();
  Triangle.getBarycoord(localPoint, cornerA, cornerB, cornerC, barycoord);
  if (uv !== undefined) hit.uv = Triangle.getInterpolatedAttribute(uv, a, b, c, barycoord, new Vector2());
  if (uv1 !== undefined) hit.uv1 = Triangle.getInterpolatedAttribute(uv1, a, b, c, barycoord, new Vector2());
  if (normal !== undefined) {
    const interpolated = Triangle.getInterpolatedAttribute(normal, a, b, c, barycoord, new Vector3());
    // Facing the ray, as three turns it.
    if (interpolated.dot(localRay.direction) > 0) interpolated.multiplyScalar(-1);
    hit.normal = interpolated;
  }
  const face: Face = { a, b, c, normal: new Vector3(), materialIndex };
  Triangle.getNormal(cornerA, cornerB, cornerC, face.normal);
  hit.face = face;
  hit.barycoord = barycoord;
  hit.faceIndex = faceIndex;
  return hit;
}

/**
 * A vertex of the position attribute, as fromBufferAttribute reads it: straight from the array for a
 * plain attribute of three unnormalized components (the common case), else through its getters
 * (interleaved, normalized or packed attributes).
 */
function readCorner(position: VertexAttribute, vertex: number, into: Vector3): void {
  if ((position as Partial<BufferAttribute>).isBufferAttribute === true && position.itemSize === 3 && !position.normalized) {
    const array = position.array;
    const i = 3 * vertex;
    into.set(array[i]!, array[i + 1]!, array[i + 2]);
  } else into.fromBufferAttribute(position, vertex);
}
