/**
 * Where the parking lives: a domain route whose model call the provider throttles answers 429 with
 * Retry-After and parks the provider; the parking is a database row, so it survives a restart; and
 * on PostgreSQL + Redis two replicas share it — a hit on one reaches a /ws/system socket on the
 * other, and the other's probe lifts it.
 */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { rosterMember } from '../src/modules/agents/index.js';
import { gatewayRouteOf } from '../src/modules/lifecycle/index.js';
import { RATE_LIMIT_PROBE_LOOP } from '../src/modules/system/index.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { createModelClient } from '../src/platform/llm/index.js';
import { insertTask } from './fixtures-task-rows.js';
import { startTestApp, type TestApp } from './support/app.js';
import { startFakeLlm } from './support/fake-llm/index.js';
import { createTestStores, testDatabaseUrl, testRedisUrl } from './support/stores.js';
import { listen, openStream } from './support/ws-client.js';

const entriesOf = async (t: Pick<TestApp, 'app' | 'ceoHeaders'>) =>
  (await t.app.inject({ url: '/api/system/rate-limits', headers: t.ceoHeaders })).json().entries as Record<
    string,
    unknown
  >[];

/** be-dev-1 reports its provider's rate limit through the gateway. */
async function reportRateLimit(t: TestApp, retryAfterSeconds: number) {
  const agent = rosterMember('be-dev-1');
  const task = await insertTask(t.platform.database.db, {
    status: 'in_progress',
    assignedTo: agent.id,
    activeClaimantId: agent.id,
  });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/v1/flow/${gatewayRouteOf(agent.role)}/i_am_blocked`,
    headers: t.headersFor(agent.id, agent.role, agent.team ?? ''),
    payload: {
      task_id: task.id,
      reason: 'the model provider answers 429 Too Many Requests',
      blocker_type: 'external',
      what_needed: 'the provider to take requests again',
      reason_kind: 'rate_limited',
      retry_after_seconds: retryAfterSeconds,
    },
  });
  expect(response.json()).toMatchObject({ status: 'rate_limited' });
}

describe('a throttled model call inside a domain route', () => {
  it('answers 429 with Retry-After and parks the provider', async () => {
    const fake = await startFakeLlm();
    const stores = await createTestStores();
    const platform = await stores.platform();
    const gaffer = await buildApp(platform, { logger: false });
    // A domain route that calls a model (the adapters' typed error passes through untouched).
    gaffer.app.post('/api/test-summarise', async () => {
      const client = createModelClient({
        kind: 'anthropic',
        name: 'summariser',
        baseUrl: fake.url,
        apiKey: 'test-key',
        model: 'fake-small',
      });
      return client.complete({ messages: [{ role: 'user', content: 'summarise' }] });
    });
    await gaffer.app.ready();
    const ceo = {
      app: gaffer.app,
      ceoHeaders: { 'x-agent-token': staticToken(platform.secret, CEO_IDENTITY) },
    };
    const summarise = () =>
      gaffer.app.inject({ method: 'POST', url: '/api/test-summarise', headers: ceo.ceoHeaders });
    try {
      fake.script({ kind: 'rate_limited', retryAfter: '45' }, { kind: 'overloaded' });
      const limited = await summarise();
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBe('45');
      expect(limited.json().error).toMatchObject({
        code: 'rate_limit_exceeded',
        details: { provider: 'summariser', retry_after_seconds: 45 },
      });
      expect(await entriesOf(ceo)).toMatchObject([
        { provider: 'summariser', kind: 'rate_limited', retry_after_seconds: 45, probe_failures: 0 },
      ]);

      const overloaded = await summarise();
      expect(overloaded.statusCode).toBe(429);
      expect(overloaded.headers['retry-after']).toBe('60');
      // A second hit of the same episode merges: still one entry, its first kind kept.
      expect(await entriesOf(ceo)).toMatchObject([{ provider: 'summariser', kind: 'rate_limited' }]);
    } finally {
      await gaffer.app.close();
      await platform.close();
      await stores.dispose();
      await fake.close();
    }
  }, 30_000);
});

describe('across a restart', () => {
  it('keeps a parked provider', async () => {
    const stores = await createTestStores();
    const before = await startTestApp({ stores });
    await reportRateLimit(before, 900);
    const parked = await entriesOf(before);
    expect(parked).toMatchObject([
      { provider: 'claude', affected_agents: ['be-dev-1'], retry_after_seconds: 900 },
    ]);
    await before.close();
    const after = await startTestApp({ stores });
    try {
      expect(await entriesOf(after)).toEqual(parked);
    } finally {
      await after.close();
      await stores.dispose();
    }
  }, 60_000);
});

describe.skipIf(!testRedisUrl || !testDatabaseUrl)('across replicas (PostgreSQL + Redis)', () => {
  it('shares the parking: a hit on one reaches the other, whose probe lifts it', async () => {
    const stores = await createTestStores();
    const one = await startTestApp({ stores });
    const two = await startTestApp({ stores });
    try {
      const outcome = await openStream(`${await listen(two)}/ws/system`);
      if (outcome.kind !== 'open') throw new Error('refused');
      const onTwo = outcome.client;
      const next = async (type: string) => {
        for (;;) {
          const frame = (await onTwo.next(10_000)) as Record<string, unknown>;
          if (frame.type === type) return frame;
        }
      };
      await reportRateLimit(one, 0);
      expect(await next('RATE_LIMIT_HIT')).toMatchObject({
        provider: 'claude',
        affected_agents: ['be-dev-1'],
      });
      expect(await entriesOf(two)).toMatchObject([{ provider: 'claude', retry_after_seconds: 0 }]);
      expect((await two.scheduler.runNow(RATE_LIMIT_PROBE_LOOP)).status).toBe('succeeded');
      expect(await next('RATE_LIMIT_LIFTED')).toMatchObject({
        provider: 'claude',
        resumed_agents: ['be-dev-1'],
      });
      expect(await entriesOf(one)).toEqual([]);
      onTwo.ws.terminate();
    } finally {
      await one.close();
      await two.close();
      await stores.dispose();
    }
  }, 60_000);
});
