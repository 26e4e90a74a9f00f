export { Sandbox, type SimSystem, type SandboxReport, type MetricValue } from './sandbox';
export { TimingRing, summarize, type PhaseStats, type PhaseSeries } from './timings';
