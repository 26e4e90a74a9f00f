import { parseActors, type SceneActors } from './actors/actorsSection';
import { ActorSystem } from './actors/actorSystem';
import { parseBoxProbe, type SceneBoxProbe } from './boxProbe/boxProbeSection';
import { BoxProbeSystem } from './boxProbe/boxProbeSystem';
import { parseBroadPhase, type SceneBroadPhase } from './broadphase/broadPhaseSection';
import { BroadPhaseSystem } from './broadphase/broadPhaseSystem';
import { parseCapsules, type SceneCapsules } from './capsules/capsulesSection';
import { CapsuleSystem } from './capsules/capsuleSystem';
import { parseCracks, type SceneCracks } from './cracks/cracksSection';
import { CrackSystem } from './cracks/crackSystem';
import { parseRayEmitters, type SceneRayEmitters } from './emitters/rayEmittersSection';
import { RayEmitterSystem } from './emitters/rayEmitterSystem';
import { ColliderscopeError } from './errors';
import { parseWind, type SceneWind } from './wind/windSection';
import { WindSystem } from './wind/windSystem';
import { parseParticles, type SceneParticles } from './particles/particlesSection';
import { ParticleSystem } from './particles/particleSystem';
import { showcaseEffects } from './particles/showcase';
import {
  parseScene as parseOuterScene,
  parseSceneText as parseOuterSceneText,
  sceneToJson,
  type SceneCamera,
  type SceneDefinition,
  type SectionParser,
} from './scene/scene';
import type { Where } from './scene/validate';
import type { Sandbox } from './sim/sandbox';
import type { SimSystem, SystemContext } from './world/simSystem';

/**
 * One entry of the catalog: a system's name (its scene section and phase prefix), what it is called on
 * screen, how its section is validated (owned by the system's folder) and how it is made from one.
 */
export interface SystemSpec<Section extends object = object> {
  readonly name: string;
  readonly title: string;
  parse(value: unknown, where: Where): Section;
  create(section: Section, context: SystemContext): SimSystem;
  /**
   * Set when the system reads the generated heightfield's grid itself, not only the BVH and the heights
   * it places things on: why. Such a system is refused on a mesh terrain (the scene's `terrain.mesh`).
   */
  readonly needsHeightfield?: string;
}

function defineSystem<Section extends object>(spec: SystemSpec<Section>): SystemSpec {
  return spec;
}

/**
 * Every system, in step order: the wind blows first so the systems after it feel it; the probes look
 * at the world after it moved. The page, the headless runner and the tests all make systems here.
 */
export const SYSTEMS: readonly SystemSpec[] = [
  defineSystem<SceneWind>({
    name: 'wind',
    title: 'Wind',
    parse: parseWind,
    create: (section, context) => new WindSystem(section, context),
  }),
  defineSystem<SceneBroadPhase>({
    name: 'broadphase',
    title: 'Broad-phase',
    parse: parseBroadPhase,
    create: (section, { world }) => new BroadPhaseSystem({ ...section, seed: world.seed }),
  }),
  defineSystem<SceneActors>({
    name: 'actors',
    title: 'Actors',
    parse: parseActors,
    create: ({ restitution, friction, wind, filter, ...pile }, { world }) => {
      const system = new ActorSystem(
        null,
        { ...pile, seed: world.seed },
        {
          ...(restitution === undefined ? {} : { restitution }),
          ...(friction === undefined ? {} : { friction }),
          ...(filter === undefined ? {} : { terrainFilter: filter }),
        },
      );
      system.windEnabled = wind ?? true;
      return system;
    },
  }),
  defineSystem<SceneParticles>({
    name: 'particles',
    title: 'Particles',
    needsHeightfield: 'its fall-through check reads the height grid as the one surface, and a mesh may have ground above ground',
    parse: parseParticles,
    create: (section, { world }) => {
      const { particles, budget, effects, ...options } = section;
      const showcase = { ...(particles === undefined ? {} : { particles }), ...(budget === undefined ? {} : { budget }) };
      // Not rewindable: a snapshot of 100k particles and their caches per frame would cost too much.
      const system = new ParticleSystem(effects ?? showcaseEffects(world.terrain, showcase), { ...options, seed: world.seed }, false);
      system.showcase = showcase;
      return system;
    },
  }),
  defineSystem<SceneCapsules>({
    name: 'capsules',
    title: 'Capsule sweeps',
    parse: parseCapsules,
    create: (section, { world }) => new CapsuleSystem(section, world),
  }),
  defineSystem<SceneBoxProbe>({
    name: 'boxProbe',
    title: 'Box probe',
    parse: parseBoxProbe,
    create: (section) => new BoxProbeSystem(section),
  }),
  defineSystem<SceneRayEmitters>({
    name: 'rayEmitters',
    title: 'Ray emitters',
    parse: parseRayEmitters,
    create: (section) => new RayEmitterSystem(section),
  }),
  defineSystem<SceneCracks>({
    name: 'cracks',
    title: 'Crack explorer',
    needsHeightfield: "it aims its rays at the grid's shared edges and corners",
    parse: parseCracks,
    create: (section) => new CrackSystem(section),
  }),
];

export const SYSTEM_NAMES: readonly string[] = SYSTEMS.map((spec) => spec.name);

const SECTION_PARSERS: ReadonlyMap<string, SectionParser> = new Map(
  SYSTEMS.map((spec) => [spec.name, (value: unknown, where: Where) => spec.parse(value, where)]),
);

export function systemSpec(name: string): SystemSpec {
  const spec = SYSTEMS.find((s) => s.name === name);
  if (spec === undefined) throw new ColliderscopeError(`no system called ${JSON.stringify(name)}; the systems are ${SYSTEM_NAMES.join(', ')}`);
  return spec;
}

/** Validates a parsed scene object, every system section by its own system. */
export function parseScene(value: unknown, file = 'scene'): SceneDefinition {
  return checkMeshTerrainSystems(parseOuterScene(value, file, SECTION_PARSERS), file);
}

/** Parses scene JSON text (syntax errors with line and column), every system section by its own system. */
export function parseSceneText(text: string, file = 'scene'): SceneDefinition {
  return checkMeshTerrainSystems(parseOuterSceneText(text, file, SECTION_PARSERS), file);
}

/** Why a system cannot run on this world's terrain, or null when it can. */
export function heightfieldRefusal(spec: SystemSpec, meshFile: string | undefined): string | null {
  if (meshFile === undefined || spec.needsHeightfield === undefined) return null;
  return `the ${spec.title.toLowerCase()} system needs a generated heightfield terrain (${spec.needsHeightfield}); this world's terrain is the mesh ${JSON.stringify(meshFile)}`;
}

/** A scene whose terrain is a mesh may not name a system that needs the heightfield. */
function checkMeshTerrainSystems(scene: SceneDefinition, file: string): SceneDefinition {
  for (const spec of SYSTEMS) {
    if (scene.systems[spec.name] === undefined) continue;
    const refusal = heightfieldRefusal(spec, scene.terrainMesh?.file);
    if (refusal !== null) throw new ColliderscopeError(refusal, { file, field: `systems.${spec.name}` });
  }
  return scene;
}

/**
 * Makes a system from a section, validating it first exactly as a scene file is validated, so settings
 * from the GUI or a library call fail with the same messages; nothing changes when it throws.
 */
export function createSystem(name: string, section: unknown, context: SystemContext): SimSystem {
  const spec = systemSpec(name);
  const refusal = heightfieldRefusal(spec, context.world.terrain.source);
  if (refusal !== null) throw new ColliderscopeError(refusal, { file: 'settings', field: `systems.${name}` });
  return spec.create(spec.parse(section, { file: 'settings', field: `systems.${name}` }), context);
}

/** Turns a system on with these settings (replacing it if it runs), at its place in the step order. */
export function enableSystem(sandbox: Sandbox, name: string, section: unknown, context: SystemContext): SimSystem {
  const system = createSystem(name, section, context);
  disableSystem(sandbox, name);
  const order = SYSTEM_NAMES.indexOf(name);
  let index = 0;
  while (index < sandbox.systems.length && SYSTEM_NAMES.indexOf(sandbox.systems[index]!.name) < order) index++;
  sandbox.addSystem(system, index);
  return system;
}

export function disableSystem(sandbox: Sandbox, name: string): void {
  const running = sandbox.system(name);
  if (running !== undefined) sandbox.removeSystem(running);
}

/**
 * Runs exactly the systems a scene names, each from its section, in catalog order (every system is
 * made before any is installed, so a section that fails leaves the running ones as they were), and
 * gives the terrain the scene's edit timeline.
 */
export function installSceneSystems(sandbox: Sandbox, scene: SceneDefinition, context: SystemContext): void {
  for (const spec of SYSTEMS) {
    const refusal = scene.systems[spec.name] === undefined ? null : heightfieldRefusal(spec, sandbox.terrain.source);
    if (refusal !== null) throw new ColliderscopeError(refusal, { file: scene.name, field: `systems.${spec.name}` });
  }
  const made = SYSTEMS.filter((spec) => scene.systems[spec.name] !== undefined).map((spec) => spec.create(scene.systems[spec.name]!, context));
  sandbox.setTerrainEdits(scene.terrainEdits);
  for (const system of [...sandbox.systems]) sandbox.removeSystem(system);
  for (const system of made) sandbox.addSystem(system);
}

/** The scene file that reproduces what runs now: the terrain, the camera and every running system's settings. */
export function currentScene(
  sandbox: Sandbox,
  camera: SceneCamera,
  name = sandbox.scene.name,
  description = sandbox.scene.description,
): Record<string, unknown> {
  const systems: Record<string, object> = {};
  for (const system of sandbox.systems) systems[system.name] = system.section();
  const terrainEdits = sandbox.terrainEdits.edits.map((edit) => ({ ...edit }));
  return sceneToJson({ ...sandbox.scene, name, description, terrain: { ...sandbox.terrain.params }, terrainEdits, camera, systems });
}
