/**
 * Provider rate-limit events (declared on the platform bus's event map). Declared here, beside the
 * orchestrator's state, until the module that parks providers raises them; the streams forward
 * them to /ws/system.
 */

export interface RateLimitHit {
  provider: string;
  affected_agents: string[];
  retry_after_seconds: number | null;
}

export interface RateLimitLifted {
  provider: string;
  resumed_agents: string[];
}

declare module '../../platform/bus/types.js' {
  interface EventMap {
    /** A provider hit a rate limit or overload and was parked (/ws/system, amber banner). */
    RATE_LIMIT_HIT: RateLimitHit;
    /** A parked provider recovered; queued work resumes (/ws/system). */
    RATE_LIMIT_LIFTED: RateLimitLifted;
  }
}
