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
  /** The heights the colour ramp spans: the terrain's as generated, kept through its edits. */
  private colourRange: [number, number] = [0, 1];
  /** Heights as generated: ground an edit moved is tinted like fresh earth, by how far it moved. */
  private generatedHeights: Float32Array | null = null;

  constructor() {
    this.group.name = 'terrain';
  }

  setTerrain(terrain: TerrainMesh): void {
    this.disposeGeometry();
    this.terrain = terrain;
    this.colourRange = [terrain.minHeight, terrain.maxHeight];
    // Taken before the scene's edits apply (they do from the first step on).
    this.generatedHeights = terrain.heights.slice();
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
        else {
          writeTerrainColors(t.positions, t.normals, this.colourRange[0], this.colourRange[1], look.colouring, colors.array as Float32Array);
          if (this.generatedHeights !== null)
            tintMovedGround(t.heights, this.generatedHeights, 0, t.vertexCount, freshEarthDepth(t), colors.array as Float32Array);
        }
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

  /**
   * Redraws the ground an edit changed (minX, minZ, maxX, maxZ): positions, normals and colours of the
   * vertices there go to the GPU, nothing else. The height colours keep the terrain's generated range,
   * so ground outside the area keeps its colour and a crater below the lowest point shows the lowest colour.
   */
  updateArea(area: Float64Array): void {
    const terrain = this.terrain;
    const mesh = this.mesh;
    if (terrain === null || mesh === null) return;
    const { cells, worldSize } = terrain.params;
    const side = cells + 1;
    const half = worldSize / 2;
    const clampVertex = (value: number): number => Math.min(Math.max(value, 0), cells);
    const col0 = clampVertex(Math.floor(((area[0] ?? 0) + half) / (worldSize / cells)));
    const row0 = clampVertex(Math.floor(((area[1] ?? 0) + half) / (worldSize / cells)));
    const col1 = clampVertex(Math.ceil(((area[2] ?? 0) + half) / (worldSize / cells)));
    const row1 = clampVertex(Math.ceil(((area[3] ?? 0) + half) / (worldSize / cells)));
    const geometry = mesh.geometry;
    const colours = geometry.getAttribute('color') as THREE.BufferAttribute;
    const colourArray = colours.array as Float32Array;
    const colouring = this.look.colouring;
    const generated = this.generatedHeights ?? terrain.heights;
    const attributes = ['position', 'normal', 'color'].map((name) => geometry.getAttribute(name) as THREE.BufferAttribute);
    for (const attribute of attributes) attribute.clearUpdateRanges();
    for (let row = row0; row <= row1; row++) {
      const v0 = row * side + col0;
      const v1 = row * side + col1 + 1;
      if (colouring !== 'material') {
        writeTerrainColors(
          terrain.positions.subarray(3 * v0, 3 * v1),
          terrain.normals.subarray(3 * v0, 3 * v1),
          this.colourRange[0],
          this.colourRange[1],
          colouring,
          colourArray.subarray(3 * v0, 3 * v1),
        );
        tintMovedGround(terrain.heights, generated, v0, v1, freshEarthDepth(terrain), colourArray);
      }
      for (const attribute of attributes) attribute.addUpdateRange(3 * v0, 3 * (v1 - v0));
    }
    for (const attribute of attributes) attribute.needsUpdate = true;
    const box = geometry.boundingBox;
    if (box !== null && (terrain.minHeight < box.min.y || terrain.maxHeight > box.max.y)) {
      box.min.y = Math.min(box.min.y, terrain.minHeight);
      box.max.y = Math.max(box.max.y, terrain.maxHeight);
      geometry.boundingSphere = box.getBoundingSphere(new THREE.Sphere());
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

/** How far ground must move to take the full fresh-earth colour: 3% of the terrain's height. */
const freshEarthDepth = (terrain: TerrainMesh): number => Math.max(0.25, 0.03 * terrain.params.heightScale);

/** Fresh earth, the colour ground takes where an edit moved it (blended in by how far it moved). */
const FRESH_EARTH = [0.36, 0.26, 0.18] as const;

/** Tints vertices [v0, v1) towards fresh earth by |height − generated height| / depth (fully at depth or more). */
function tintMovedGround(heights: Float32Array, generated: Float32Array, v0: number, v1: number, depth: number, colours: Float32Array): void {
  const inverseDepth = 1 / depth;
  for (let v = v0; v < v1; v++) {
    const moved = Math.min(Math.abs(heights[v]! - generated[v]!) * inverseDepth, 1);
    if (moved === 0) continue;
    const c = 3 * v;
    colours[c] = colours[c]! + (FRESH_EARTH[0] - colours[c]!) * moved;
    colours[c + 1] = colours[c + 1]! + (FRESH_EARTH[1] - colours[c + 1]!) * moved;
    colours[c + 2] = colours[c + 2]! + (FRESH_EARTH[2] - colours[c + 2]!) * moved;
  }
}
