import type { AppFeature } from './feature';
import { BroadPhaseFeature } from './features/broadphaseFeature';
import { BvhFeature } from './features/bvhFeature';
import { CrackFeature } from './features/crackFeature';
import { WindFeature } from './features/windFeature';
import { ActorsFeature } from './features/actorsFeature';
import { BoxProbeFeature } from './features/boxProbeFeature';
import { CapsuleFeature } from './features/capsuleFeature';
import { RayEmittersFeature } from './features/rayEmittersFeature';
import { ParticlesFeature } from './features/particlesFeature';
import { TerrainEditFeature } from './features/terrainEditFeature';

/** Every feature of the page, in install order (GUI folders appear in this order); the wind's explosion blasts craters through the terrain edits. */
export function createFeatures(): AppFeature[] {
  const terrainEdits = new TerrainEditFeature();
  return [
    terrainEdits,
    new BvhFeature(),
    new CrackFeature(),
    new WindFeature((at) => terrainEdits.blastAt(at)),
    new BroadPhaseFeature(),
    new ActorsFeature(),
    new BoxProbeFeature(),
    new CapsuleFeature(),
    new RayEmittersFeature(),
    new ParticlesFeature(),
  ];
}
