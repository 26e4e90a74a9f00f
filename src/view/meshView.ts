import * as THREE from 'three';
import type { TerrainMesh } from '../core';
import { writeMaterialColors, writeTerrainColors } from './terrainColors';
import type { TerrainLook } from './terrainView';

/**
 * A mesh file placed as the ground (a level, a part, a scan): one indexed BufferGeometry over the core's
 * arrays, always flat-shaded (the normals come from each face's slope on the GPU: a mesh's sharp edges
 * would be smoothed away by the welded vertex normals), coloured by height or by the materials the core
 * gave its triangles, with an optional wireframe. Nothing edits a mesh, so it is drawn once per file.
 */
export class MeshView {
  readonly group = new THREE.Group();
  private mesh: THREE.Mesh<THREE.BufferGeometry, THREE.MeshStandardMaterial> | null = null;
  private wire: THREE.Mesh | null = null;
  private terrain: TerrainMesh | null = null;
  private readonly material = new THREE.MeshStandardMaterial({
    vertexColors: true,
    roughness: 0.9,
    metalness: 0,
    flatShading: true,
    side: THREE.DoubleSide,
  });
  private readonly wireMaterial = new THREE.MeshBasicMaterial({ color: 0x0b1a2a, wireframe: true, transparent: true, opacity: 0.35 });
  private look: TerrainLook = { colouring: 'height+slope', wireframe: false, flatShading: true };
  private coloured = false;

  constructor() {
    this.group.name = 'mesh-ground';
  }

  /** The mesh on screen, or null. */
  get shown(): TerrainMesh | null {
    return this.terrain;
  }

  setMesh(terrain: TerrainMesh): void {
    this.clear();
    this.terrain = terrain;
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(terrain.positions, 3));
    geometry.setAttribute('normal', new THREE.BufferAttribute(terrain.normals, 3));
    geometry.setAttribute('color', new THREE.BufferAttribute(new Float32Array(terrain.vertexCount * 3), 3));
    geometry.setIndex(new THREE.BufferAttribute(terrain.indices, 1));
    geometry.computeBoundingBox();
    geometry.computeBoundingSphere();
    this.mesh = new THREE.Mesh(geometry, this.material);
    this.mesh.name = 'mesh-ground-surface';
    this.group.add(this.mesh);
    this.coloured = false;
    this.applyLook(this.look);
  }

  /** Takes the mesh down (a generated terrain replaced it). */
  clear(): void {
    if (this.wire !== null) this.group.remove(this.wire);
    this.wire = null;
    if (this.mesh !== null) {
      this.group.remove(this.mesh);
      this.mesh.geometry.dispose();
      this.mesh = null;
    }
    this.terrain = null;
  }

  /** The page's terrain look: its colouring (height and slope read as height: welded normals blur a mesh's slopes) and wireframe. */
  applyLook(look: TerrainLook): void {
    const colouringChanged = look.colouring !== this.look.colouring;
    this.look = { ...look };
    const mesh = this.mesh;
    const terrain = this.terrain;
    if (mesh === null || terrain === null) return;
    if (colouringChanged || !this.coloured) {
      const colors = mesh.geometry.getAttribute('color') as THREE.BufferAttribute;
      const out = colors.array as Float32Array;
      if (look.colouring === 'material') writeMaterialColors(terrain.indices, terrain.materials, out);
      else {
        const colouring = look.colouring === 'height+slope' ? 'height' : look.colouring;
        writeTerrainColors(terrain.positions, terrain.normals, terrain.minHeight, terrain.maxHeight, colouring, out);
      }
      colors.needsUpdate = true;
      this.coloured = true;
    }
    if (look.wireframe && this.wire === null) {
      this.wire = new THREE.Mesh(mesh.geometry, this.wireMaterial);
      this.wire.name = 'mesh-ground-wireframe';
      this.wire.renderOrder = 1;
      this.group.add(this.wire);
    } else if (!look.wireframe && this.wire !== null) {
      this.group.remove(this.wire);
      this.wire = null;
    }
  }

  dispose(): void {
    this.clear();
    this.material.dispose();
    this.wireMaterial.dispose();
  }
}
