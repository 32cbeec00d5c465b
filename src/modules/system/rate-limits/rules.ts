/**
 * The parking rules, pure: how long a hit parks a provider, how a failed probe backs off, when the
 * CEO hears of it and when the parking gives up.
 */

/** The wait when a provider gave no Retry-After (the same conservative minute the HTTP layer answers). */
export const DEFAULT_WINDOW_SECONDS = 60;
/** Longest window a hit may ask for (a bad hint never parks a provider for days). */
export const MAX_WINDOW_SECONDS = 6 * 3600;
/** The probe loop's interval; also the first back-off step after a failed probe. */
export const PROBE_INTERVAL_SECONDS = 30;
/** Longest back-off between two probes. */
export const MAX_PROBE_BACKOFF_SECONDS = 600;
/** Failed probes in one episode after which the CEO is told (once). */
export const NOTIFY_CEO_AFTER_FAILURES = 10;
/** Failed probes after which the parking gives up and lifts the provider anyway. */
export const GIVE_UP_AFTER_FAILURES = 30;

/** When a hit at `now` with this Retry-After (seconds, or none) lets the provider be tried again. */
export function resumeAtFor(now: Date, retryAfterSeconds: number | null): Date {
  const wait = retryAfterSeconds ?? DEFAULT_WINDOW_SECONDS;
  return new Date(now.getTime() + Math.min(Math.max(0, wait), MAX_WINDOW_SECONDS) * 1000);
}

/**
 * The wait before the next probe after `failures` failed ones: doubling from the probe interval,
 * capped — or the provider's own Retry-After when it asks for longer.
 */
export function probeBackoffSeconds(failures: number, retryAfterSeconds: number | null = null): number {
  const doubling = PROBE_INTERVAL_SECONDS * 2 ** Math.max(0, failures - 1);
  const backoff = Math.min(doubling, MAX_PROBE_BACKOFF_SECONDS);
  return Math.min(Math.max(backoff, retryAfterSeconds ?? 0), MAX_WINDOW_SECONDS);
}

/** A Retry-After as the entry keeps it: whole non-negative seconds, or null. */
export function normaliseRetryAfter(seconds: number | null | undefined): number | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return null;
  return Math.min(Math.max(0, Math.ceil(seconds)), MAX_WINDOW_SECONDS);
}
