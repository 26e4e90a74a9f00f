export { Sandbox, type SimSystem, type SandboxReport, type SandboxState, type MetricValue } from './sandbox';
export { FrameRecorder, type PhaseSummary, type RecordedFrame, type RecordingInfo } from './recorder';
export { StateHistory } from './stateHistory';
