/** The events of the usage ledger (declared on the platform bus's event map). */
import type { UsageSummary } from './analytics.js';

/** A fresh token-usage and cost snapshot: the 24h summary of GET /api/usage/summary, and when it was taken. */
export interface UsageSnapshot extends UsageSummary {
  at: string;
}

declare module '../../platform/bus/types.js' {
  interface EventMap {
    /** A fresh token-usage and cost snapshot (/ws/system): after usage is recorded (at most one a second) and every minute. */
    USAGE_SNAPSHOT: UsageSnapshot;
  }
}
