/**
 * The shared retry policy: which failures are retried, how long it waits (backoff, Retry-After,
 * x-ratelimit-reset, the cap), what an exhausted retry raises, and that an abort ends a wait at once.
 */
import { describe, expect, it } from 'vitest';
import { advisedWaitMs, retryVerdict, type TransportFailure, withRetries } from './retry.js';
import { ForgeError } from './types.js';

const http = (status: number, headers: Record<string, string> = {}): TransportFailure => ({
  kind: 'http',
  status,
  headers,
  message: `HTTP ${status}`,
});

class Answer extends Error {
  constructor(readonly failure: TransportFailure) {
    super(failure.message);
  }
}
const classify = (error: unknown) => (error instanceof Answer ? error.failure : null);

/** A request that fails with the given failures in turn, then answers 'ok'; it records when it ran. */
function script(...failures: TransportFailure[]) {
  const calls: number[] = [];
  return {
    calls,
    request: async () => {
      calls.push(Date.now());
      const next = failures.shift();
      if (next) throw new Answer(next);
      return 'ok';
    },
  };
}

describe('retryVerdict and advisedWaitMs', () => {
  it('retries 429, rate-limited 403, 5xx and network errors; nothing else', () => {
    const now = Date.now();
    expect(retryVerdict(http(429), now)).toMatchObject({ retry: true, rateLimited: true });
    expect(retryVerdict(http(403, { 'x-ratelimit-remaining': '0' }), now)).toMatchObject({
      retry: true,
      rateLimited: true,
    });
    expect(retryVerdict(http(403, { 'retry-after': '3' }), now)).toMatchObject({
      retry: true,
      rateLimited: true,
    });
    expect(retryVerdict(http(503), now)).toMatchObject({ retry: true, rateLimited: false });
    expect(retryVerdict({ kind: 'network', message: 'ECONNRESET' }, now)).toMatchObject({ retry: true });
    for (const status of [400, 401, 403, 404, 409, 422])
      expect(retryVerdict(http(status), now).retry).toBe(false);
  });

  it('reads Retry-After as seconds or a date, else the rate-limit reset when the quota is spent', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(advisedWaitMs({ 'retry-after': '2' }, now)).toBe(2000);
    expect(advisedWaitMs({ 'retry-after': 'Tue, 01 Jan 2030 00:00:05 GMT' }, now)).toBe(5000);
    expect(
      advisedWaitMs({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 7) }, now),
    ).toBe(7000);
    expect(
      advisedWaitMs({ 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': String(now / 1000 + 7) }, now),
    ).toBe(null);
    expect(advisedWaitMs({}, now)).toBeNull();
  });
});

describe('withRetries', () => {
  it('answers after a transient failure, backing off exponentially from the base delay', async () => {
    const { calls, request } = script(http(500), { kind: 'network', message: 'socket hang up' });
    expect(await withRetries(request, classify, { attempts: 3, baseDelayMs: 40 })).toBe('ok');
    expect(calls).toHaveLength(3);
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(35);
    expect(calls[2]! - calls[1]!).toBeGreaterThanOrEqual(75);
  });

  it('waits what Retry-After says instead of the backoff', async () => {
    const { calls, request } = script(http(429, { 'retry-after': '0.3' }));
    expect(await withRetries(request, classify, { baseDelayMs: 1 })).toBe('ok');
    expect(calls[1]! - calls[0]!).toBeGreaterThanOrEqual(280);
  });

  it('raises rate_limited with retryAfterSeconds when the rate limit outlasts the attempts', async () => {
    const { calls, request } = script(
      http(429, { 'retry-after': '0' }),
      http(429),
      http(429, { 'retry-after': '4' }),
    );
    const error = await withRetries(request, classify, { attempts: 3, baseDelayMs: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(ForgeError);
    expect(error).toMatchObject({
      code: 'rate_limited',
      details: { retryAfterSeconds: 4, status: 429, attempts: 3 },
    });
    expect(calls).toHaveLength(3);
  });

  it('gives up at once when the server asks for a wait beyond the cap', async () => {
    const reset = String(Math.ceil(Date.now() / 1000) + 3600);
    const { calls, request } = script(
      http(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }),
    );
    const error = await withRetries(request, classify, { maxWaitMs: 1000 }).catch((e) => e);
    expect(error).toMatchObject({ code: 'rate_limited' });
    expect(error.details.retryAfterSeconds).toBeGreaterThan(3500);
    expect(calls).toHaveLength(1);
  });

  it('raises unavailable when server errors outlast the attempts', async () => {
    const { calls, request } = script(http(502), http(503), http(500), http(500));
    const error = await withRetries(request, classify, { attempts: 2, baseDelayMs: 1 }).catch((e) => e);
    expect(error).toMatchObject({ code: 'unavailable', details: { status: 503, attempts: 2 } });
    expect(calls).toHaveLength(2);
  });

  it('rethrows an answer that is not retryable unchanged, without retrying', async () => {
    const { calls, request } = script(http(404));
    const error = await withRetries(request, classify, { baseDelayMs: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(Answer);
    expect(calls).toHaveLength(1);
  });

  it('stops waiting as soon as the signal aborts', async () => {
    const { calls, request } = script(http(500));
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('sweep cancelled')), 30);
    const error = await withRetries(request, classify, { baseDelayMs: 10_000 }, controller.signal).catch(
      (e) => e,
    );
    expect(error).toEqual(new Error('sweep cancelled'));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(calls).toHaveLength(1);
  });
});
