export { WindField, type PlacedEffect } from './windField';
export { WindTracers } from './windTracers';
export { WindSystem, DEFAULT_TRACERS, EXPLOSION_SECONDS, defaultWindEffects, fieldBackend } from './windSystem';
export { FIELD_COMPILERS, MAX_TRACERS, type FieldCompiler, type SceneWind, type SceneWindEffect } from './windSection';
