import type GUI from 'lil-gui';
import * as THREE from 'three';
import { ActorSystem, WindSystem, sampleTerrainHeight, type SceneActors, type SceneDefinition } from '../../core';
import { ACTORS_LEGEND, ActorsView } from '../../view/actorsView';
import type { Legend } from '../../view/legend';
import { BoxOverlay } from '../../view/boxOverlay';
import type { AppContext, AppFeature } from '../feature';
import { addFocusButton, sphereAround, type FocusTarget } from './focusButton';

interface ActorsSettings {
  enabled: boolean;
  count: number;
  spheres: number;
  boxes: number;
  capsules: number;
  size: number;
  density: number;
  wind: boolean;
  restitution: number;
  friction: number;
  wakeSize: number;
}

/** Seconds the wake box stays drawn after a wake. */
const WAKE_BOX_SECONDS = 1;

/**
 * A pile of actors blown about: spheres, boxes and capsules dropped under the wind's explosion, settling
 * on the terrain, falling asleep, woken by a wake box or by the explosion (which wakes the actors in its
 * reach first, as wind alone never wakes sleepers), carried by the whirl and the gusts.
 */
export class ActorsFeature implements AppFeature {
  readonly name = 'actors';
  private context: AppContext | null = null;
  private readonly view = new ActorsView();
  private readonly wakeBox = new BoxOverlay(1);
  private readonly wakeBounds = new Float32Array(6);
  private wakeBoxTimer = 0;
  /** Sleepers the last wake box or explosion woke (−1: none yet). */
  private lastWoken = -1;
  /** The pile's centre from the scene file, when it gives one. */
  private sceneCenter: [number, number] | null = null;
  private readonly settings: ActorsSettings = {
    enabled: false,
    count: 300,
    spheres: 1,
    boxes: 1,
    capsules: 1,
    size: 0.6,
    density: 25,
    wind: true,
    restitution: 0.2,
    friction: 0.6,
    wakeSize: 30,
  };

  install(context: AppContext): void {
    this.context = context;
    this.view.group.visible = false;
    this.wakeBox.lines.visible = false;
    context.stage.scene.add(this.view.group, this.wakeBox.lines);
    const folder: GUI = context.gui.addFolder('Actors');
    folder
      .add(this.settings, 'enabled')
      .name('enabled')
      .onChange(() => this.applyEnabled());
    folder
      .add(this.settings, 'count', 1, 2000, 1)
      .name('count')
      .onFinishChange(() => this.respawn());
    const mix = folder.addFolder('Shape mix');
    mix.add(this.settings, 'spheres', 0, 1, 0.05).onFinishChange(() => this.respawn());
    mix.add(this.settings, 'boxes', 0, 1, 0.05).onFinishChange(() => this.respawn());
    mix.add(this.settings, 'capsules', 0, 1, 0.05).onFinishChange(() => this.respawn());
    mix.close();
    folder
      .add(this.settings, 'size', 0.2, 2, 0.05)
      .name('size (m)')
      .onFinishChange(() => this.respawn());
    folder
      .add(this.settings, 'density', 2, 500, 1)
      .name('density (kg/m³)')
      .onFinishChange(() => this.respawn());
    folder.add({ spawn: () => this.respawn() }, 'spawn').name('spawn pile');
    folder
      .add(this.settings, 'wind')
      .name('wind on actors')
      .onChange((on: boolean) => {
        const system = this.system;
        if (system !== null) system.windEnabled = on;
      });
    folder.add(this.settings, 'restitution', 0, 1, 0.01).onChange(() => this.applyMaterial());
    folder.add(this.settings, 'friction', 0, 2, 0.01).onChange(() => this.applyMaterial());
    folder.add(this.settings, 'wakeSize', 2, 200, 1).name('wake box size (m)');
    folder.add({ wake: () => this.wakeAroundPile() }, 'wake').name('wake box');
    folder.add({ explode: () => this.explode() }, 'explode').name('explosion (wakes first)');
    addFocusButton(folder, context, () => this.focusTarget(), 'the actors');
    folder.close();
  }

  sceneLoaded(scene: SceneDefinition): void {
    const wanted = scene.systems.actors as SceneActors | undefined;
    this.sceneCenter = wanted?.center ?? null;
    if (wanted !== undefined) {
      const s = this.settings;
      if (wanted.count !== undefined) s.count = wanted.count;
      if (wanted.size !== undefined) s.size = wanted.size;
      if (wanted.density !== undefined) s.density = wanted.density;
      if (wanted.mix !== undefined) [s.spheres, s.boxes, s.capsules] = [wanted.mix.sphere, wanted.mix.box, wanted.mix.capsule];
      if (wanted.restitution !== undefined) s.restitution = wanted.restitution;
      if (wanted.friction !== undefined) s.friction = wanted.friction;
      if (wanted.wind !== undefined) s.wind = wanted.wind;
    }
    this.settings.enabled = wanted !== undefined;
  }

  terrainChanged(): void {
    // Turned on before any terrain existed (a link's settings): start now.
    if (this.settings.enabled && this.system === null) this.applyEnabled();
  }

  frame(dtSeconds: number): void {
    const system = this.system;
    if (this.context?.sceneSwitching() !== true) this.settings.enabled = system !== null;
    const visible = system !== null;
    this.view.group.visible = visible;
    if (visible) this.view.update(system.world.actors);
    if (this.wakeBoxTimer > 0) {
      this.wakeBoxTimer -= Math.max(dtSeconds, 1 / 60);
      this.wakeBox.lines.visible = this.wakeBoxTimer > 0;
    }
  }

  private focusTarget(): FocusTarget | null {
    const actors = this.system?.world.actors;
    return actors === undefined ? null : sphereAround(actors.position, actors.count);
  }

  legends(): readonly Legend[] {
    return this.view.group.visible ? [ACTORS_LEGEND] : [];
  }

  hudLines(): readonly string[] {
    const system = this.system;
    if (system === null) return [];
    const m = system.metrics();
    const ms =
      (m.windMs as number) +
      (m.broadPhaseMs as number) +
      (m.actorContactsMs as number) +
      (m.terrainContactsMs as number) +
      (m.solveMs as number) +
      (m.integrateMs as number);
    const waiting = system.world.bvh === null ? ' · waiting for the BVH' : '';
    return [
      `actors: ${m.actors} · awake ${m.awake} · asleep ${m.sleeping}${(m.lost as number) > 0 ? ` · lost ${m.lost}` : ''} · contacts per step ${m.contacts} (terrain ${m.terrainContacts}, between actors ${m.actorContacts}) · ${m.substeps} substep${m.substeps === 1 ? '' : 's'} · wind samples ${m.windSamples}${waiting}`,
      `actors ms: ${ms.toFixed(2)} = wind ${(m.windMs as number).toFixed(2)} + broad ${(m.broadPhaseMs as number).toFixed(2)} + pairs ${(m.actorContactsMs as number).toFixed(2)} + terrain ${(m.terrainContactsMs as number).toFixed(2)} + solve ${(m.solveMs as number).toFixed(2)} + move ${(m.integrateMs as number).toFixed(2)}${this.lastWoken >= 0 ? ` · last wake: ${this.lastWoken} woken` : ''}`,
    ];
  }

  /** The running actors system, if any (the scene, or this panel, turned it on). */
  private get system(): ActorSystem | null {
    const system = this.context?.system('actors') ?? null;
    return system instanceof ActorSystem ? system : null;
  }

  private applyEnabled(): void {
    this.context?.setSystem('actors', this.settings.enabled ? this.section() : null);
  }

  /** A new pile from the settings: the system is made again (its history no longer describes the pile). */
  private respawn(): void {
    if (this.system !== null) this.context?.setSystem('actors', this.section());
  }

  private section(): SceneActors {
    const s = this.settings;
    const none = s.spheres + s.boxes + s.capsules <= 0;
    return {
      count: Math.round(s.count),
      center: this.pileCenter(),
      mix: none ? { sphere: 1, box: 1, capsule: 1 } : { sphere: s.spheres, box: s.boxes, capsule: s.capsules },
      size: s.size,
      density: s.density,
      restitution: s.restitution,
      friction: s.friction,
      wind: s.wind,
    };
  }

  /** Where the scene put the pile, else under the wind's explosion when there is one, so "explosion" has something to blow away. */
  private pileCenter(): [number, number] {
    if (this.sceneCenter !== null) return this.sceneCenter;
    const explosion = this.windSystem()?.field.effects.find((e) => e.label === 'explosion');
    if (explosion !== undefined) return [explosion.position[0], explosion.position[2]];
    return [0, 0];
  }

  private applyMaterial(): void {
    this.system?.world.setOptions({ restitution: this.settings.restitution, friction: this.settings.friction });
  }

  private wakeAroundPile(): void {
    const sandbox = this.context?.sandbox() ?? null;
    if (sandbox === null || this.system === null) return;
    const [x, z] = this.system.pile.center;
    const half = this.settings.wakeSize / 2;
    const y = sampleTerrainHeight(sandbox.terrain, x, z);
    this.wake([x - half, y - half, z - half, x + half, y + half, z + half]);
  }

  /** The reference's order: wake the actors the explosion reaches, then set it off. */
  private explode(): void {
    const wind = this.windSystem();
    const explosion = wind?.field.effects.find((e) => e.label === 'explosion');
    if (wind === null || explosion === undefined) {
      this.context?.reportError('No explosion in the wind: turn the wind on (Wind → wind) for an explosion to blow the actors.');
      return;
    }
    this.wake(Array.from(explosion.bounds));
    wind.detonate();
  }

  private windSystem(): WindSystem | null {
    const system = this.context?.system('wind') ?? null;
    return system instanceof WindSystem ? system : null;
  }

  private wake(box: number[]): void {
    if (this.system === null) return;
    this.lastWoken = this.system.world.wakeActors(box);
    this.wakeBounds.set(box);
    this.wakeBox.setBoxes({ bounds: this.wakeBounds, count: 1 }, new THREE.Color(0xffd166));
    this.wakeBox.lines.visible = true;
    this.wakeBoxTimer = WAKE_BOX_SECONDS;
  }
}
