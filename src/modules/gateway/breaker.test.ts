/**
 * The breaker without its store: on a Redis cache that cannot be reached (a real ioredis client,
 * nothing listening) it fails open — checks pass, nothing is counted, no call throws — and the
 * outage is logged once, not once per call. (Recovery on a real Redis: test/store-outage.test.ts.)
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedisCache, type RedisCache } from '../../platform/cache/redis.js';
import { fakeClock } from '../../platform/clock.js';
import { CircuitBreaker } from './breaker.js';
import type { RejectionBody } from './envelope.js';

let cache: RedisCache;

beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  cache = await openRedisCache({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 300 });
});
afterAll(() => cache.close());

const rejection: RejectionBody = {
  error: 'invalid_state',
  message: 'i_am_done is not valid on a task in pending',
  remediate: 'Claim it first.',
  reason: 'invalid_state',
};

describe('the gateway breaker while Redis is unreachable', () => {
  it('fails open and warns once for the whole outage', async () => {
    const warnings: string[] = [];
    const breaker = new CircuitBreaker(cache, fakeClock(new Date('2026-03-02T09:00:00Z')), {
      warn: (_data, message) => warnings.push(message),
      info() {},
    });
    const key = { agentId: 'be-dev-1', verb: 'i_am_done', taskId: 'c0ffee00-0000-4000-8000-000000000000' };
    for (let i = 0; i < 5; i++) {
      expect(await breaker.check(key)).toBeNull();
      expect(await breaker.recordFailure(key, rejection)).toBeNull();
    }
    await breaker.startRun('be-dev-1');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/circuit breaker.*failing open.*unreachable/);
  });
});
