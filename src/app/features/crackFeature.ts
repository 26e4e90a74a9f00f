import * as THREE from 'three';
import {
  CRACK_RAY_T_MAX,
  MISSED_RAY_STRIDE,
  RAY_TRIANGLE_KERNEL_NAMES,
  castRays,
  exploreCracks,
  generateCrackRays,
  getRayTriangleKernel,
  type CrackReport,
  type RayTriangleKernelName,
  type Sandbox,
} from '../../core';
import type { AppContext, AppFeature } from '../feature';

interface CrackSettings {
  rays: number;
  vertexShare: number;
  precision: 'float64' | 'float32';
  doubleSided: boolean;
  showMissesOf: RayTriangleKernelName;
  seed: number;
}

interface KernelResult {
  report: CrackReport;
  /** Misses of the same rays cast through the whole BVH (float32 rays), or −1 before the BVH exists. */
  bvhMisses: number;
  ms: number;
}

/**
 * The crack explorer: rays aimed exactly through shared edges and vertices of the terrain grid, per
 * triangle test, tested against the triangles around each target and through the whole BVH. Misses
 * are drawn as red rays ending in a dot at the crack.
 */
export class CrackFeature implements AppFeature {
  readonly name = 'cracks';
  private readonly settings: CrackSettings = {
    rays: 100_000,
    vertexShare: 0.5,
    precision: 'float32',
    doubleSided: false,
    showMissesOf: 'edge-plane',
    seed: 1,
  };
  private readonly results = new Map<RayTriangleKernelName, KernelResult>();
  private context: AppContext | null = null;
  private readonly lines: THREE.LineSegments<THREE.BufferGeometry, THREE.LineBasicMaterial>;
  private readonly dots: THREE.Points<THREE.BufferGeometry, THREE.PointsMaterial>;
  private summary = '';

  constructor() {
    this.lines = new THREE.LineSegments(
      new THREE.BufferGeometry(),
      new THREE.LineBasicMaterial({ color: 0xff2244, transparent: true, opacity: 0.7 }),
    );
    this.dots = new THREE.Points(
      new THREE.BufferGeometry(),
      new THREE.PointsMaterial({ color: 0xff2244, size: 6, sizeAttenuation: false, depthTest: false }),
    );
    this.lines.frustumCulled = this.dots.frustumCulled = false;
    this.dots.renderOrder = 4;
  }

  install(context: AppContext): void {
    this.context = context;
    context.stage.scene.add(this.lines, this.dots);
    const folder = context.gui.addFolder('Crack explorer');
    folder.add(this.settings, 'rays', 1000, 1_000_000, 1000).name('rays');
    folder.add(this.settings, 'vertexShare', 0, 1, 0.05).name('share at vertices');
    folder.add(this.settings, 'precision', ['float32', 'float64']).name('ray precision');
    folder.add(this.settings, 'doubleSided').name('double-sided');
    folder.add(this.settings, 'seed', 1, 1000, 1);
    folder
      .add(this.settings, 'showMissesOf', [...RAY_TRIANGLE_KERNEL_NAMES])
      .name('draw misses of')
      .onChange(() => this.drawMisses());
    folder.add({ run: () => this.run() }, 'run').name('fire rays through edges and vertices');
    folder.close();
  }

  terrainChanged(): void {
    this.results.clear();
    this.summary = '';
    this.drawMisses();
  }

  hudLines(): readonly string[] {
    return this.summary === '' ? [] : [this.summary];
  }

  /** Runs every triangle test on the same rays; returns the per-test results (also used by tests). */
  run(): Map<RayTriangleKernelName, KernelResult> {
    const sandbox = this.context?.sandbox() ?? null;
    if (sandbox === null) return this.results;
    const { rays: count, vertexShare, precision, doubleSided, seed } = this.settings;
    const rays = generateCrackRays(sandbox.terrain, count, { seed, vertexFraction: vertexShare, rayPrecision: precision });
    const batch = {
      count,
      origins: Float32Array.from(rays.origins),
      directions: Float32Array.from(rays.directions),
      tMax: new Float32Array(count).fill(CRACK_RAY_T_MAX),
    };
    const hits = { t: new Float32Array(count), triangle: new Int32Array(count) };
    this.results.clear();
    for (const name of RAY_TRIANGLE_KERNEL_NAMES) {
      const start = performance.now();
      const report = exploreCracks(sandbox.terrain, rays, getRayTriangleKernel(name), { doubleSided, maxMissedRays: 5000 });
      let bvhMisses = -1;
      // Through the BVH the rays are float32, so compare like with like: only for float32 rays.
      if (sandbox.bvh !== null && precision === 'float32') {
        castRays(sandbox.bvh, batch, hits, { triangleTest: name, doubleSided });
        bvhMisses = 0;
        for (let i = 0; i < count; i++) if (hits.triangle[i]! < 0) bvhMisses++;
      }
      this.results.set(name, { report, bvhMisses, ms: performance.now() - start });
    }
    this.summary =
      `cracks (${count.toLocaleString('en')} ${precision} rays): ` +
      [...this.results.entries()].map(([name, r]) => `${name} ${r.report.misses}${r.bvhMisses >= 0 ? ` (BVH ${r.bvhMisses})` : ''}`).join(' · ');
    this.drawMisses();
    this.publish(sandbox);
    return this.results;
  }

  private publish(sandbox: Sandbox): void {
    for (const [name, result] of this.results) sandbox.timings.record(`cracks.${name}`, result.ms);
  }

  private drawMisses(): void {
    const result = this.results.get(this.settings.showMissesOf);
    const kept = result?.report.missedRaysKept ?? 0;
    const segments = new Float32Array(kept * 6);
    const targets = new Float32Array(kept * 3);
    const missed = result?.report.missedRays;
    for (let i = 0; i < kept && missed !== undefined; i++) {
      const o = MISSED_RAY_STRIDE * i;
      const [ox, oy, oz, dx, dy, dz] = [missed[o]!, missed[o + 1]!, missed[o + 2]!, missed[o + 3]!, missed[o + 4]!, missed[o + 5]!];
      segments.set([ox, oy, oz, ox + dx, oy + dy, oz + dz], 6 * i);
      targets.set([ox + dx, oy + dy, oz + dz], 3 * i);
    }
    this.lines.geometry.setAttribute('position', new THREE.BufferAttribute(segments, 3));
    this.dots.geometry.setAttribute('position', new THREE.BufferAttribute(targets, 3));
    this.lines.visible = this.dots.visible = kept > 0;
  }
}
