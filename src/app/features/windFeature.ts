import type GUI from 'lil-gui';
import {
  FIELD_COMPILERS,
  KERNELS,
  KERNEL_LABELS,
  WindSystem,
  disassemble,
  getConstant,
  sampleTerrainHeight,
  type FieldCompiler,
  type Kernel,
  type PlacedEffect,
  type Sandbox,
  type SceneDefinition,
  type SceneWind,
} from '../../core';
import { FieldEditor } from '../../ui/fieldEditor';
import { EffectGizmos, TracerPoints, WindArrows, windSpeedLegend } from '../../view/windView';
import type { Legend } from '../../view/legend';
import type { AppContext, AppFeature } from '../feature';
import { addFocusButton, sphereAround, type FocusTarget } from './focusButton';

interface WindPanel {
  enabled: boolean;
  arrows: boolean;
  arrowGrid: number;
  tracers: number;
  showTracers: boolean;
  kernel: Kernel;
  compiler: FieldCompiler;
  selected: string;
}

/** Wind speed at which the arrows' heads reach the top of their colour ramp (m/s). */
const ARROW_MAX_SPEED = 30;
const WIND_LEGEND = windSpeedLegend(ARROW_MAX_SPEED);
/**
 * The wind's panel and view: effects drawn as gizmos while the folder is open, the field as arrows on a
 * grid and the tracers it carries; each effect's placement, constants and program can be edited live.
 * The wind itself is the core WindSystem (src/wind), stepped by the sandbox like every other system.
 */
export class WindFeature implements AppFeature {
  readonly name = 'wind';
  /** `blast`: what a detonation does to the ground under the explosion (x, z). */
  constructor(private readonly blast: (at: [number, number]) => void = () => {}) {}
  private readonly arrows = new WindArrows();
  private readonly tracerPoints = new TracerPoints();
  private readonly gizmos = new EffectGizmos();
  private editor: FieldEditor | null = null;
  private context: AppContext | null = null;
  private folder: GUI | null = null;
  private effectFolder: GUI | null = null;
  private readonly panel: WindPanel = {
    enabled: false,
    arrows: true,
    arrowGrid: 28,
    tracers: 20000,
    showTracers: true,
    kernel: 'wasm-simd',
    compiler: 'jit',
    selected: '',
  };
  /** The system the effect folder was built for (rebuilt when another one runs). */
  private shown: WindSystem | null = null;
  private gridPoints = new Float32Array(0);
  private gridWind = new Float32Array(0);
  private gridCount = 0;
  private gridTerrain: unknown = null;

  install(context: AppContext): void {
    this.context = context;
    context.stage.scene.add(this.arrows.lines, this.tracerPoints.points, this.gizmos.group);
    this.editor = new FieldEditor(context.root);
    const folder = (this.folder = context.gui.addFolder('Wind'));
    folder
      .add(this.panel, 'enabled')
      .name('wind')
      .onChange(() => this.applyEnabled());
    folder.add(this.panel, 'arrows').name('arrows');
    folder
      .add(this.panel, 'arrowGrid', 4, 64, 1)
      .name('arrow grid')
      .onFinishChange(() => (this.gridTerrain = null));
    folder.add(this.panel, 'showTracers').name('tracers');
    folder
      .add(this.panel, 'tracers', 0, 100000, 1000)
      .name('tracer count')
      .onFinishChange((count: number) => {
        const sandbox = context.sandbox();
        if (sandbox !== null) this.system()?.resizeTracers(count, sandbox);
      });
    // The kernel switches live: effects, tracers and actors keep their state; only the next evaluation changes hands.
    const kernels = Object.fromEntries(KERNELS.map((kernel) => [KERNEL_LABELS[kernel], kernel]));
    folder
      .add(this.panel, 'kernel', kernels)
      .name('field kernel')
      .onChange(() => this.system()?.setKernel(this.panel.kernel, this.panel.compiler));
    folder
      .add(this.panel, 'compiler', [...FIELD_COMPILERS])
      .name('field compiler')
      .onChange(() => this.system()?.setKernel(this.panel.kernel, this.panel.compiler));
    folder.add({ detonate: () => this.detonate() }, 'detonate').name('detonate explosion');
    addFocusButton(folder, context, () => this.focusTarget(), 'the wind effects');
    folder.close();
    // Effect gizmos are editing aids: shown while the Wind folder is open.
    this.gizmos.group.visible = false;
    folder.onOpenClose((changed) => {
      if (changed === folder) this.gizmos.group.visible = !folder._closed;
    });
  }

  sceneLoaded(scene: SceneDefinition): void {
    const section = scene.systems.wind as SceneWind | undefined;
    this.panel.enabled = section !== undefined;
    if (section?.tracers !== undefined) this.panel.tracers = section.tracers;
    if (section?.kernel !== undefined) this.panel.kernel = section.kernel;
    if (section?.compiler !== undefined) this.panel.compiler = section.compiler;
  }

  terrainChanged(): void {
    this.gridTerrain = null;
    // Turned on before any terrain existed (a link's settings): start now.
    if (this.panel.enabled && this.system() === null) this.applyEnabled();
  }

  frame(_dtSeconds: number, sandbox: Sandbox): void {
    const system = this.system();
    if (this.context?.sceneSwitching() !== true) this.panel.enabled = system !== null;
    if (system !== this.shown) {
      this.shown = system;
      this.panel.selected = system?.field.effects[0]?.label ?? '';
      this.buildEffectFolder();
    }
    this.arrows.lines.visible = system !== null && this.panel.arrows;
    this.tracerPoints.points.visible = system !== null && this.panel.showTracers;
    if (system === null) {
      this.gizmos.update([], -1);
      return;
    }
    if (this.panel.arrows) {
      if (this.gridTerrain !== sandbox.terrain) this.layoutGrid(sandbox);
      const start = performance.now();
      system.field.sample(this.gridPoints, this.gridWind, this.gridCount);
      sandbox.timings.record('wind.arrows', performance.now() - start);
      this.arrows.update(this.gridPoints, this.gridWind, this.gridCount, 0.9, ARROW_MAX_SPEED);
    }
    this.tracerPoints.update(system.tracers.positions, system.tracers.stride, system.tracers.count);
    this.gizmos.update(
      system.field.effects,
      system.field.effects.findIndex((e) => e.label === this.panel.selected),
    );
  }

  private focusTarget(): FocusTarget | null {
    const effects = this.system()?.field.effects ?? [];
    const around = sphereAround(
      effects.flatMap((effect) => [...effect.position]),
      effects.length,
    );
    const reach = Math.max(0, ...effects.map((effect) => effect.reach));
    return around === null ? null : { center: around.center, radius: around.radius + reach };
  }

  legends(): readonly Legend[] {
    return this.arrows.lines.visible ? [WIND_LEGEND] : [];
  }

  hudLines(): readonly string[] {
    const system = this.system();
    if (system === null) return [];
    const m = system.tracers.metrics();
    return [`wind: ${m.effects} effects · ${m.tracers.toLocaleString('en')} tracers · field ${m.fieldMs.toFixed(2)} ms (${system.kernelRan()})`];
  }

  /** Sets off the explosion effect (turning the wind on first if it is off). */
  detonate(): void {
    const system = this.system() ?? this.applyEnabled(true);
    if (system === null) return;
    if (!system.detonate()) {
      this.context?.reportError('This wind has no explosion effect to detonate.');
      return;
    }
    const at = system.explosionAt();
    if (at !== null) this.blast(at);
  }

  private system(): WindSystem | null {
    const system = this.context?.system('wind') ?? null;
    return system instanceof WindSystem ? system : null;
  }

  private applyEnabled(on = this.panel.enabled): WindSystem | null {
    const context = this.context;
    if (context === null) return null;
    const section: SceneWind = { tracers: this.panel.tracers, kernel: this.panel.kernel, compiler: this.panel.compiler };
    const system = context.setSystem('wind', on ? section : null);
    return system instanceof WindSystem ? system : null;
  }

  /** The GUI of the selected effect: placement, reach, its tunable constants and its code. */
  private buildEffectFolder(): void {
    if (this.folder === null) return;
    this.effectFolder?.destroy();
    this.effectFolder = null;
    const system = this.shown;
    const sandbox = this.context?.sandbox() ?? null;
    if (system === null || sandbox === null) return;
    const folder = (this.effectFolder = this.folder.addFolder('Effect'));
    folder
      .add(
        this.panel,
        'selected',
        system.field.effects.map((e) => e.label),
      )
      .name('effect')
      .onChange(() => this.buildEffectFolder());
    const effect = system.field.effects.find((e) => e.label === this.panel.selected);
    const placed = effect === undefined ? undefined : system.placementOf(effect);
    if (effect === undefined || placed === undefined) return;
    const half = sandbox.terrain.params.worldSize / 2;
    const placement = {
      enabled: effect.enabled,
      x: placed.at[0],
      z: placed.at[1],
      height: placed.above,
      reach: Number.isFinite(effect.reach) ? effect.reach : 0,
    };
    const place = (): void =>
      system.place(effect, [placement.x, placement.z], placement.height, Number.isFinite(effect.reach) ? placement.reach : Infinity);
    folder.add(placement, 'enabled').onChange((on: boolean) => system.field.setEnabled(effect, on));
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
          .onChange((v: number) => system.field.setConstant(effect, constant.name, [v, v, v, value[3] === 0 ? 0 : v]));
      } else {
        const proxy = { x: value[0], y: value[1], z: value[2] };
        for (const axis of ['x', 'y', 'z'] as const) {
          folder
            .add(proxy, axis, -range, range, range / 200)
            .name(`${constant.name}.${axis}`)
            .onChange(() => system.field.setConstant(effect, constant.name, [proxy.x, proxy.y, proxy.z, value[3]]));
        }
      }
    }
    folder.add({ edit: () => this.openEditor(system, effect) }, 'edit').name('edit code…');
  }

  private openEditor(system: WindSystem, effect: PlacedEffect): void {
    this.editor?.open(`${effect.label} — edits apply as you type`, effect.source, {
      compile: (source) => {
        system.field.recompile(effect, source);
        this.buildEffectFolder();
        return disassemble(effect.program);
      },
    });
  }

  /** Arrow sample points: a square grid over the world, a few metres above the ground. */
  private layoutGrid(sandbox: Sandbox): void {
    this.gridTerrain = sandbox.terrain;
    const n = this.panel.arrowGrid;
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
