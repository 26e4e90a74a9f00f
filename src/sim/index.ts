export { Sandbox, type SimSystem, type SandboxReport, type MetricValue } from './sandbox';
export { TimingRing, summarize, type PhaseStats, type PhaseSeries } from './timings';
export { WindField, type PlacedEffect } from './windField';
export { WindTracers } from './windTracers';
