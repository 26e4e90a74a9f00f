import { ActorSystem } from '../actors/actorSystem';
import { ParticleSystem } from '../particles/particleSystem';
import { showcaseEffects } from '../particles/showcase';
import type { SceneDefinition } from '../scene/scene';
import { BroadPhaseSystem } from './broadPhaseSystem';
import type { Sandbox, SimSystem } from './sandbox';
import type { WindField } from './windField';

/**
 * Makes the systems a scene file asks for (its `systems` section), seeded from the scene: what the
 * headless runner steps and reports, and what the page turns on when it loads the scene. The wind
 * field, when there is one, blows the actors.
 */
export function createSceneSystems(scene: SceneDefinition, sandbox: Sandbox, wind: WindField | null = null): SimSystem[] {
  const systems: SimSystem[] = [];
  const { broadphase, particles, actors } = scene.systems;
  if (broadphase !== undefined) systems.push(new BroadPhaseSystem({ ...broadphase, seed: scene.seed }));
  if (particles !== undefined) {
    const { particles: count, budget, ...options } = particles;
    const effects = showcaseEffects(sandbox.terrain, {
      ...(count === undefined ? {} : { particles: count }),
      ...(budget === undefined ? {} : { budget }),
    });
    // Not rewindable: a snapshot of 100k particles and their caches per frame would cost too much.
    systems.push(new ParticleSystem(effects, { ...options, seed: scene.seed }, false));
  }
  if (actors !== undefined) systems.push(new ActorSystem(wind, { ...actors, seed: scene.seed }));
  return systems;
}
