export * from './broadPhase';
export { BruteForceBroadPhase } from './bruteForce';
export { SapBroadPhase } from './sapBroadPhase';
export { SweepAndPrune } from './sweepAndPrune';
export { PairManager, PairBuffer, StaleRule } from './pairManager';
export { BoxTable, MAX_FLOAT32 } from './boxTable';
export { floatKey, keyOfFloat, KEY_SENTINEL } from './floatKey';
export { BROAD_PHASE_NAMES, createBroadPhase, switchBroadPhase, type BroadPhaseName } from './createBroadPhase';
