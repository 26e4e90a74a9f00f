import * as THREE from 'three';

const UP = new THREE.Vector3(0, 1, 0);
const axis = new THREE.Vector3();

/**
 * Places an object built around +y (a capsule of the right radius and length, centred on the origin)
 * on the segment p0–p1: centred between the ends, +y turned onto the axis.
 */
export function poseOnSegment(object: THREE.Object3D, p0x: number, p0y: number, p0z: number, p1x: number, p1y: number, p1z: number): void {
  object.position.set(0.5 * (p0x + p1x), 0.5 * (p0y + p1y), 0.5 * (p0z + p1z));
  axis.set(p1x - p0x, p1y - p0y, p1z - p0z);
  if (axis.lengthSq() > 0) object.quaternion.setFromUnitVectors(UP, axis.normalize());
  else object.quaternion.identity();
}

/** A capsule outline along +y: rings at the ends and the middle, meridians over both caps. */
export function capsuleWireGeometry(radius: number, halfHeight: number, segments = 24): THREE.BufferGeometry {
  const points: number[] = [];
  const ring = (y: number, r: number): void => {
    for (let k = 0; k < segments; k++) {
      const a0 = (2 * Math.PI * k) / segments,
        a1 = (2 * Math.PI * (k + 1)) / segments;
      points.push(r * Math.cos(a0), y, r * Math.sin(a0), r * Math.cos(a1), y, r * Math.sin(a1));
    }
  };
  ring(halfHeight, radius);
  ring(-halfHeight, radius);
  ring(0, radius);
  for (let m = 0; m < 4; m++) {
    const a = (Math.PI * m) / 4;
    const cx = Math.cos(a),
      cz = Math.sin(a);
    // One meridian: up one side of the cylinder, over the top cap, down the other side, under the bottom cap.
    const arc: [number, number][] = [];
    for (let k = 0; k <= segments; k++) {
      const t = (Math.PI * k) / segments;
      arc.push([radius * Math.cos(t), halfHeight + radius * Math.sin(t)]);
    }
    for (let k = 0; k <= segments; k++) {
      const t = Math.PI + (Math.PI * k) / segments;
      arc.push([radius * Math.cos(t), -halfHeight + radius * Math.sin(t)]);
    }
    arc.push(arc[0]!);
    for (let k = 0; k + 1 < arc.length; k++) {
      const [s0, y0] = arc[k]!,
        [s1, y1] = arc[k + 1]!;
      points.push(s0 * cx, y0, s0 * cz, s1 * cx, y1, s1 * cz);
    }
  }
  return new THREE.BufferGeometry().setAttribute('position', new THREE.Float32BufferAttribute(points, 3));
}

/** A solid capsule along +y of the given radius and half axis length. */
export function capsuleSolidGeometry(radius: number, halfHeight: number): THREE.BufferGeometry {
  return new THREE.CapsuleGeometry(radius, 2 * halfHeight, 8, 16);
}
