export { sweepCapsules, DEFAULT_SWEEP_OPTIONS, edgeMasksFor } from './sweepCapsules';
export { sweepCapsulesBruteForce } from './bruteForce';
export { computeEdgeMasks, EDGE_MASK_ALL, type EdgeMaskStats } from './edgeMasks';
export { segmentTriangleClosest } from './segmentTriangle';
export { PAIRS_PER_TRIANGLE, SPHERE0_SHIFT, SPHERE1_SHIFT, CYLINDER_SHIFT, VERTEX_BITS, EDGE_BITS, FACE_BIT, popCount } from './featureBits';
export {
  createCapsuleBatch,
  createCapsuleHits,
  createCapsuleTrace,
  createSweepCounters,
  type CapsuleBatch,
  type CapsuleHits,
  type CapsuleSweeper,
  type CapsuleTrace,
  type SweepCounters,
  type SweepOptions,
} from './capsuleTypes';
export { CapsuleCharacter, DEFAULT_CHARACTER_SETTINGS, type CharacterSettings } from './characterController';
export { CapsuleCrowd, DEFAULT_CROWD_SETTINGS, type CrowdSettings, type CrowdState } from './capsuleCrowd';
