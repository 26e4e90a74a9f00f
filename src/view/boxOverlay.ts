import * as THREE from 'three';
import { cssColour, type Legend } from './legend';

/** Twelve box edges as pairs of corner indices; corner k has x from bit 0, y from bit 1, z from bit 2. */
const EDGES = [0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7];

/** A colour per depth, cycling through a perceptually spread palette. */
const DEPTH_COLOURS = [0xff595e, 0xffca3a, 0x8ac926, 0x1982c4, 0x6a4c93, 0xff924c, 0x52a675, 0x4267ac, 0xc5ca30, 0xb5a6c9, 0xe76f51, 0x2a9d8f].map(
  (hex) => new THREE.Color(hex),
);

/** The key of the depth colours, for the depths from `from` to `to` (at most twelve rows: the palette cycles). */
export function depthLegend(title: string, from: number, to: number): Legend {
  const rows = [];
  for (let depth = from; depth <= Math.min(to, from + DEPTH_COLOURS.length - 1); depth++) {
    rows.push({ label: `depth ${depth}`, colour: cssColour(DEPTH_COLOURS[depth % DEPTH_COLOURS.length]!) });
  }
  return { title, swatches: rows };
}

export interface BoxSet {
  /** minX, minY, minZ, maxX, maxY, maxZ per box. */
  bounds: Float32Array;
  count: number;
  /** Optional colour index per box (e.g. tree depth). */
  depth?: Uint8Array | Uint16Array | Int32Array;
}

/**
 * Axis-aligned boxes drawn as line segments in one draw call: BVH nodes by depth, probes, broad-phase
 * boxes. Geometry buffers grow and are reused; `setBoxes` writes straight into them.
 */
export class BoxOverlay {
  readonly lines: THREE.LineSegments<THREE.BufferGeometry, THREE.LineBasicMaterial>;
  private positions = new Float32Array(0);
  private colours = new Float32Array(0);
  private readonly geometry = new THREE.BufferGeometry();

  constructor(opacity = 0.85) {
    const material = new THREE.LineBasicMaterial({ vertexColors: true, transparent: opacity < 1, opacity, depthTest: true });
    this.lines = new THREE.LineSegments(this.geometry, material);
    this.lines.frustumCulled = false;
    this.lines.renderOrder = 2;
  }

  setBoxes(set: BoxSet, uniformColour?: THREE.Color): void {
    const vertexCount = set.count * 24;
    if (this.positions.length < vertexCount * 3) {
      this.positions = new Float32Array(Math.max(vertexCount * 3, this.positions.length * 2));
      this.colours = new Float32Array(this.positions.length);
      this.geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3));
      this.geometry.setAttribute('color', new THREE.BufferAttribute(this.colours, 3));
    }
    const { bounds, depth } = set;
    const p = this.positions;
    const c = this.colours;
    let v = 0;
    for (let box = 0; box < set.count; box++) {
      const o = 6 * box;
      const colour = uniformColour ?? DEPTH_COLOURS[(depth === undefined ? 0 : depth[box]!) % DEPTH_COLOURS.length]!;
      for (let e = 0; e < 24; e++) {
        const corner = EDGES[e]!;
        p[3 * v] = bounds[o + (corner & 1 ? 3 : 0)]!;
        p[3 * v + 1] = bounds[o + (corner & 2 ? 4 : 1)]!;
        p[3 * v + 2] = bounds[o + (corner & 4 ? 5 : 2)]!;
        c[3 * v] = colour.r;
        c[3 * v + 1] = colour.g;
        c[3 * v + 2] = colour.b;
        v++;
      }
    }
    const position = this.geometry.getAttribute('position') as THREE.BufferAttribute | undefined;
    const colourAttribute = this.geometry.getAttribute('color') as THREE.BufferAttribute | undefined;
    if (position !== undefined && colourAttribute !== undefined) {
      position.needsUpdate = true;
      colourAttribute.needsUpdate = true;
      position.clearUpdateRanges();
      colourAttribute.clearUpdateRanges();
      position.addUpdateRange(0, vertexCount * 3);
      colourAttribute.addUpdateRange(0, vertexCount * 3);
    }
    this.geometry.setDrawRange(0, vertexCount);
  }

  static depthColour(depth: number): THREE.Color {
    return DEPTH_COLOURS[depth % DEPTH_COLOURS.length]!;
  }

  dispose(): void {
    this.geometry.dispose();
    this.lines.material.dispose();
  }
}
