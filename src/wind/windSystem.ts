import { ColliderscopeError } from '../errors';
import { getConstant } from '../field/constants';
import { FIELD_BACKEND_LABELS, simdFieldUnavailableReason, type FieldBackend } from '../field/evaluate';

import type { StateHasher } from '../math/hash';
import { DEFAULT_KERNEL, type Kernel } from '../platform/kernels';
import { sampleTerrainHeight } from '../terrain/heightfield';
import type { MetricValue, SimSystem, SystemContext, WindSampler, World } from '../world/simSystem';
import { WindField, type PlacedEffect } from './windField';
import type { FieldCompiler, SceneWind, SceneWindEffect } from './windSection';
import { WindTracers } from './windTracers';

/** Where the default effects go, as fractions of the world, and heights above the ground. */
const DEFAULT_EFFECTS: readonly {
  program: string;
  at: [number, number];
  above: number;
  reach: number | null;
  enabled: boolean;
  constants: Record<string, [number, number, number, number]>;
}[] = [
  {
    program: 'whirl',
    at: [-0.15, 0.1],
    above: 12,
    reach: 110,
    enabled: true,
    constants: { up: [0, 1, 0, 0], radius: [40, 40, 40, 40], speed: [12, 12, 12, 12] },
  },
  {
    program: 'updraft',
    at: [0.22, -0.18],
    above: 0,
    reach: 70,
    enabled: true,
    constants: { radius: [45, 45, 45, 45], top: [90, 90, 90, 90], lift: [0, 14, 0, 0] },
  },
  { program: 'constant-wind', at: [0, 0], above: 0, reach: null, enabled: true, constants: {} },
  { program: 'turbulence', at: [0, 0], above: 0, reach: null, enabled: true, constants: { scale: [0.03, 0.03, 0.03, 0] } },
  { program: 'explosion', at: [0.05, 0.3], above: 6, reach: 60, enabled: false, constants: { radius: [50, 50, 50, 50], strength: [60, 60, 60, 0] } },
];

export const DEFAULT_TRACERS = 20_000;
/** Seconds an explosion stays on once detonated. */
export const EXPLOSION_SECONDS = 0.6;
/** Constants the placement drives (and the clock): not the user's to tune, not saved. */
const PLACED_CONSTANTS = ['center', 'base', 'time'];

/** The default effects on a terrain of this size, as a scene section would list them. */
export function defaultWindEffects(worldSize: number): SceneWindEffect[] {
  return DEFAULT_EFFECTS.map((spec) => ({
    program: spec.program,
    at: [spec.at[0] * worldSize, spec.at[1] * worldSize],
    above: spec.above,
    reach: spec.reach === null ? null : spec.reach,
    enabled: spec.enabled,
    constants: structuredClone(spec.constants),
  }));
}

/** The field back end of a kernel and a compiler. */
export function fieldBackend(kernel: Kernel, compiler: FieldCompiler): FieldBackend {
  if (kernel === 'wasm-simd') return compiler === 'jit' ? 'simd-jit' : 'simd-interpreter';
  return compiler;
}

interface WindState {
  tracers: unknown;
  explosionLeft: number;
  enabled: boolean[];
}

/**
 * The wind of the world as a system: effects (field programs placed on the terrain) superposed into one
 * field, and tracers it carries. It steps first, so the actors and particles stepped after it feel it
 * through the world (`world.wind`). Effects keep their ground height when the terrain changes; an
 * explosion detonated goes off for EXPLOSION_SECONDS of simulated time.
 */
export class WindSystem implements SimSystem {
  readonly name = 'wind';
  readonly field = new WindField();
  readonly tracers: WindTracers;
  kernel: Kernel;
  compiler: FieldCompiler;
  /** Each effect's placement as its section says: ground-relative, so it follows a new terrain. */
  private readonly placements = new Map<PlacedEffect, { at: [number, number]; above: number; program: string; librarySource: string }>();
  private explosionLeft = 0;
  private terrain: World['terrain'] | null = null;

  constructor(section: SceneWind, context: SystemContext) {
    this.kernel = section.kernel ?? DEFAULT_KERNEL;
    this.compiler = section.compiler ?? 'jit';
    this.field.backend = fieldBackend(this.kernel, this.compiler);
    const world = context.world;
    this.terrain = world.terrain;
    for (const spec of section.effects ?? defaultWindEffects(world.terrain.params.worldSize)) this.addEffect(spec, context);
    this.tracers = new WindTracers(this.field, section.tracers ?? DEFAULT_TRACERS, world.seed);
  }

  /** The world's wind, for the systems stepped after this one. */
  get providedWind(): WindSampler {
    return this.field;
  }

  /** Places an effect; throws (the field unchanged) when its program is missing or does not compile. */
  addEffect(spec: SceneWindEffect, context: Pick<SystemContext, 'readField'>): PlacedEffect {
    const librarySource = spec.source === undefined ? context.readField(spec.program) : safeRead(context, spec.program);
    const source = spec.source ?? librarySource;
    const reach = spec.reach === undefined || spec.reach === null ? Infinity : spec.reach;
    const effect = this.field.add(spec.program, source, this.grounded(spec.at, spec.above), reach);
    try {
      for (const [name, value] of Object.entries(spec.constants ?? {})) this.field.setConstant(effect, name, value);
    } catch (error) {
      this.field.remove(effect);
      throw error;
    }
    this.field.setEnabled(effect, spec.enabled);
    this.placements.set(effect, { at: [spec.at[0], spec.at[1]], above: spec.above, program: spec.program, librarySource });
    return effect;
  }

  /** Moves an effect to ground-relative x, z and height (and a new reach, if given). */
  place(effect: PlacedEffect, at: [number, number], above: number, reach = effect.reach): void {
    const placement = this.placements.get(effect);
    if (placement === undefined) return;
    placement.at = [at[0], at[1]];
    placement.above = above;
    this.field.move(effect, this.grounded(at, above), reach);
  }

  placementOf(effect: PlacedEffect): { at: [number, number]; above: number } | undefined {
    return this.placements.get(effect);
  }

  setKernel(kernel: Kernel, compiler = this.compiler): void {
    this.kernel = kernel;
    this.compiler = compiler;
    this.field.backend = fieldBackend(kernel, compiler);
  }

  resizeTracers(count: number, world: World): void {
    this.tracers.resize(count, world);
  }

  /** Sets off the explosion effect (the first effect running the explosion program) for EXPLOSION_SECONDS. */
  detonate(): boolean {
    const explosion = this.explosion();
    if (explosion === undefined) return false;
    this.field.setEnabled(explosion, true);
    this.explosionLeft = EXPLOSION_SECONDS;
    return true;
  }

  /** Where the explosion effect stands over the ground (x, z), or null when this wind has none. */
  explosionAt(): [number, number] | null {
    const explosion = this.explosion();
    const placement = explosion === undefined ? undefined : this.placements.get(explosion);
    return placement === undefined ? null : [placement.at[0], placement.at[1]];
  }

  terrainChanged(world: World): void {
    this.terrain = world.terrain;
    for (const effect of this.field.effects) {
      const placement = this.placements.get(effect);
      if (placement !== undefined) this.field.move(effect, this.grounded(placement.at, placement.above));
    }
    this.tracers.terrainChanged(world);
  }

  step(dt: number, world: World): void {
    if (this.explosionLeft > 0) {
      this.explosionLeft -= dt;
      const explosion = this.explosion();
      if (this.explosionLeft <= 0 && explosion !== undefined) this.field.setEnabled(explosion, false);
    }
    this.tracers.step(dt, world);
    world.timings.record('wind.field', this.tracers.sampleMs);
  }

  /** The back end that evaluated the field last, and why not the chosen one when they differ. */
  kernelRan(): string {
    const chosen = this.field.backend;
    const ran = this.field.ran.backend;
    const reason = chosen.startsWith('simd') ? simdFieldUnavailableReason() : undefined;
    if (reason !== undefined) return `${FIELD_BACKEND_LABELS[chosen]} unavailable (${reason}): TypeScript ran`;
    if (ran === chosen || ran === 'auto') return FIELD_BACKEND_LABELS[chosen];
    return `${FIELD_BACKEND_LABELS[ran]} (${FIELD_BACKEND_LABELS[chosen]} compiling)`;
  }

  metrics(): Record<string, MetricValue> {
    return { ...this.tracers.metrics(), kernel: this.kernelRan() };
  }

  hash(hasher: StateHasher): void {
    hasher.value(this.saveState());
    for (const effect of this.field.effects) {
      hasher.string(effect.source).value(effect.position).number(effect.reach);
      // The placed constants follow the position (hashed) and the clock (the world's).
      for (const constant of effect.program.constants) {
        if (!PLACED_CONSTANTS.includes(constant.name)) hasher.string(constant.name).value(getConstant(effect.program, constant.name));
      }
    }
  }

  section(): SceneWind {
    const effects = this.field.effects.map((effect): SceneWindEffect => {
      const placement = this.placements.get(effect);
      const constants: Record<string, [number, number, number, number]> = {};
      for (const constant of effect.program.constants) {
        if (PLACED_CONSTANTS.includes(constant.name)) continue;
        const [x = 0, y = 0, z = 0, w = 0] = getConstant(effect.program, constant.name);
        constants[constant.name] = [x, y, z, w];
      }
      // A detonated explosion is saved as it rests: off.
      const enabled = effect === this.explosion() && this.explosionLeft > 0 ? false : effect.enabled;
      return {
        program: placement?.program ?? effect.label,
        ...(placement !== undefined && effect.source === placement.librarySource ? {} : { source: effect.source }),
        at: placement?.at ?? [effect.position[0], effect.position[2]],
        above: placement?.above ?? 0,
        reach: Number.isFinite(effect.reach) ? effect.reach : null,
        enabled,
        constants,
      };
    });
    return { effects, tracers: this.tracers.count, kernel: this.kernel, compiler: this.compiler };
  }

  saveState(): WindState {
    return { tracers: this.tracers.saveState(), explosionLeft: this.explosionLeft, enabled: this.field.effects.map((e) => e.enabled) };
  }

  loadState(state: unknown): void {
    const s = state as WindState;
    this.tracers.loadState(s.tracers);
    this.explosionLeft = s.explosionLeft;
    if (s.enabled.length === this.field.effects.length) this.field.effects.forEach((effect, i) => this.field.setEnabled(effect, s.enabled[i]!));
  }

  private explosion(): PlacedEffect | undefined {
    return this.field.effects.find((effect) => this.placements.get(effect)?.program === 'explosion');
  }

  private grounded(at: readonly [number, number], above: number): [number, number, number] {
    const terrain = this.terrain;
    return [at[0], (terrain === null ? 0 : sampleTerrainHeight(terrain, at[0], at[1])) + above, at[1]];
  }
}

/** The library's text of a program, or '' when the library has none (an inline program of its own name). */
function safeRead(context: Pick<SystemContext, 'readField'>, name: string): string {
  try {
    return context.readField(name);
  } catch (error) {
    if (error instanceof ColliderscopeError) return '';
    throw error;
  }
}
