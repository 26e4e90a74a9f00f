import type { StateHasher } from '../math/hash';
import type { MetricValue, SimSystem, WindSampler, World } from '../world/simSystem';
import type { SceneActors } from './actorsSection';
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
  /** A wind of its own; null blows the world's wind (none: still air). */
  field: WindSampler | null;
  windEnabled = true;
  /** Collision-filter bits the wind applies to. */
  windFilter = ALL_GROUPS;
  /** Wake sleepers where a wind effect appears or moves (see the class comment). */
  wakeOnNewEffects = true;
  pile: PileSpec;
  /** Reach boxes of the enabled effects as last seen, by effect id. */
  private readonly seenEffects = new Map<number, Float64Array>();
  private wokenByEffects = 0;

  constructor(field: WindSampler | null = null, pile: Partial<PileSpec> = {}, options: Partial<ActorWorldOptions> = {}) {
    this.field = field;
    this.world = new ActorWorld(options);
    this.pile = { ...DEFAULT_PILE, ...pile, mix: { ...DEFAULT_PILE.mix, ...pile.mix } };
  }

  /** Drops a new pile (replacing the actors) on the sandbox's terrain. */
  respawn(world: World, pile: Partial<PileSpec> = {}): void {
    this.pile = { ...this.pile, ...pile, mix: { ...this.pile.mix, ...pile.mix } };
    this.world.clear();
    const terrain = world.terrain;
    spawnPile(this.world, this.pile, (x, z) => sampleTerrainHeight(terrain, x, z));
  }

  terrainChanged(world: World): void {
    this.world.setTerrain(null);
    this.respawn(world);
  }

  bvhChanged(world: World): void {
    this.world.setTerrain(world.bvh);
  }

  /** The ground moved under some bodies: those asleep there wake, so they fall into a crater or rise with a bump. */
  terrainDeformed(_world: World, area: Float64Array): void {
    this.world.terrainEdited(area);
    this.world.wakeActors([area[0]!, -Infinity, area[1]!, area[2]!, Infinity, area[3]!]);
  }

  step(dt: number, world: World): void {
    const actors = this.world;
    if (actors.bvh !== world.bvh) actors.setTerrain(world.bvh);
    if (actors.bvh === null) return;
    const field = this.field ?? world.wind;
    if (field !== null && this.wakeOnNewEffects) this.wakeWhereEffectsChanged(field);
    if (field !== null && this.windEnabled) {
      field.setTime(world.time);
      actors.applyWind(field, this.windFilter, dt);
    } else {
      actors.counters.windSamples = 0;
      actors.phaseMs.wind = 0;
    }
    actors.step(dt);
    const timings = world.timings;
    const phase = actors.phaseMs;
    timings.record('actors.wind', phase.wind);
    timings.record('actors.broadPhase', phase.broadPhase);
    timings.record('actors.actorContacts', phase.actorContacts);
    timings.record('actors.terrainContacts', phase.terrainContacts);
    timings.record('actors.solve', phase.solve);
    timings.record('actors.integrate', phase.integrate);
  }

  private wakeWhereEffectsChanged(field: WindSampler): void {
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
    const terrain = world.terrainQueryCounters();
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
      warmStarted: c.warmStarted,
      wokenByContacts: c.actor.woken,
      wokenByEffects: this.wokenByEffects,
      windMs: round(p.wind),
      broadPhaseMs: round(p.broadPhase),
      actorContactsMs: round(p.actorContacts),
      terrainContactsMs: round(p.terrainContacts),
      solveMs: round(p.solve),
      integrateMs: round(p.integrate),
      terrainFilter: world.options.terrainFilter,
      terrainNodesVisited: terrain?.nodesVisited ?? 0,
      terrainTrianglesTested: terrain?.trianglesTested ?? 0,
      terrainSubtreesMasked: terrain?.subtreesMasked ?? 0,
      terrainTrianglesMasked: terrain?.trianglesMasked ?? 0,
    };
  }

  hash(hasher: StateHasher): void {
    hasher.value(this.saveState());
  }

  section(): SceneActors {
    const { count, center, size, density, mix } = this.pile;
    const { restitution, friction, terrainFilter } = this.world.options;
    return {
      count,
      center: [center[0], center[1]],
      size,
      density,
      mix: { ...mix },
      restitution,
      friction,
      wind: this.windEnabled,
      filter: terrainFilter,
    };
  }

  saveState(): ActorWorldSnapshot {
    return this.world.saveState();
  }

  loadState(state: unknown): void {
    this.world.loadState(state as ActorWorldSnapshot);
  }
}
