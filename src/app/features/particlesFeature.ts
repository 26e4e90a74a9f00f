import type GUI from 'lil-gui';
import {
  CACHE_KEYINGS,
  PARTICLE_MODES,
  PARTICLE_PHASES,
  PARTICLE_KERNELS,
  loadSimdParticles,
  loadSimdRays,
  simdParticlesUnavailableReason,
  simdRaysUnavailableReason,
  ParticleSystem,
  RAY_PICKS,
  sampleTerrainHeight,
  showcaseEffects,
  type CacheKeying,
  type ParticleEffectParams,
  type ParticleMode,
  type ParticleKernel,
  type ParticleSystemOptions,
  type RayPick,
  type Sandbox,
  type SceneDefinition,
  type SceneParticles,
} from '../../core';
import { CacheCells, PLANE_SOURCE_LEGEND, ParticlePoints, PlaneQuads, particleEffectLegend } from '../../view/particlesView';
import type { Legend } from '../../view/legend';
import type { AppContext, AppFeature } from '../feature';
import { threadsLine } from './threadsLine';
import { addFocusButton, sphereAround, type FocusTarget } from './focusButton';

interface ParticlesSettings {
  enabled: boolean;
  /** Showcase size: particles alive and rays per frame for all effects together. */
  particles: number;
  budget: number;
  mode: ParticleMode;
  keying: CacheKeying;
  footprints: boolean;
  cellLookups: boolean;
  pick: RayPick;
  kernel: ParticleKernel;
  wind: boolean;
  gravity: number;
  checkFallThrough: boolean;
  highlightFellThrough: boolean;
  pointSize: number;
  showPlanes: boolean;
  planeCount: number;
  planeSize: number;
  showCells: boolean;
  cellsOf: string;
  maxCells: number;
}

/** Where an effect stands, as edited in the GUI: the emitter sits `above` metres over the ground at (x, z). */
interface Placement {
  x: number;
  z: number;
  above: number;
}

/** Frames between redraws of the cache cells (walking a big cache each frame would cost more than the particles). */
const CELL_REDRAW_FRAMES = 15;

/**
 * Particles in the sandbox: the showcase effects (sparks, fountain, debris, one bullet casing) colliding
 * through one plane each, on a raycast budget with a plane cache. Points for every particle, quads for a
 * sample of their planes, boxes for the cache cells; every parameter in the GUI; counters and per-phase
 * times in the HUD and the Stats folder. Off by default.
 */
export class ParticlesFeature implements AppFeature {
  readonly name = 'particles';
  private context: AppContext | null = null;
  /** The system whose effects the panel shows (a new one, from a scene or this panel, is adopted on sight). */
  private seen: ParticleSystem | null = null;
  private readonly points = new ParticlePoints();
  private readonly quads = new PlaneQuads();
  private readonly cells = new CacheCells();
  private cellClock = 0;
  private effectsFolder: GUI | null = null;
  private placements: Placement[] = [];
  private effects: ParticleEffectParams[] = [];
  private readonly settings: ParticlesSettings = {
    enabled: false,
    particles: 100_000,
    budget: 1_000,
    mode: 'budget',
    keying: 'surface',
    footprints: true,
    cellLookups: true,
    pick: 'needy',
    kernel: 'wasm-simd',
    wind: false,
    gravity: 9.81,
    checkFallThrough: true,
    highlightFellThrough: true,
    pointSize: 2.5,
    showPlanes: false,
    planeCount: 2000,
    planeSize: 0.4,
    showCells: false,
    cellsOf: 'sparks',
    maxCells: 20_000,
  };
  private readonly stats = {
    live: '—',
    rays: '—',
    lookups: '—',
    hits: '—',
    evictions: '—',
    entries: '—',
    bounces: '—',
    fellThrough: '—',
    below: '—',
    phases: '—',
  };

  install(context: AppContext): void {
    this.context = context;
    this.setVisible(false);
    context.stage.scene.add(this.points.points, this.quads.mesh, this.cells.overlay.lines);
    const s = this.settings;
    const folder = context.gui.addFolder('Particles');
    folder
      .add(s, 'enabled')
      .name('enabled')
      .onChange(() => this.applyEnabled());
    folder
      .add(s, 'particles', 1_000, 400_000, 1_000)
      .name('particles (showcase)')
      .onFinishChange(() => this.resetEffects());
    folder
      .add(s, 'budget', 0, 20_000, 1)
      .name('rays/frame (showcase)')
      .onFinishChange(() => this.resetEffects());
    folder.add({ reset: () => this.resetEffects() }, 'reset').name('reset effects to the showcase');
    folder
      .add(s, 'mode', [...PARTICLE_MODES])
      .name('mode')
      .onChange(() => this.applyOptions());
    folder
      .add(s, 'keying', [...CACHE_KEYINGS])
      .name('cache keys')
      .onChange(() => this.applyOptions(true));
    folder
      .add(s, 'footprints')
      .name('hit fills its triangle')
      .onChange(() => this.applyOptions(true));
    folder
      .add(s, 'cellLookups')
      .name('ask cache on new cell')
      .onChange(() => this.applyOptions());
    folder
      .add(s, 'pick', [...RAY_PICKS])
      .name('rays go to')
      .onChange(() => this.applyOptions());
    const kernel = folder
      .add(s, 'kernel', [...PARTICLE_KERNELS])
      .name('particle kernel')
      .onChange(() => this.applyOptions());
    // The SIMD kernels load in the background; until then (or where WebAssembly SIMD is missing) TypeScript moves and casts.
    void Promise.all([loadSimdParticles(), loadSimdRays()]).then(([move, rays]) => {
      if (move !== null && rays !== null) return;
      kernel.name(`particle kernel (TypeScript only: ${simdParticlesUnavailableReason() || simdRaysUnavailableReason()})`);
    });
    folder
      .add(s, 'wind')
      .name('wind (from Wind)')
      .onChange(() => this.applyOptions());
    folder
      .add(s, 'gravity', 0, 30, 0.01)
      .name('gravity (m/s²)')
      .onChange(() => this.applyOptions());
    folder
      .add(s, 'checkFallThrough')
      .name('count fall-through')
      .onChange(() => this.applyOptions());
    folder
      .add(s, 'highlightFellThrough')
      .name('fallen ones red')
      .onChange(() => this.applyOptions());
    const view = folder.addFolder('Display');
    view
      .add(s, 'pointSize', 1, 8, 0.5)
      .name('point size (px)')
      .onChange((px: number) => (this.points.size = px));
    view.add(s, 'showPlanes').name('planes (sample)');
    view.add(s, 'planeCount', 100, 20_000, 100).name('planes drawn');
    view.add(s, 'planeSize', 0.1, 2, 0.05).name('plane size (m)');
    view
      .add(s, 'showCells')
      .name('cache cells')
      .onChange(() => (this.cellClock = 0));
    view
      .add(s, 'cellsOf', ['sparks', 'fountain', 'debris', 'casing'])
      .name('cells of')
      .onChange(() => (this.cellClock = 0));
    view.add(s, 'maxCells', 1_000, 100_000, 1_000).name('cells drawn (newest)');
    view.close();
    this.effectsFolder = folder.addFolder('Effects');
    this.effectsFolder.close();
    const stats = folder.addFolder('Stats');
    stats.add(this.stats, 'live').disable().listen();
    stats.add(this.stats, 'rays').name('raycasts (hits)').disable().listen();
    stats.add(this.stats, 'lookups').name('cache lookups').disable().listen();
    stats.add(this.stats, 'hits').name('hits / misses').disable().listen();
    stats.add(this.stats, 'evictions').name('evictions').disable().listen();
    stats.add(this.stats, 'entries').name('cache entries').disable().listen();
    stats.add(this.stats, 'bounces').disable().listen();
    stats.add(this.stats, 'fellThrough').name('fell through').disable().listen();
    stats.add(this.stats, 'below').name('below now').disable().listen();
    stats.add(this.stats, 'phases').name('ms spawn/wind/move/cache/rays/check').disable().listen();
    addFocusButton(folder, context, () => this.focusTarget(), 'the particle effects');
    folder.close();
  }

  sceneLoaded(scene: SceneDefinition): void {
    const wanted = scene.systems.particles as SceneParticles | undefined;
    if (wanted !== undefined) {
      const { particles, budget, ...options } = wanted;
      if (particles !== undefined) this.settings.particles = particles;
      if (budget !== undefined) this.settings.budget = budget;
      Object.assign(this.settings, options);
    }
    this.settings.enabled = wanted !== undefined;
  }

  terrainChanged(sandbox: Sandbox): void {
    const system = this.system;
    // Turned on before any terrain existed (a link's settings): start now.
    if (system === null && this.settings.enabled) this.applyEnabled();
    // A scene's new system has its own effects, placed on this terrain: the next frame adopts them.
    if (system === null || system !== this.seen || this.effects.length === 0) return;
    // The emitters keep their place over the new ground.
    this.placeEffects(sandbox);
    system.setEffects(this.effects);
  }

  frame(_dtSeconds: number, sandbox: Sandbox): void {
    const system = this.system;
    if (this.context?.sceneSwitching() !== true) this.settings.enabled = system !== null;
    if (system !== this.seen) this.adopt(system, sandbox);
    this.setVisible(system !== null);
    if (system === null) return;
    // The page's particle pool, when it has workers (the particles move into its memory, or back out).
    system.usePool(this.context?.rayThreads.particlePoolForParticles() ?? null);
    this.points.update(system.buffers);
    this.quads.mesh.visible = this.settings.showPlanes;
    if (this.settings.showPlanes) this.quads.update(system.buffers, this.settings.planeCount, this.settings.planeSize);
    this.cells.overlay.lines.visible = this.settings.showCells;
    if (this.settings.showCells && this.cellClock-- <= 0) {
      this.cellClock = CELL_REDRAW_FRAMES;
      const effect = system.effects.find((e) => e.params.kind === this.settings.cellsOf);
      if (effect !== undefined) this.cells.update(effect.cache, this.settings.maxCells);
    }
    this.updateStats(system);
  }

  private focusTarget(): FocusTarget | null {
    const effects = this.system?.effects ?? [];
    const sources = effects.flatMap((effect) => effect.params.position);
    const around = sphereAround(sources, effects.length);
    // The sources, and room for what they throw around them.
    return around === null ? null : { center: around.center, radius: around.radius + 25 };
  }

  legends(): readonly Legend[] {
    const system = this.system;
    if (system === null || !this.points.points.visible) return [];
    const legends = [particleEffectLegend(system.effects.map((effect) => effect.params))];
    if (this.quads.mesh.visible) legends.push(PLANE_SOURCE_LEGEND);
    return legends;
  }

  hudLines(): readonly string[] {
    const system = this.system;
    if (system === null) return [];
    const f = system.frame;
    const t = system.totals;
    const ms = system.phaseMs;
    const hitRate = f.cacheLookups > 0 ? Math.round((100 * f.cacheHits) / f.cacheLookups) : 0;
    const fell = t.lives > 0 ? ((100 * t.fellThroughLives) / t.lives).toFixed(2) : '0';
    const lines = [
      `particles: ${f.alive.toLocaleString('en')} live · ${f.raycasts.toLocaleString('en')} rays · cache ${f.cacheLookups.toLocaleString('en')} lookups ${hitRate}% hits, ${f.cacheEvictions} evicted · ${f.bounces.toLocaleString('en')} bounces · fell through ${f.fellThrough} (${fell}% of lives)`,
      `particles ms: ${PARTICLE_PHASES.map((p) => `${p === 'verify' ? 'check' : p} ${ms[p].toFixed(2)}`).join(' · ')}`,
      `particle kernels: ${this.kernelReadout()}`,
    ];
    // On the page's pool: each thread's busy ms over the step's move, lookups and net, their wall time, the efficiency.
    const pool = system.threadPool;
    if (pool !== null && system.simdInUse().move && pool.work.busyMs.length > 0)
      lines.push(threadsLine('particle', pool.work.busyMs, ms.move + ms.cache + ms.ground));
    return lines;
  }

  /** Which code moved the particles, asked the caches and cast the rays in the last step. */
  private kernelReadout(): string {
    const used = this.system?.simdInUse() ?? { move: false, cache: false, rays: false };
    const refusal = this.system?.simdRefusal() ?? '';
    const pool = this.system?.threadPool ?? null;
    const threads = used.move && pool !== null ? ` on ${pool.threadCount} threads` : '';
    return `move ${used.move ? 'WASM SIMD' : refusal === '' ? 'TypeScript' : `TypeScript (${refusal})`} · cache ${used.cache ? 'WASM' : 'TypeScript'}${threads} · rays ${used.rays ? 'WASM SIMD' : 'TypeScript'}`;
  }

  private setVisible(on: boolean): void {
    this.points.points.visible = on;
    this.quads.mesh.visible = on && this.settings.showPlanes;
    this.cells.overlay.lines.visible = on && this.settings.showCells;
  }

  /** The running particle system, if any (the scene, or this panel, turned it on). */
  private get system(): ParticleSystem | null {
    const system = this.context?.system('particles') ?? null;
    return system instanceof ParticleSystem ? system : null;
  }

  private applyEnabled(): void {
    const s = this.settings;
    const section: SceneParticles = {
      particles: s.particles,
      budget: s.budget,
      mode: s.mode,
      keying: s.keying,
      pick: s.pick,
      gravity: s.gravity,
      cellLookups: s.cellLookups,
      footprints: s.footprints,
      kernel: s.kernel,
      wind: s.wind,
    };
    const system = this.context?.setSystem('particles', s.enabled ? section : null) ?? null;
    if (system instanceof ParticleSystem)
      Object.assign(system.options, { checkFallThrough: s.checkFallThrough, highlightFellThrough: s.highlightFellThrough });
  }

  /** Shows a system's effects in the panel, as they are: adopting changes nothing in the simulation. */
  private adopt(system: ParticleSystem | null, sandbox: Sandbox): void {
    this.seen = system;
    this.effects = system === null ? [] : system.effects.map((effect) => effect.params);
    const mm = (metres: number): number => Math.round(metres * 1000) / 1000;
    this.placements = this.effects.map((e) => ({
      x: mm(e.position[0]),
      z: mm(e.position[2]),
      above: mm(e.position[1] - sampleTerrainHeight(sandbox.terrain, e.position[0], e.position[2])),
    }));
    this.buildEffectsFolder();
  }

  private systemOptions(sandbox: Sandbox): Partial<ParticleSystemOptions> {
    const s = this.settings;
    return {
      mode: s.mode,
      keying: s.keying,
      footprints: s.footprints,
      cellLookups: s.cellLookups,
      pick: s.pick,
      kernel: s.kernel,
      wind: s.wind,
      gravity: s.gravity,
      checkFallThrough: s.checkFallThrough,
      highlightFellThrough: s.highlightFellThrough,
      seed: sandbox.scene.seed,
    };
  }

  /** Options take effect from the next step; a new keying makes the cached entries meaningless, so the caches start afresh. */
  private applyOptions(clearCaches = false): void {
    const system = this.system;
    const sandbox = this.context?.sandbox() ?? null;
    if (system === null || sandbox === null) return;
    Object.assign(system.options, this.systemOptions(sandbox));
    if (clearCaches) for (const effect of system.effects) effect.cache.clear();
    system.resetTotals();
  }

  /** The showcase again, at the panel's particle count and budget. */
  private resetEffects(): void {
    const sandbox = this.context?.sandbox() ?? null;
    const system = this.system;
    if (sandbox === null || system === null) return;
    this.effects = showcaseEffects(sandbox.terrain, { particles: this.settings.particles, budget: this.settings.budget });
    system.showcase = { particles: this.settings.particles, budget: this.settings.budget };
    system.setEffects(this.effects);
    this.adopt(system, sandbox);
  }

  /** Puts every emitter back on the (new) ground at its x, z and height above it. */
  private placeEffects(sandbox: Sandbox): void {
    const half = sandbox.terrain.params.worldSize / 2;
    this.effects.forEach((effect, i) => {
      const place = this.placements[i]!;
      place.x = Math.min(Math.max(place.x, -half), half);
      place.z = Math.min(Math.max(place.z, -half), half);
      effect.position = [place.x, sampleTerrainHeight(sandbox.terrain, place.x, place.z) + place.above, place.z];
    });
  }

  /** One folder per effect with every parameter; a change applies at once (a new slot count restarts all effects). */
  private buildEffectsFolder(): void {
    const parent = this.effectsFolder;
    const sandbox = this.context?.sandbox() ?? null;
    if (parent === null || sandbox === null) return;
    for (const child of [...parent.children]) child.destroy();
    const half = sandbox.terrain.params.worldSize / 2;
    this.effects.forEach((params, index) => {
      const folder = parent.addFolder(params.kind);
      const apply = (changes: Partial<ParticleEffectParams>): void => {
        try {
          Object.assign(params, changes);
          this.system?.updateEffect(index, changes);
        } catch (error) {
          this.context?.reportError((error as Error).message);
        }
      };
      const numbers: [keyof ParticleEffectParams, string, number, number, number][] = [
        ['rate', 'rate (/s)', 0, 200_000, 1],
        ['speed', 'speed (m/s)', 0, 60, 0.1],
        ['spread', 'spread (°)', 0, 180, 1],
        ['lifetime', 'lifetime (s)', 0.1, 20, 0.1],
        ['restitution', 'restitution', 0, 1, 0.01],
        ['friction', 'friction', 0, 2, 0.01],
        ['drag', 'drag (1/s)', 0, 10, 0.01],
        ['radius', 'radius (m)', 0, 1, 0.005],
        ['budget', 'rays/frame', 0, 20_000, 0.05],
        ['lookahead', 'look-ahead (s)', 0.05, 3, 0.05],
        ['cellSide', 'cell side (m)', 0.05, 8, 0.05],
        ['cellHeight', 'cell height (m)', 0.1, 16, 0.1],
        ['cacheSize', 'cache size', 0, 1_000_000, 1],
        ['emitterRadius', 'emitter radius (m)', 0, 10, 0.05],
      ];
      for (const [key, label, min, max, step] of numbers) {
        const controller = folder.add(params, key, min, max, step).name(label);
        // Slot counts and cache sizes rebuild buffers: apply them when the slider is let go.
        if (key === 'rate' || key === 'lifetime' || key === 'cacheSize') controller.onFinishChange((v: number) => apply({ [key]: v }));
        else controller.onChange((v: number) => apply({ [key]: v }));
      }
      const place = this.placements[index]!;
      const move = (): void => {
        const ground = sampleTerrainHeight(sandbox.terrain, place.x, place.z);
        apply({ position: [place.x, ground + place.above, place.z] });
      };
      folder.add(place, 'x', -half, half, 0.5).onChange(move);
      folder.add(place, 'z', -half, half, 0.5).onChange(move);
      folder.add(place, 'above', 0, 50, 0.1).name('above ground (m)').onChange(move);
      folder.close();
    });
  }

  private updateStats(system: ParticleSystem): void {
    const f = system.frame;
    const t = system.totals;
    const n = (v: number): string => v.toLocaleString('en');
    let entries = 0;
    for (const effect of system.effects) entries += effect.cache.size;
    this.stats.live = `${n(f.alive)} of ${n(system.capacity)} slots`;
    this.stats.rays = `${n(f.raycasts)} (${n(f.rayHits)}) · ${n(f.needy)} needy`;
    this.stats.lookups = n(f.cacheLookups);
    this.stats.hits = `${n(f.cacheHits)} / ${n(f.cacheMisses)}`;
    this.stats.evictions = n(f.cacheEvictions);
    this.stats.entries = n(entries);
    this.stats.bounces = n(f.bounces);
    this.stats.fellThrough = `${f.fellThrough} now · ${n(t.fellThroughLives)} of ${n(t.lives)} lives (${t.lives > 0 ? ((100 * t.fellThroughLives) / t.lives).toFixed(2) : '0'}%)`;
    this.stats.below = n(f.below);
    const ms = system.phaseMs;
    this.stats.phases = PARTICLE_PHASES.map((p) => ms[p].toFixed(2)).join(' / ');
  }
}
