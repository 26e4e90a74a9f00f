import * as THREE from 'three';
import { capsuleSolidGeometry } from './capsuleShapes';
import { cssColour, type Legend } from './legend';

const UP = new THREE.Vector3(0, 1, 0);
const FRESH = 0xffa033;
const CALM = 0x4a78c8;

export const CAPSULE_CROWD_LEGEND: Legend = {
  title: 'swept capsules (crowd)',
  gradient: { stops: [cssColour(FRESH), cssColour(CALM)], min: 'just hit', max: 'free ≥ 0.6 s' },
};

/**
 * Many capsules in one draw call: an instanced solid capsule, one matrix per capsule from its centre
 * and axis, coloured by how recently it bounced (orange fading to blue).
 */
export class CapsuleCrowdView {
  mesh: THREE.InstancedMesh<THREE.BufferGeometry, THREE.MeshStandardMaterial>;
  readonly group = new THREE.Group();
  private capacity = 0;
  private shapeKey = '';
  private readonly matrix = new THREE.Matrix4();
  private readonly position = new THREE.Vector3();
  private readonly axis = new THREE.Vector3();
  private readonly rotation = new THREE.Quaternion();
  private readonly scale = new THREE.Vector3(1, 1, 1);
  private readonly colour = new THREE.Color();
  private readonly fresh = new THREE.Color(FRESH);
  private readonly calm = new THREE.Color(CALM);

  constructor() {
    this.mesh = this.build(1, 0.5, 1);
    this.group.add(this.mesh);
    this.group.visible = false;
  }

  private build(capacity: number, radius: number, halfHeight: number): THREE.InstancedMesh<THREE.BufferGeometry, THREE.MeshStandardMaterial> {
    const mesh = new THREE.InstancedMesh(capsuleSolidGeometry(radius, halfHeight), new THREE.MeshStandardMaterial({ roughness: 0.6 }), capacity);
    mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    mesh.frustumCulled = false;
    mesh.count = 0;
    this.capacity = capacity;
    return mesh;
  }

  update(count: number, centres: Float64Array, axes: Float32Array, sinceHit: Float32Array, radius: number, halfHeight: number): void {
    const key = `${radius}/${halfHeight}`;
    if (count > this.capacity || key !== this.shapeKey) {
      this.group.remove(this.mesh);
      this.mesh.geometry.dispose();
      this.mesh.material.dispose();
      this.mesh.dispose();
      this.mesh = this.build(Math.max(count, 16), radius, halfHeight);
      this.group.add(this.mesh);
      this.shapeKey = key;
    }
    const mesh = this.mesh;
    for (let i = 0; i < count; i++) {
      const i3 = 3 * i;
      this.position.set(centres[i3]!, centres[i3 + 1]!, centres[i3 + 2]);
      this.axis.set(axes[i3]!, axes[i3 + 1]!, axes[i3 + 2]);
      this.rotation.setFromUnitVectors(UP, this.axis);
      this.matrix.compose(this.position, this.rotation, this.scale);
      mesh.setMatrixAt(i, this.matrix);
      this.colour.lerpColors(this.fresh, this.calm, Math.min(1, sinceHit[i]! / 0.6));
      mesh.setColorAt(i, this.colour);
    }
    mesh.count = count;
    mesh.instanceMatrix.needsUpdate = true;
    if (mesh.instanceColor !== null) mesh.instanceColor.needsUpdate = true;
  }
}
