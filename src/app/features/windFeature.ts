import type GUI from 'lil-gui';
import {
  FIELD_BACKENDS,
  FIELD_BACKEND_LABELS,
  WindField,
  simdFieldUnavailableReason,
  WindTracers,
  disassemble,
  getConstant,
  sampleTerrainHeight,
  type FieldBackend,
  type PlacedEffect,
  type Sandbox,
} from '../../core';
import { FieldEditor } from '../../ui/fieldEditor';
import { EffectGizmos, TracerPoints, WindArrows } from '../../view/windView';
import type { AppContext, AppFeature } from '../feature';

const sources = import.meta.glob<string>('../../../scenes/fields/*.vf', { query: '?raw', import: 'default', eager: true });
function effectSource(name: string): string {
  const source = sources[`../../../scenes/fields/${name}.vf`];
  if (source === undefined) throw new Error(`scenes/fields/${name}.vf is missing`);
  return source;
}

/** Where the default effects go, as fractions of the world and heights above the ground. */
const DEFAULT_EFFECTS: { name: string; at: [number, number]; above: number; reach: number; enabled: boolean; constants: Record<string, number[]> }[] =
  [
    {
      name: 'whirl',
      at: [-0.15, 0.1],
      above: 12,
      reach: 110,
      enabled: true,
      constants: { up: [0, 1, 0, 0], radius: [40, 40, 40, 40], speed: [12, 12, 12, 12] },
    },
    {
      name: 'updraft',
      at: [0.22, -0.18],
      above: 0,
      reach: 70,
      enabled: true,
      constants: { radius: [45, 45, 45, 45], top: [90, 90, 90, 90], lift: [0, 14, 0, 0] },
    },
    { name: 'constant-wind', at: [0, 0], above: 0, reach: Infinity, enabled: true, constants: {} },
    { name: 'turbulence', at: [0, 0], above: 0, reach: Infinity, enabled: true, constants: { scale: [0.03, 0.03, 0.03, 0] } },
    { name: 'explosion', at: [0.05, 0.3], above: 6, reach: 60, enabled: false, constants: { radius: [50, 50, 50, 50], strength: [60, 60, 60, 0] } },
  ];

interface WindSettings {
  arrows: boolean;
  arrowGrid: number;
  tracers: number;
  showTracers: boolean;
  backend: FieldBackend;
  selected: string;
}

/**
 * Wind in the sandbox: effects placed on the terrain and superposed into one field, drawn as arrows on
 * a grid and as tracer particles it carries; each effect's program can be edited live.
 */
export class WindFeature implements AppFeature {
  readonly name = 'wind';
  /** The world's wind; the actors feature is blown by it too (see features.ts). */
  readonly field = new WindField();
  private tracers: WindTracers | null = null;
  private readonly arrows = new WindArrows();
  private readonly tracerPoints = new TracerPoints();
  private readonly gizmos = new EffectGizmos();
  private editor: FieldEditor | null = null;
  private context: AppContext | null = null;
  private folder: GUI | null = null;
  private effectFolder: GUI | null = null;
  private readonly settings: WindSettings = { arrows: true, arrowGrid: 28, tracers: 20000, showTracers: true, backend: 'auto', selected: '' };
  private gridPoints = new Float32Array(0);
  private gridWind = new Float32Array(0);
  private gridCount = 0;
  private explosionTimer = 0;
  private sampleMs = 0;

  install(context: AppContext): void {
    this.context = context;
    context.stage.scene.add(this.arrows.lines, this.tracerPoints.points, this.gizmos.group);
    this.editor = new FieldEditor(context.root);
    const folder = (this.folder = context.gui.addFolder('Wind'));
    folder.add(this.settings, 'arrows').name('arrows');
    folder
      .add(this.settings, 'arrowGrid', 4, 64, 1)
      .name('arrow grid')
      .onFinishChange(() => this.layoutGrid());
    folder.add(this.settings, 'showTracers').name('tracers');
    folder
      .add(this.settings, 'tracers', 0, 100000, 1000)
      .name('tracer count')
      .onFinishChange(() => this.resizeTracers());
    // The kernel switches live: effects, tracers and actors keep their state; only the next evaluation changes hands.
    const kernels = Object.fromEntries(FIELD_BACKENDS.map((backend) => [FIELD_BACKEND_LABELS[backend], backend]));
    folder
      .add(this.settings, 'backend', kernels)
      .name('field back end')
      .onChange((backend: FieldBackend) => (this.field.backend = backend));
    folder.add({ detonate: () => this.detonate() }, 'detonate').name('detonate explosion');
    folder.close();
    // Effect gizmos are editing aids: shown while the Wind folder is open.
    this.gizmos.group.visible = false;
    folder.onOpenClose((changed) => {
      if (changed === folder) this.gizmos.group.visible = !folder._closed;
    });
  }

  terrainChanged(sandbox: Sandbox): void {
    if (this.field.effects.length === 0) this.placeDefaults(sandbox);
    else
      for (const effect of this.field.effects)
        this.field.move(effect, this.grounded(sandbox, effect.position[0], effect.position[2], this.heightAbove(effect)));
    if (this.tracers === null) {
      this.tracers = new WindTracers(this.field, this.settings.tracers, sandbox.scene.seed);
      sandbox.addSystem(this.tracers);
    } else if (!sandbox.systems.includes(this.tracers)) {
      sandbox.addSystem(this.tracers);
    }
    this.layoutGrid();
  }

  frame(dtSeconds: number, sandbox: Sandbox): void {
    if (this.explosionTimer > 0) {
      this.explosionTimer -= dtSeconds;
      if (this.explosionTimer <= 0) {
        const explosion = this.field.effects.find((e) => e.label === 'explosion');
        if (explosion !== undefined) this.field.setEnabled(explosion, false);
      }
    }
    this.arrows.lines.visible = this.settings.arrows;
    if (this.settings.arrows && this.gridCount > 0) {
      const start = performance.now();
      this.field.sample(this.gridPoints, this.gridWind, this.gridCount);
      this.sampleMs = performance.now() - start;
      sandbox.timings.record('wind.arrows', this.sampleMs);
      this.arrows.update(this.gridPoints, this.gridWind, this.gridCount, 0.9, 30);
    }
    const tracers = this.tracers;
    this.tracerPoints.points.visible = this.settings.showTracers && tracers !== null;
    if (tracers !== null) this.tracerPoints.update(tracers.positions, tracers.count);
    this.gizmos.update(
      this.field.effects,
      this.field.effects.findIndex((e) => e.label === this.settings.selected),
    );
  }

  hudLines(): readonly string[] {
    const tracers = this.tracers;
    if (tracers === null) return [];
    const m = tracers.metrics();
    return [`wind: ${m.effects} effects · ${m.tracers.toLocaleString('en')} tracers · field ${m.fieldMs.toFixed(2)} ms (${this.kernelLabel()})`];
  }

  private placeDefaults(sandbox: Sandbox): void {
    const size = sandbox.terrain.params.worldSize;
    for (const spec of DEFAULT_EFFECTS) {
      const position = this.grounded(sandbox, spec.at[0] * size, spec.at[1] * size, spec.above);
      const effect = this.field.add(spec.name, effectSource(spec.name), position, spec.reach);
      for (const [name, value] of Object.entries(spec.constants)) this.field.setConstant(effect, name, value);
      this.field.setEnabled(effect, spec.enabled);
    }
    this.settings.selected = this.field.effects[0]!.label;
    this.buildEffectFolder();
  }

  private heightAbove(effect: PlacedEffect): number {
    return DEFAULT_EFFECTS.find((d) => d.name === effect.label)?.above ?? 0;
  }

  private grounded(sandbox: Sandbox, x: number, z: number, above: number): [number, number, number] {
    return [x, sampleTerrainHeight(sandbox.terrain, x, z) + above, z];
  }

  /** The GUI of the selected effect: placement, reach, its tunable constants and its code. */
  private buildEffectFolder(): void {
    if (this.folder === null) return;
    this.effectFolder?.destroy();
    const folder = (this.effectFolder = this.folder.addFolder('Effect'));
    folder
      .add(
        this.settings,
        'selected',
        this.field.effects.map((e) => e.label),
      )
      .name('effect')
      .onChange(() => this.buildEffectFolder());
    const effect = this.field.effects.find((e) => e.label === this.settings.selected);
    const sandbox = this.context?.sandbox() ?? null;
    if (effect === undefined || sandbox === null) return;
    const half = sandbox.terrain.params.worldSize / 2;
    const placement = {
      enabled: effect.enabled,
      x: effect.position[0],
      z: effect.position[2],
      height: this.heightAbove(effect),
      reach: Number.isFinite(effect.reach) ? effect.reach : 0,
    };
    const place = (): void =>
      this.field.move(
        effect,
        this.grounded(sandbox, placement.x, placement.z, placement.height),
        Number.isFinite(effect.reach) ? placement.reach : Infinity,
      );
    folder.add(placement, 'enabled').onChange((on: boolean) => this.field.setEnabled(effect, on));
    if (Number.isFinite(effect.reach)) {
      folder.add(placement, 'x', -half, half, 1).onChange(place);
      folder.add(placement, 'z', -half, half, 1).onChange(place);
      folder.add(placement, 'height', 0, 100, 1).name('above ground').onChange(place);
      folder.add(placement, 'reach', 5, half, 1).name('reach (box)').onChange(place);
    }
    for (const constant of effect.program.constants) {
      if (constant.name === 'center' || constant.name === 'base' || constant.name === 'time') continue;
      const value = getConstant(effect.program, constant.name);
      const uniform = value[0] === value[1] && value[1] === value[2];
      const range = Math.max(10, 4 * Math.max(Math.abs(value[0]), Math.abs(value[1]), Math.abs(value[2])));
      if (uniform) {
        const proxy = { [constant.name]: value[0] };
        folder
          .add(proxy, constant.name, 0, range, range / 200)
          .onChange((v: number) => this.field.setConstant(effect, constant.name, [v, v, v, value[3] === 0 ? 0 : v]));
      } else {
        const proxy = { x: value[0], y: value[1], z: value[2] };
        for (const axis of ['x', 'y', 'z'] as const) {
          folder
            .add(proxy, axis, -range, range, range / 200)
            .name(`${constant.name}.${axis}`)
            .onChange(() => this.field.setConstant(effect, constant.name, [proxy.x, proxy.y, proxy.z, value[3]]));
        }
      }
    }
    folder.add({ edit: () => this.openEditor(effect) }, 'edit').name('edit code…');
  }

  private openEditor(effect: PlacedEffect): void {
    this.editor?.open(`${effect.label} — edits apply as you type`, effect.source, {
      compile: (source) => {
        this.field.recompile(effect, source);
        this.buildEffectFolder();
        return disassemble(effect.program);
      },
    });
  }

  /** Sets off the explosion effect for 0.6 s. */
  detonate(): void {
    const explosion = this.field.effects.find((e) => e.label === 'explosion');
    if (explosion === undefined) return;
    this.field.setEnabled(explosion, true);
    this.explosionTimer = 0.6;
  }

  /** The chosen kernel, and the one that ran when they differ (why, when a SIMD one cannot run here). */
  private kernelLabel(): string {
    const chosen = this.field.backend;
    const ran = this.field.ran.backend;
    const reason = chosen.startsWith('simd') ? simdFieldUnavailableReason() : undefined;
    if (reason !== undefined) return `${FIELD_BACKEND_LABELS[chosen]}: ${reason}, TypeScript runs`;
    if (chosen === 'auto') return ran === 'auto' ? FIELD_BACKEND_LABELS.auto : `${FIELD_BACKEND_LABELS.auto}: ${FIELD_BACKEND_LABELS[ran]}`;
    if (chosen === ran || ran === 'auto') return FIELD_BACKEND_LABELS[chosen];
    return `${FIELD_BACKEND_LABELS[chosen]}, compiling: ${FIELD_BACKEND_LABELS[ran]} runs`;
  }

  private resizeTracers(): void {
    const sandbox = this.context?.sandbox() ?? null;
    if (this.tracers !== null && sandbox !== null) this.tracers.resize(this.settings.tracers, sandbox);
  }

  /** Arrow sample points: a square grid over the world, a few metres above the ground. */
  private layoutGrid(): void {
    const sandbox = this.context?.sandbox() ?? null;
    if (sandbox === null) return;
    const n = this.settings.arrowGrid;
    const size = sandbox.terrain.params.worldSize;
    this.gridCount = n * n;
    this.gridPoints = new Float32Array(this.gridCount * 4);
    this.gridWind = new Float32Array(this.gridCount * 4);
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const x = ((i + 0.5) / n - 0.5) * size;
        const z = ((j + 0.5) / n - 0.5) * size;
        const k = 4 * (j * n + i);
        this.gridPoints[k] = x;
        this.gridPoints[k + 1] = sampleTerrainHeight(sandbox.terrain, x, z) + 8;
        this.gridPoints[k + 2] = z;
      }
    }
  }
}
