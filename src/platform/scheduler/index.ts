/** The scheduler's outside face: interval loops for background work (see scheduler.ts). */
export { registerSchedulerMetrics } from './metrics.js';
export { createScheduler, type SchedulerLog, type SchedulerOptions } from './scheduler.js';
export type { Hold, LoopDefinition, LoopStatus, PassOutcome, Scheduler } from './types.js';
