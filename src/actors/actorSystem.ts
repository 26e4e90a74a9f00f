import type { MetricValue, SimSystem, World } from '../sim/simSystem';
import type { WindField } from '../sim/windField';
import { sampleTerrainHeight } from '../terrain/heightfield';
import { ALL_GROUPS, ActorWorld, type ActorWorldOptions, type ActorWorldSnapshot } from './actorWorld';
import { DEFAULT_PILE, spawnPile, type PileSpec } from './spawnPile';

const round = (value: number, digits = 3): number => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The actors as a sandbox system: a pile dropped on the terrain, blown by the world's wind. Each step
 * wakes the sleepers in the reach box of every wind effect that appeared or moved since the last step
 * (so an explosion never finds them asleep), applies the wind to the awake actors, and steps the world;
 * its phases go to the sandbox's timings as `actors.<phase>`. Until the terrain's BVH exists the actors
 * wait where they were spawned.
 */
export class ActorSystem implements SimSystem {
  readonly name = 'actors';
  readonly world: ActorWorld;
  /** The wind; null for still air. */
  field: WindField | null;
  windEnabled = true;
  /** Collision-filter bits the wind applies to. */
  windFilter = ALL_GROUPS;
  /** Wake sleepers where a wind effect appears or moves (see the class comment). */
  wakeOnNewEffects = true;
  pile: PileSpec;
  /** Reach boxes of the enabled effects as last seen, by effect id. */
  private readonly seenEffects = new Map<number, Float64Array>();
  private wokenByEffects = 0;

  constructor(field: WindField | null = null, pile: Partial<PileSpec> = {}, options: Partial<ActorWorldOptions> = {}) {
    this.field = field;
    this.world = new ActorWorld(options);
    this.pile = { ...DEFAULT_PILE, ...pile, mix: { ...DEFAULT_PILE.mix, ...pile.mix } };
  }

  /** Drops a new pile (replacing the actors) on the sandbox's terrain. */
  respawn(sandbox: World, pile: Partial<PileSpec> = {}): void {
    this.pile = { ...this.pile, ...pile, mix: { ...this.pile.mix, ...pile.mix } };
    this.world.clear();
    const terrain = sandbox.terrain;
    spawnPile(this.world, this.pile, (x, z) => sampleTerrainHeight(terrain, x, z));
  }

  terrainChanged(sandbox: World): void {
    this.world.setTerrain(null);
    this.respawn(sandbox);
  }

  bvhChanged(sandbox: World): void {
    this.world.setTerrain(sandbox.bvh);
  }

  step(dt: number, sandbox: World): void {
    const world = this.world;
    if (world.bvh !== sandbox.bvh) world.setTerrain(sandbox.bvh);
    if (world.bvh === null) return;
    const field = this.field;
    if (field !== null && this.wakeOnNewEffects) this.wakeWhereEffectsChanged(field);
    if (field !== null && this.windEnabled) {
      field.setTime(sandbox.time);
      world.applyWind(field, this.windFilter, dt);
    } else {
      world.counters.windSamples = 0;
      world.phaseMs.wind = 0;
    }
    world.step(dt);
    const timings = sandbox.timings;
    const phase = world.phaseMs;
    timings.record('actors.wind', phase.wind);
    timings.record('actors.broadPhase', phase.broadPhase);
    timings.record('actors.actorContacts', phase.actorContacts);
    timings.record('actors.terrainContacts', phase.terrainContacts);
    timings.record('actors.solve', phase.solve);
    timings.record('actors.integrate', phase.integrate);
  }

  private wakeWhereEffectsChanged(field: WindField): void {
    const seen = this.seenEffects;
    for (const effect of field.effects) {
      if (!effect.enabled) {
        seen.delete(effect.id);
        continue;
      }
      const bounds = effect.bounds;
      const last = seen.get(effect.id);
      if (last !== undefined && last.every((value, k) => value === bounds[k])) continue;
      this.wokenByEffects += this.world.wakeActors(bounds);
      if (last === undefined) seen.set(effect.id, bounds.slice());
      else last.set(bounds);
    }
    if (seen.size > field.effects.length) for (const id of seen.keys()) if (!field.effects.some((e) => e.id === id)) seen.delete(id);
  }

  metrics(): Record<string, MetricValue> {
    const world = this.world;
    const census = world.census();
    const c = world.counters;
    const p = world.phaseMs;
    return {
      actors: world.count,
      awake: census.awake,
      sleeping: census.sleeping,
      lost: census.lost,
      contacts: c.terrainContacts + c.actorContacts,
      terrainContacts: c.terrainContacts,
      actorContacts: c.actorContacts,
      pairs: c.pairs,
      windSamples: c.windSamples,
      substeps: c.substeps,
      wokenByContacts: c.actor.woken,
      wokenByEffects: this.wokenByEffects,
      windMs: round(p.wind),
      broadPhaseMs: round(p.broadPhase),
      actorContactsMs: round(p.actorContacts),
      terrainContactsMs: round(p.terrainContacts),
      solveMs: round(p.solve),
      integrateMs: round(p.integrate),
    };
  }

  saveState(): ActorWorldSnapshot {
    return this.world.saveState();
  }

  loadState(state: unknown): void {
    this.world.loadState(state as ActorWorldSnapshot);
  }
}
