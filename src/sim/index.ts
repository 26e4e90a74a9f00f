export { Sandbox, type SandboxReport, type SandboxState } from './sandbox';
export type { MetricValue, SimSystem, World } from './simSystem';
export { TimingRing, summarize, type PhaseStats, type PhaseSeries } from './timings';
export { WindField, type PlacedEffect } from './windField';
export { WindTracers } from './windTracers';
export { FrameRecorder, type PhaseSummary, type RecordedFrame, type RecordingInfo } from './recorder';
export { StateHistory } from './stateHistory';
export {
  BroadPhaseSystem,
  BROAD_PHASE_SCENES,
  DEFAULT_BROAD_PHASE_SETTINGS,
  type BroadPhaseSettings,
  type BroadPhaseSceneName,
} from './broadPhaseSystem';
export { createSceneSystems } from './sceneSystems';
