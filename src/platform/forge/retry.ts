/**
 * The one retry policy of every forge provider: a request that met a 429, a rate-limited 403, a
 * 5xx or a network error is tried again, up to `attempts` times in all, after an exponential
 * backoff from `baseDelayMs` — or after exactly what the server advised (`Retry-After`, or
 * `x-ratelimit-reset` with `x-ratelimit-remaining: 0`) when that is within `maxWaitMs`. When the
 * attempts run out, or the server asks for a longer wait than the cap, the call fails with
 * ForgeError `rate_limited` (`details.retryAfterSeconds`) or `unavailable`. An abort stops any wait
 * at once and rethrows the signal's reason.
 */
import { retryAfterMs } from '../retry-after.js';
import { ForgeError } from './types.js';

export interface RetryOptions {
  /** Tries in all, the first included (default 3). */
  attempts?: number;
  /** Backoff before try n+1 is baseDelayMs × 2^(n-1) (default 500 ms). */
  baseDelayMs?: number;
  /** The longest server-advised wait honoured; a longer one fails at once (default 60 s). */
  maxWaitMs?: number;
}

/** What a failed request looked like, as far as retrying is concerned. */
export type TransportFailure =
  | { kind: 'network'; message: string }
  | { kind: 'http'; status: number; headers: Record<string, string | undefined>; message: string };

export type RetryVerdict =
  | { retry: false }
  | { retry: true; rateLimited: boolean; advisedWaitMs: number | null };

export const DEFAULT_RETRY: Required<RetryOptions> = { attempts: 3, baseDelayMs: 500, maxWaitMs: 60_000 };

/** Whether a failure is worth another try, and the wait the server advised (pure). */
export function retryVerdict(failure: TransportFailure, nowMs: number): RetryVerdict {
  if (failure.kind === 'network') return { retry: true, rateLimited: false, advisedWaitMs: null };
  const { status, headers } = failure;
  const advised = advisedWaitMs(headers, nowMs);
  if (status === 429) return { retry: true, rateLimited: true, advisedWaitMs: advised };
  if (status === 403 && (headers['x-ratelimit-remaining'] === '0' || headers['retry-after'] !== undefined)) {
    return { retry: true, rateLimited: true, advisedWaitMs: advised };
  }
  if (status >= 500 && status <= 599) return { retry: true, rateLimited: false, advisedWaitMs: advised };
  return { retry: false };
}

/** `Retry-After` (seconds or an HTTP date), else `x-ratelimit-reset` when the quota is spent; ms from now. */
export function advisedWaitMs(headers: Record<string, string | undefined>, nowMs: number): number | null {
  const retryAfter = retryAfterMs(headers['retry-after'], nowMs);
  if (retryAfter !== undefined) return Math.round(retryAfter);
  const reset = headers['x-ratelimit-reset']?.trim();
  if (reset && headers['x-ratelimit-remaining'] === '0' && /^\d+$/.test(reset)) {
    return Math.max(0, Number(reset) * 1000 - nowMs);
  }
  return null;
}

/**
 * Runs `request` with the retry policy. `classify` says what a thrown error was: a transport
 * failure (possibly retried), or null for anything else, which is rethrown unchanged for the
 * provider to map (404, 422…). A retryable failure on the last try becomes a ForgeError.
 */
export async function withRetries<T>(
  request: () => Promise<T>,
  classify: (error: unknown) => TransportFailure | null,
  options: RetryOptions = {},
  signal?: AbortSignal,
): Promise<T> {
  const { attempts, baseDelayMs, maxWaitMs } = { ...DEFAULT_RETRY, ...options };
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    try {
      return await request();
    } catch (error) {
      signal?.throwIfAborted();
      const failure = classify(error);
      if (!failure) throw error;
      const verdict = retryVerdict(failure, Date.now());
      if (!verdict.retry) throw error;
      const tooLong = verdict.advisedWaitMs !== null && verdict.advisedWaitMs > maxWaitMs;
      if (attempt >= Math.max(1, attempts) || tooLong) throw exhausted(failure, verdict, attempt);
      await sleep(verdict.advisedWaitMs ?? baseDelayMs * 2 ** (attempt - 1), signal);
    }
  }
}

function exhausted(
  failure: TransportFailure,
  verdict: Extract<RetryVerdict, { retry: true }>,
  attempts: number,
): ForgeError {
  const status = failure.kind === 'http' ? failure.status : null;
  if (verdict.rateLimited) {
    const retryAfterSeconds = Math.max(1, Math.ceil((verdict.advisedWaitMs ?? 60_000) / 1000));
    return new ForgeError('rate_limited', `the forge rate limit is exhausted: ${failure.message}`, {
      status,
      attempts,
      retryAfterSeconds,
    });
  }
  return new ForgeError('unavailable', `the forge did not answer: ${failure.message}`, { status, attempts });
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
