export type { MetricValue, SimSystem, SystemContext, WindSampler, World } from './simSystem';
export { TimingRing, summarize, type PhaseStats, type PhaseSeries } from './timings';
