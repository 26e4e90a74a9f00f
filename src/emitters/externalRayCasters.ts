import type { RayBatch, RayHits } from '../query/rays/rayTypes';

/**
 * Ray casters from outside the core that strategy B can name (`"b": { "external": "three-mesh-bvh" }`)
 * to race our walk in A/B mode. The core knows their names only: the page and the headless runner
 * register an implementation at start-up (src/adapters/three), so the core never imports one.
 */
export const EXTERNAL_RAY_CASTERS = ['three-mesh-bvh'] as const;
export type ExternalRayCasterName = (typeof EXTERNAL_RAY_CASTERS)[number];

/**
 * Another library's closest-hit ray cast over the terrain's triangles, with castRays' conventions:
 * origins and unit directions, each ray bounded by its tMax; a hit writes t and the triangle's index in
 * the indices given to prepare, a miss t = +∞ and triangle −1; one-sided (front faces, counter-clockwise
 * seen from outside), as castRays by default. Collision filters do not apply to it.
 */
export interface ExternalRayCaster {
  readonly name: ExternalRayCasterName;
  /** How it casts, on screen (its structure and call). */
  readonly description: string;
  /** Builds its structure over these triangles (3 indices each into xyz positions); called again after they change. */
  prepare(positions: Float32Array, indices: Uint32Array): void;
  cast(rays: RayBatch, hits: RayHits): void;
}

const factories = new Map<ExternalRayCasterName, () => ExternalRayCaster>();

/** Makes a caster available to scenes in this process; returns the call that withdraws it. */
export function registerExternalRayCaster(name: ExternalRayCasterName, create: () => ExternalRayCaster): () => void {
  factories.set(name, create);
  return () => {
    if (factories.get(name) === create) factories.delete(name);
  };
}

/** The names registered in this process, in EXTERNAL_RAY_CASTERS' order. */
export function registeredExternalRayCasters(): ExternalRayCasterName[] {
  return EXTERNAL_RAY_CASTERS.filter((name) => factories.has(name));
}

/** A new caster of that name, or null when none is registered in this process. */
export function createExternalRayCaster(name: ExternalRayCasterName): ExternalRayCaster | null {
  return factories.get(name)?.() ?? null;
}

/** Why strategy B's external caster cannot run here ('' when it can). */
export function externalRayCasterMissing(name: ExternalRayCasterName): string {
  if (factories.has(name)) return '';
  const others = registeredExternalRayCasters();
  return `${name} is not registered in this process (registered: ${others.length === 0 ? 'none' : others.join(', ')}); B skipped`;
}
