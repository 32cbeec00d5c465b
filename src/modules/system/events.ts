/**
 * Provider rate-limit events (declared on the platform bus's event map), raised by the parking in
 * rate-limits/; the streams forward them to /ws/system as `{type, ...payload}`.
 */

export type ThrottleKind = 'rate_limited' | 'overloaded';

/** A provider was parked: the entry as `GET /api/system/rate-limits` lists it. */
export interface RateLimitHit {
  provider: string;
  kind: ThrottleKind;
  /** Slugs of the agents parked on it. */
  affected_agents: string[];
  hit_at: string;
  resume_at: string;
  retry_after_seconds: number | null;
  probe_failures: number;
}

export interface RateLimitLifted {
  provider: string;
  /** Slugs of the agents that were parked on it. */
  resumed_agents: string[];
  lifted_at: string;
}

declare module '../../platform/bus/types.js' {
  interface EventMap {
    /** A provider hit a rate limit or overload and was parked (/ws/system, amber banner). */
    RATE_LIMIT_HIT: RateLimitHit;
    /** A parked provider recovered; queued work resumes (/ws/system). */
    RATE_LIMIT_LIFTED: RateLimitLifted;
  }
}
