export { CapsuleProbe } from './capsuleProbe';
export { CapsuleSystem, type CharacterInput, type CharacterWork } from './capsuleSystem';
export {
  DEFAULT_CHARACTER,
  DEFAULT_CROWD,
  DEFAULT_PROBE,
  MAX_CROWD,
  parseCapsules,
  type CapsuleCharacterSection,
  type CapsuleCrowdSection,
  type CapsuleProbeSettings,
  type SceneCapsules,
} from './capsulesSection';
