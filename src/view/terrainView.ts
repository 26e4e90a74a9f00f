import * as THREE from 'three';
import type { TerrainMesh } from '../core';
import { MATERIAL_COLOURS, writeMaterialColors, writeTerrainColors, type TerrainColouring } from './terrainColors';

export interface TerrainLook {
  colouring: TerrainColouring;
  wireframe: boolean;
  flatShading: boolean;
}

/**
 * The terrain drawable: one indexed BufferGeometry sharing the core's typed arrays, plus a wireframe,
 * and with the material colouring a translucent water plane at the water level.
 */
export class TerrainView {
  readonly group = new THREE.Group();
  private mesh: THREE.Mesh<THREE.BufferGeometry, THREE.MeshStandardMaterial> | null = null;
  private wire: THREE.Mesh | null = null;
  private water: THREE.Mesh<THREE.PlaneGeometry, THREE.MeshStandardMaterial> | null = null;
  private terrain: TerrainMesh | null = null;
  private readonly material = new THREE.MeshStandardMaterial({ vertexColors: true, roughness: 0.95, metalness: 0, flatShading: false });
  private readonly wireMaterial = new THREE.MeshBasicMaterial({ color: 0x0b1a2a, wireframe: true, transparent: true, opacity: 0.35 });
  private look: TerrainLook = { colouring: 'height+slope', wireframe: false, flatShading: false };

  constructor() {
    this.group.name = 'terrain';
  }

  setTerrain(terrain: TerrainMesh): void {
    this.disposeGeometry();
    this.terrain = terrain;
    const geometry = new THREE.BufferGeometry();
    // The core's arrays are used as they are: no copy of a 2M-triangle mesh.
    geometry.setAttribute('position', new THREE.BufferAttribute(terrain.positions, 3));
    geometry.setAttribute('normal', new THREE.BufferAttribute(terrain.normals, 3));
    geometry.setAttribute('color', new THREE.BufferAttribute(new Float32Array(terrain.vertexCount * 3), 3));
    geometry.setIndex(new THREE.BufferAttribute(terrain.indices, 1));
    const half = terrain.params.worldSize / 2;
    geometry.boundingBox = new THREE.Box3(new THREE.Vector3(-half, terrain.minHeight, -half), new THREE.Vector3(half, terrain.maxHeight, half));
    geometry.boundingSphere = geometry.boundingBox.getBoundingSphere(new THREE.Sphere());
    this.mesh = new THREE.Mesh(geometry, this.material);
    this.mesh.name = 'terrain-surface';
    this.mesh.receiveShadow = false;
    this.group.add(this.mesh);
    // The plane where the terrain's materials turn to water (triangles whose centre lies below it).
    const water = MATERIAL_COLOURS[3]!;
    const plane = new THREE.PlaneGeometry(terrain.params.worldSize, terrain.params.worldSize).rotateX(-Math.PI / 2);
    const waterMaterial = new THREE.MeshStandardMaterial({
      color: new THREE.Color(water[0], water[1], water[2]),
      transparent: true,
      opacity: 0.35,
      depthWrite: false,
      roughness: 0.3,
      metalness: 0,
    });
    this.water = new THREE.Mesh(plane, waterMaterial);
    this.water.name = 'terrain-water';
    this.water.position.y = terrain.params.waterLevel * terrain.params.heightScale;
    this.water.renderOrder = 2;
    this.group.add(this.water);
    this.applyLook(this.look);
  }

  applyLook(look: TerrainLook): void {
    const colouringChanged = look.colouring !== this.look.colouring;
    this.look = { ...look };
    if (this.material.flatShading !== look.flatShading) {
      this.material.flatShading = look.flatShading;
      this.material.needsUpdate = true;
    }
    if (this.mesh !== null && this.terrain !== null) {
      const colors = this.mesh.geometry.getAttribute('color') as THREE.BufferAttribute;
      if (colouringChanged || colors.version === 0) {
        const t = this.terrain;
        if (look.colouring === 'material') writeMaterialColors(t.indices, t.materials, colors.array as Float32Array);
        else writeTerrainColors(t.positions, t.normals, t.minHeight, t.maxHeight, look.colouring, colors.array as Float32Array);
        colors.needsUpdate = true;
      }
      if (this.water !== null) this.water.visible = look.colouring === 'material';
      if (look.wireframe && this.wire === null) {
        this.wire = new THREE.Mesh(this.mesh.geometry, this.wireMaterial);
        this.wire.name = 'terrain-wireframe';
        this.wire.renderOrder = 1;
        this.group.add(this.wire);
      } else if (!look.wireframe && this.wire !== null) {
        this.group.remove(this.wire);
        this.wire = null;
      }
    }
  }

  /** The surface mesh, for picking. */
  get surface(): THREE.Mesh | null {
    return this.mesh;
  }

  private disposeGeometry(): void {
    if (this.wire !== null) this.group.remove(this.wire);
    this.wire = null;
    if (this.water !== null) {
      this.group.remove(this.water);
      this.water.geometry.dispose();
      this.water.material.dispose();
      this.water = null;
    }
    if (this.mesh !== null) {
      this.group.remove(this.mesh);
      this.mesh.geometry.dispose();
      this.mesh = null;
    }
  }

  dispose(): void {
    this.disposeGeometry();
    this.material.dispose();
    this.wireMaterial.dispose();
  }
}
