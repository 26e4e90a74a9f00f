export {
  ActorWorld,
  DEFAULT_ACTOR_WORLD_OPTIONS,
  ALL_GROUPS,
  resolveActorWorldOptions,
  type ActorWorldOptions,
  type ActorWorldSnapshot,
  type ActorPhaseTimes,
} from './actorWorld';
export { ActorSystem } from './actorSystem';
export { ActorBuffers, type ActorSnapshot } from './actorBuffers';
export { spawnPile, DEFAULT_PILE, type PileSpec } from './spawnPile';
export { applyWindToActors, WindBatch, type WindSampler, type WindSettings } from './actorWind';
export { TriangleBoxQuery } from './triangleBoxQuery';
export { findTerrainContacts, type TriangleSource, type TerrainContactCounters } from './terrainContacts';
export { findActorContacts, CONTACTS_PER_PAIR, type ActorContactCounters } from './actorContacts';
export { ContactBuffer, CONTACT_STRIDE, TERRAIN } from './contactBuffer';
export {
  SHAPE_SPHERE,
  SHAPE_BOX,
  SHAPE_CAPSULE,
  SHAPE_NAMES,
  DRAG_COEFFICIENTS,
  MAX_ACTOR_SIZE,
  boundingRadius,
  contactSpheres,
  dragCoefficientOf,
  massProperties,
  projectedArea,
  shapeVolume,
  type ActorShape,
  type ShapeName,
} from './shapes';
