export { CrackSystem, type CrackTestResult } from './crackSystem';
export {
  CRACK_PRECISIONS,
  DEFAULT_CRACKS,
  MAX_CRACK_RAYS,
  parseCracks,
  type CrackPrecision,
  type CrackSettings,
  type SceneCracks,
} from './cracksSection';
