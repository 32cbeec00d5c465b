/**
 * Pure rules of the live connection: how long to wait before reconnect attempt N (capped
 * exponential backoff with jitter), and what state to show for a socket that is open or has
 * failed N times in a row.
 */

export interface BackoffOptions {
  /** Delay before the first retry. */
  baseMs: number;
  /** Longest delay between retries. */
  maxMs: number;
  factor: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1_000, maxMs: 30_000, factor: 2 };

/**
 * Delay before retry `attempt` (0 = the first retry): base × factor^attempt, capped at max, then
 * spread over [50 %, 100 %] by `random` (0..1) so many panels do not reconnect in lockstep.
 */
export function reconnectDelay(
  attempt: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random = Math.random(),
): number {
  const exponential = options.baseMs * options.factor ** Math.max(0, attempt);
  const capped = Math.min(options.maxMs, exponential);
  return Math.round(capped * (0.5 + 0.5 * Math.min(1, Math.max(0, random))));
}

export type ConnectionState = 'live' | 'reconnecting' | 'polling';

/** Failed attempts in a row after which views stop waiting for the socket and poll instead. */
export const POLL_AFTER_FAILURES = 2;

export function connectionState(open: boolean, failuresInARow: number): ConnectionState {
  if (open) return 'live';
  return failuresInARow < POLL_AFTER_FAILURES ? 'reconnecting' : 'polling';
}
