import * as THREE from 'three';
import { PLANE_CACHE, PLANE_CONTACT, PLANE_FAR, PLANE_RAY, type ParticleBuffers, type PlaneCache } from '../core';
import { BoxOverlay, type BoxSet } from './boxOverlay';
import { cssColour, swatches, type Legend } from './legend';

/**
 * Every particle as a point, drawn straight from the core's arrays: positions are read through an
 * interleaved view of the float4 array and colours from the RGBA bytes (alpha 0 = dead, discarded by
 * the alpha test). One geometry, re-uploaded in place each frame; rebound only when the arrays change.
 */
export class ParticlePoints {
  readonly points: THREE.Points<THREE.BufferGeometry, THREE.PointsMaterial>;
  private positions: THREE.InterleavedBuffer | null = null;
  private colours: THREE.BufferAttribute | null = null;

  constructor() {
    const material = new THREE.PointsMaterial({ vertexColors: true, size: 2.5, sizeAttenuation: false, alphaTest: 0.5 });
    this.points = new THREE.Points(new THREE.BufferGeometry(), material);
    this.points.frustumCulled = false;
    this.points.name = 'particles';
  }

  update(buffers: ParticleBuffers): void {
    const geometry = this.points.geometry;
    if (this.positions === null || this.positions.array !== buffers.positions || this.colours?.array !== buffers.colours) {
      this.positions = new THREE.InterleavedBuffer(buffers.positions, 4);
      this.positions.setUsage(THREE.DynamicDrawUsage);
      this.colours = new THREE.BufferAttribute(buffers.colours, 4, true);
      this.colours.setUsage(THREE.DynamicDrawUsage);
      geometry.setAttribute('position', new THREE.InterleavedBufferAttribute(this.positions, 3, 0));
      geometry.setAttribute('color', this.colours);
    }
    this.positions.needsUpdate = true;
    this.colours.needsUpdate = true;
    geometry.setDrawRange(0, buffers.capacity);
  }

  set size(pixels: number) {
    this.points.material.size = pixels;
  }
}

const SOURCE_COLOURS: Record<number, THREE.Color> = {
  [PLANE_RAY]: new THREE.Color(0x39e75f),
  [PLANE_CACHE]: new THREE.Color(0x33c6ff),
  [PLANE_CONTACT]: new THREE.Color(0xffa230),
  [PLANE_FAR]: new THREE.Color(0xc77dff),
};

/** The key of the plane quads' colours. */
export const PLANE_SOURCE_LEGEND: Legend = {
  title: 'particle collision planes, from',
  swatches: swatches([
    ['its own raycast', SOURCE_COLOURS[PLANE_RAY]!],
    ['the plane cache', SOURCE_COLOURS[PLANE_CACHE]!],
    ['the plane last touched', SOURCE_COLOURS[PLANE_CONTACT]!],
    ['a ray beyond the look-ahead', SOURCE_COLOURS[PLANE_FAR]!],
  ]),
};

/** The key of the particles' own colours: one per effect, dimming as a particle ages. */
export function particleEffectLegend(effects: readonly { kind: string; colour: readonly [number, number, number] }[]): Legend {
  return {
    title: 'particles by effect',
    swatches: effects.map(({ kind, colour }) => ({
      label: kind,
      colour: cssColour(new THREE.Color(colour[0] / 255, colour[1] / 255, colour[2] / 255)),
    })),
  };
}

/**
 * A sample of particles' collision planes as small quads: each centred where its particle projects
 * onto its plane, coloured by where the plane came from (green: its own ray, blue: the cache, orange:
 * the plane last touched, violet: a ray beyond the look-ahead). Planeless particles draw nothing.
 */
export class PlaneQuads {
  readonly mesh: THREE.Mesh<THREE.BufferGeometry, THREE.MeshBasicMaterial>;
  private capacity = 0;
  private positions = new Float32Array(0);
  private colours = new Float32Array(0);

  constructor() {
    const material = new THREE.MeshBasicMaterial({
      vertexColors: true,
      side: THREE.DoubleSide,
      transparent: true,
      opacity: 0.55,
      depthWrite: false,
      polygonOffset: true,
      polygonOffsetFactor: -2,
    });
    this.mesh = new THREE.Mesh(new THREE.BufferGeometry(), material);
    this.mesh.frustumCulled = false;
    this.mesh.renderOrder = 3;
    this.mesh.name = 'particle-planes';
  }

  /** Draws up to `count` planes of live particles spread evenly over the slots, each `size` metres across. */
  update(buffers: ParticleBuffers, count: number, size: number): void {
    if (count > this.capacity) this.grow(count);
    const { positions: p, planes, lifetimes, planeSources } = buffers;
    const out = this.positions;
    const colours = this.colours;
    const stride = Math.max(1, Math.floor(buffers.capacity / Math.max(count, 1)));
    const half = size / 2;
    let quads = 0;
    for (let i = 0; i < buffers.capacity && quads < count; i += stride) {
      const colour = SOURCE_COLOURS[planeSources[i]!];
      if (lifetimes[i] === 0 || colour === undefined) continue;
      const i4 = 4 * i;
      const nx = planes[i4]!,
        ny = planes[i4 + 1]!,
        nz = planes[i4 + 2]!;
      const distance = nx * p[i4]! + ny * p[i4 + 1]! + nz * p[i4 + 2]! - planes[i4 + 3]!;
      const cx = p[i4]! - nx * distance,
        cy = p[i4 + 1]! - ny * distance,
        cz = p[i4 + 2]! - nz * distance;
      // Two tangents: u = n × (x axis, or y axis when n is close to x), then v = n × u.
      const nearX = Math.abs(nx) >= 0.9;
      let ux = nearX ? -nz : 0;
      let uy = nearX ? 0 : nz;
      let uz = nearX ? nx : -ny;
      const ul = Math.hypot(ux, uy, uz) || 1;
      ux = (ux / ul) * half;
      uy = (uy / ul) * half;
      uz = (uz / ul) * half;
      const vx = ny * uz - nz * uy,
        vy = nz * ux - nx * uz,
        vz = nx * uy - ny * ux;
      const o = 12 * quads;
      out[o] = cx - ux - vx;
      out[o + 1] = cy - uy - vy;
      out[o + 2] = cz - uz - vz;
      out[o + 3] = cx + ux - vx;
      out[o + 4] = cy + uy - vy;
      out[o + 5] = cz + uz - vz;
      out[o + 6] = cx + ux + vx;
      out[o + 7] = cy + uy + vy;
      out[o + 8] = cz + uz + vz;
      out[o + 9] = cx - ux + vx;
      out[o + 10] = cy - uy + vy;
      out[o + 11] = cz - uz + vz;
      for (let k = 0; k < 4; k++) {
        colours[o + 3 * k] = colour.r;
        colours[o + 3 * k + 1] = colour.g;
        colours[o + 3 * k + 2] = colour.b;
      }
      quads++;
    }
    const geometry = this.mesh.geometry;
    (geometry.getAttribute('position') as THREE.BufferAttribute).needsUpdate = true;
    (geometry.getAttribute('color') as THREE.BufferAttribute).needsUpdate = true;
    geometry.setDrawRange(0, 6 * quads);
  }

  private grow(count: number): void {
    this.capacity = count;
    this.positions = new Float32Array(12 * count);
    this.colours = new Float32Array(12 * count);
    const index = new Uint32Array(6 * count);
    for (let q = 0; q < count; q++) index.set([4 * q, 4 * q + 1, 4 * q + 2, 4 * q, 4 * q + 2, 4 * q + 3], 6 * q);
    const geometry = this.mesh.geometry;
    geometry.setIndex(new THREE.BufferAttribute(index, 1));
    geometry.setAttribute('position', new THREE.BufferAttribute(this.positions, 3).setUsage(THREE.DynamicDrawUsage));
    geometry.setAttribute('color', new THREE.BufferAttribute(this.colours, 3).setUsage(THREE.DynamicDrawUsage));
  }
}

/** The cells of a plane cache as boxes, coloured by direction code (the seventh colour: surface entries). */
export class CacheCells {
  readonly overlay = new BoxOverlay(0.6);
  private bounds = new Float32Array(0);
  private codes = new Uint8Array(0);

  update(cache: PlaneCache, maxCells: number): number {
    const count = Math.min(cache.size, maxCells);
    if (this.bounds.length < 6 * count) {
      this.bounds = new Float32Array(6 * count);
      this.codes = new Uint8Array(count);
    }
    const side = cache.cellSide;
    const height = cache.cellHeight;
    let n = 0;
    // Newest first: the cells the particles are using now.
    const slots: number[] = [];
    cache.forEachEntry((slot) => slots.push(slot));
    for (let k = slots.length - 1; k >= 0 && n < count; k--) {
      const [ix, iy, iz, code] = cache.cellAt(slots[k]!);
      this.bounds.set([ix * side, iy * height, iz * side, (ix + 1) * side, (iy + 1) * height, (iz + 1) * side], 6 * n);
      this.codes[n] = code;
      n++;
    }
    const set: BoxSet = { bounds: this.bounds, count: n, depth: this.codes };
    this.overlay.setBoxes(set);
    return n;
  }
}
