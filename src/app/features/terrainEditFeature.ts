import type { Controller, GUI } from 'lil-gui';
import { BUILDER_LABELS, loadWasmRefit, type Sandbox, type TerrainEditKind } from '../../core';
import { TerrainPicker } from './terrainPick';
import { warmUpTerrainEditsWhenIdle } from './editWarmUp';
import { messageOf } from '../capture';
import type { AppContext, AppFeature } from '../feature';

/** The panel's tool and sizes; the edit itself is the sandbox's (Sandbox.deformTerrain), recorded in its timeline. */
interface TerrainEditPanel {
  tool: TerrainEditKind;
  radius: number;
  craterDepth: number;
  /** raise, lower: metres per stroke at the centre, as a share of the radius; smooth: the blend. */
  strength: number;
  /** The wind's *detonate explosion* blasts a crater under it too. */
  explosionsBlast: boolean;
}

/** Strokes a held brush makes per second (each is an edit in the timeline and a refit). */
const STROKES_PER_SECOND = 20;
/** How often the folder's readouts are refreshed while it is open (ms). */
const READOUT_REFRESH_MS = 250;
/** Height a raise or lower stroke of strength 1 adds at its centre, per unit of radius. */
const STROKE_HEIGHT_PER_RADIUS = 0.05;

const TOOL_LABELS: Readonly<Record<TerrainEditKind, string>> = { crater: 'blast a crater', raise: 'raise', lower: 'lower', smooth: 'smooth' };

/**
 * Blast and sculpt: Ctrl+Shift+click blasts a crater where the pointer meets the terrain, or, with a
 * brush chosen, Ctrl+Shift+drag raises, lowers or smooths the ground under it; the wind's explosion
 * blasts one too. Each edit goes through the sandbox, which records it at the current frame (saved
 * with the scene, undone by step back, replayed by the runner), refits the BVH and tells every system;
 * the terrain view redraws only the changed ground. The folder shows what the refits cost.
 */
export class TerrainEditFeature implements AppFeature {
  readonly name = 'terrainEdits';
  private context: AppContext | null = null;
  private warmedUp = false;
  private readonly panel: TerrainEditPanel = { tool: 'crater', radius: 14, craterDepth: 10, strength: 0.4, explosionsBlast: true };
  private readonly readouts = { edits: '0', refit: '—', degradation: '—', tree: '—' };
  private folder: GUI | null = null;
  private radiusController: Controller | null = null;
  private depthController: Controller | null = null;
  private readonly picker = new TerrainPicker();
  /** Where a held brush is, in world x and z (null while no brush stroke is held over the terrain). */
  private brushAt: [number, number] | null = null;
  private brushHeld = false;
  private sinceStroke = 0;
  private readoutsAt = -Infinity;

  install(context: AppContext): void {
    this.context = context;
    const terrainFolder = context.gui.folders.find((folder) => folder._title === 'Terrain') ?? context.gui;
    const folder = terrainFolder.addFolder('Blast and sculpt');
    this.folder = folder;
    const p = this.panel;
    folder.add(p, 'tool', toolOptions()).name('Ctrl+Shift+drag');
    this.radiusController = folder.add(p, 'radius', 1, 128, 0.5).name('radius');
    this.depthController = folder.add(p, 'craterDepth', 0.5, 100, 0.5).name('crater depth');
    folder.add(p, 'strength', 0.05, 1, 0.05).name('brush strength');
    folder.add(p, 'explosionsBlast').name('explosions blast craters');
    folder.add({ undo: () => this.undoLast() }, 'undo').name('undo the last edit');
    folder.add({ clear: () => this.clearAll() }, 'clear').name('undo every edit');
    folder.add(this.readouts, 'edits').name('edits').disable().listen();
    folder.add(this.readouts, 'refit').name('last refit').disable().listen();
    folder.add(this.readouts, 'degradation').name('SAH after refits').disable().listen();
    folder.add(this.readouts, 'tree').name('tree').disable().listen();
    folder.close();
    this.listenToPointer(context);
    // Full refits (the first after a build, a swapped-in rebuild) take the SIMD kernel once it is here.
    void loadWasmRefit();
  }

  terrainChanged(sandbox: Sandbox): void {
    if (!this.warmedUp) {
      this.warmedUp = true;
      warmUpTerrainEditsWhenIdle();
    }
    const { worldSize, heightScale, cells } = sandbox.terrain.params;
    // Sizes that read well on this terrain: a crater about 3% of the world across (and at least three
    // cells, so a coarse grid shows a bowl), a fifth of its height deep.
    this.radiusController?.max(Math.max(8, worldSize / 4));
    this.depthController?.max(Math.max(10, heightScale * 2));
    this.panel.radius = Math.round(Math.min(Math.max(worldSize * 0.03, (3 * worldSize) / cells, 1), worldSize / 4) * 2) / 2;
    this.panel.craterDepth = Math.max(0.5, Math.round(heightScale * 0.2 * 2) / 2);
    for (const controller of this.folder?.controllersRecursive() ?? []) controller.updateDisplay();
    this.brushAt = null;
  }

  /** Called by the wind's detonate: a crater under the explosion, when the panel says so. */
  blastAt(at: [number, number]): void {
    if (!this.panel.explosionsBlast) return;
    this.edit('crater', at);
  }

  frame(_dt: number, sandbox: Sandbox): void {
    // Strokes follow wall time, so a paused page sculpts too.
    if (this.brushHeld && this.brushAt !== null && this.panel.tool !== 'crater') {
      const strokeAt = performance.now();
      if (strokeAt - this.sinceStroke >= 1000 / STROKES_PER_SECOND) {
        this.sinceStroke = strokeAt;
        this.edit(this.panel.tool, this.brushAt);
      }
    }
    // The readouts only matter while the folder is open, and a few times a second is plenty.
    const now = performance.now();
    if (this.folder === null || this.folder._closed || now - this.readoutsAt < READOUT_REFRESH_MS) return;
    this.readoutsAt = now;
    const edits = sandbox.terrainEdits;
    this.readouts.edits = `${edits.appliedCount.toLocaleString('en')} on the terrain${edits.edits.length > edits.appliedCount ? ` (${(edits.edits.length - edits.appliedCount).toLocaleString('en')} to come)` : ''}`;
    const refit = sandbox.lastRefit;
    this.readouts.refit =
      refit === null ? '—' : `${refit.ms.toFixed(2)} ms · ${refit.nodesReencoded.toLocaleString('en')} nodes${refit.full ? ' (full)' : ''}`;
    this.readouts.degradation =
      refit === null ? '—' : `${refit.builtSahCost.toFixed(2)} → ${refit.sahCost.toFixed(2)} (${formatChange(refit.degradation)})`;
    const bvh = sandbox.bvh;
    this.readouts.tree =
      bvh === null
        ? 'building…'
        : `${BUILDER_LABELS[bvh.stats.builder]} build, ${bvh.stats.buildMs.toFixed(0)} ms, SAH ${bvh.stats.sahCost.toFixed(2)}`;
  }

  hudLines(): readonly string[] {
    const sandbox = this.context?.sandbox() ?? null;
    const refit = sandbox?.lastRefit ?? null;
    if (sandbox === null || refit === null || sandbox.terrainEdits.appliedCount === 0) return [];
    return [
      `terrain: ${sandbox.terrainEdits.appliedCount} edits · refit ${refit.ms.toFixed(2)} ms, ${refit.nodesReencoded} nodes · SAH ${formatChange(refit.degradation)}`,
    ];
  }

  private edit(kind: TerrainEditKind, at: [number, number]): void {
    const context = this.context;
    const sandbox = context?.sandbox() ?? null;
    if (context === null || sandbox === null) return;
    const { radius, craterDepth, strength } = this.panel;
    const amount = kind === 'crater' ? craterDepth : kind === 'smooth' ? strength : strength * radius * STROKE_HEIGHT_PER_RADIUS;
    try {
      sandbox.deformTerrain({ kind, at, radius, amount });
    } catch (error) {
      context.reportError(messageOf(error));
    }
  }

  private undoLast(): void {
    const sandbox = this.context?.sandbox() ?? null;
    if (sandbox !== null && !sandbox.undoLastEdit()) this.context?.reportError('There is no terrain edit to undo.');
  }

  private clearAll(): void {
    const sandbox = this.context?.sandbox() ?? null;
    if (sandbox === null) return;
    try {
      sandbox.setTerrainEdits([]);
    } catch (error) {
      this.context?.reportError(messageOf(error));
    }
  }

  private listenToPointer(context: AppContext): void {
    const canvas = context.stage.renderer.domElement;
    const isEditDrag = context.gestures.claim({
      owner: 'blast and sculpt',
      modifier: 'Ctrl+Shift',
      kind: 'press-drag',
      what: 'blast a crater, or sculpt with the brush chosen in Terrain → Blast and sculpt',
    });
    canvas.addEventListener(
      'pointerdown',
      (event) => {
        if (!isEditDrag(event) || event.button !== 0) return;
        event.stopImmediatePropagation();
        context.stage.orbit.enabled = false;
        canvas.setPointerCapture(event.pointerId);
        this.brushHeld = true;
        this.brushAt = this.picker.pick(event, context);
        if (this.brushAt === null) return;
        this.sinceStroke = performance.now();
        this.edit(this.panel.tool, this.brushAt);
      },
      { capture: true },
    );
    canvas.addEventListener('pointermove', (event) => {
      if (this.brushHeld && this.panel.tool !== 'crater') this.brushAt = this.picker.pick(event, context) ?? this.brushAt;
    });
    const stop = (event: PointerEvent): void => {
      if (!this.brushHeld) return;
      this.brushHeld = false;
      this.brushAt = null;
      context.stage.orbit.enabled = true;
      if (canvas.hasPointerCapture(event.pointerId)) canvas.releasePointerCapture(event.pointerId);
    };
    canvas.addEventListener('pointerup', stop);
    canvas.addEventListener('pointercancel', stop);
  }
}

/** The tool menu: labels as lil-gui shows them, mapped to the edit kinds. */
function toolOptions(): Record<string, TerrainEditKind> {
  const options: Record<string, TerrainEditKind> = {};
  for (const [kind, label] of Object.entries(TOOL_LABELS) as [TerrainEditKind, string][]) options[label] = kind;
  return options;
}

/** A ratio as a signed percentage: 1.039 → "+3.9%". */
function formatChange(ratio: number): string {
  const percent = (ratio - 1) * 100;
  return `${percent >= 0 ? '+' : ''}${percent.toFixed(1)}%`;
}
