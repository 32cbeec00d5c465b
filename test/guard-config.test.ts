/**
 * The request guard's switches over real HTTP: telemetry payloads (captured by a collector on
 * loopback) carry no secrets, response-body rules under GAFFER_GUARD_SCAN_RESPONSE_BODY, a rule
 * that cannot be loaded stops the start, the guard switched off, and bans and rate limits shared by
 * two replicas on one Redis.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { eventually, type GuardTestApp, guardRecords, startGuardApp } from './support/guard-app.js';
import { createTestStores, testRedisUrl } from './support/stores.js';

const TOKEN = 'a'.repeat(64);
const SESSION = 'gaffer_session=session-secret-value-1234';
const BEARER = 'Bearer bearer-secret-value-5678';

describe('telemetry and response-body rules', () => {
  let t: GuardTestApp;
  let collector: Server;
  const received: string[] = [];

  beforeAll(async () => {
    collector = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        received.push(body);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const { port } = collector.address() as AddressInfo;
    t = await startGuardApp({
      config: {
        guardTelemetryEnabled: true,
        guardTelemetryUrl: `http://127.0.0.1:${port}/events`,
        guardScanResponseBody: true,
        guardResponseRules: JSON.stringify([
          {
            name: 'no-route-echo',
            status: 404,
            body_pattern: 'no route GET /api/echo',
            threshold: 2,
            window_seconds: 60,
          },
        ]),
        guardLogSuspiciousLevel: 'error',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => collector.close(resolve));
  });

  it('sends a record per guard event, without X-Agent-Token, cookies or Authorization', async () => {
    const response = await t.call('/.env', {
      from: '203.0.113.50',
      headers: {
        'x-agent-token': TOKEN,
        cookie: SESSION,
        authorization: BEARER,
        'user-agent': 'guard-probe/1.0',
      },
    });
    expect(response.status).toBe(403);
    await eventually(() => received.length > 0, 'the collector received a record');
    const payload = received.join('\n');
    const record = JSON.parse(received[0]!);
    expect(record).toMatchObject({
      kind: 'blocked',
      rule: 'waf:scanner_path',
      client_ip: '203.0.113.50',
      path: '/.env',
      headers: { 'user-agent': 'guard-probe/1.0' },
    });
    expect(Object.keys(record.headers)).not.toEqual(expect.arrayContaining(['x-agent-token']));
    for (const secret of [TOKEN, 'session-secret-value', 'bearer-secret-value', 'gaffer_session']) {
      expect(payload).not.toContain(secret);
    }
  });

  it('runs body rules on response bodies when scanning is on, logging at the configured level', async () => {
    const from = '203.0.113.51';
    expect((await t.call('/api/echo', { from })).status).toBe(404);
    expect((await t.call('/api/echo', { from })).status).toBe(404);
    await eventually(() => guardRecords(t, 'no-route-echo', from).length === 1, 'the body rule fired');
    expect(guardRecords(t, 'no-route-echo', from)[0]).toMatchObject({
      level: 50,
      guard: { kind: 'suspicious' },
    });
    // A different body does not match.
    await t.call('/api/other', { from: '203.0.113.52' });
    await t.call('/api/other', { from: '203.0.113.52' });
    expect(guardRecords(t, 'no-route-echo', '203.0.113.52')).toHaveLength(0);

    const status = await t.call('/_guard/status');
    const rules = status.body.guard.rules as { name: string; active: boolean }[];
    expect(rules).toContainEqual(expect.objectContaining({ name: 'leaked-secret', active: true }));
    expect(rules).toContainEqual(expect.objectContaining({ name: 'no-route-echo', active: true }));
    expect(status.body.guard).toMatchObject({ scan_response_body: true, telemetry_enabled: true });
  });
});

describe('loading rules', () => {
  it('refuses to start when a configured rule cannot be loaded, instead of dropping it', async () => {
    const stores = await createTestStores();
    try {
      const bodyRule = JSON.stringify([
        { name: 'leak', body_pattern: 'sk-[a-z]+', threshold: 1, window_seconds: 60 },
      ]);
      const scanningOff = await stores.platform({ config: { guardResponseRules: bodyRule } });
      await expect(buildApp(scanningOff, { logger: false })).rejects.toThrow(
        /guard rule "leak" cannot be loaded: .*GAFFER_GUARD_SCAN_RESPONSE_BODY is off/,
      );
      await scanningOff.close();
      const badPattern = JSON.stringify([
        { name: 'broken', body_pattern: '(', threshold: 1, window_seconds: 60 },
      ]);
      const malformed = await stores.platform({
        config: { guardResponseRules: badPattern, guardScanResponseBody: true },
      });
      await expect(buildApp(malformed, { logger: false })).rejects.toThrow(/guard rule "broken"/);
      await malformed.close();
    } finally {
      await stores.dispose();
    }
  });
});

describe('the guard switched off', () => {
  let t: GuardTestApp;
  beforeAll(async () => {
    t = await startGuardApp({ config: { guardEnabled: false, guardRateLimitPerMinute: 1 } });
  });
  afterAll(() => t.close());

  it('has no limits, WAF or headers, and says so on /_guard/status', async () => {
    for (let i = 0; i < 3; i++) expect((await t.call('/health', { from: '203.0.113.60' })).status).toBe(200);
    const probe = await t.call('/.env', { from: '203.0.113.60' });
    expect(probe.status).not.toBe(403);
    // The guard's headers are off (the panel's own page still carries its CSP, so ask an API path).
    const api = await t.call('/api/no-such-route', { from: '203.0.113.60' });
    expect(api.status).toBe(404);
    expect(api.headers.get('content-security-policy')).toBeNull();
    expect(api.headers.get('strict-transport-security')).toBeNull();
    const status = await t.call('/_guard/status');
    expect(status.status).toBe(200);
    expect(status.body.guard).toMatchObject({ enabled: false, rules: [] });
  });
});

describe.skipIf(!testRedisUrl)('two replicas on one Redis', () => {
  let a: GuardTestApp;
  let b: GuardTestApp;
  let stores: Awaited<ReturnType<typeof createTestStores>>;
  beforeAll(async () => {
    stores = await createTestStores();
    const config = { guardRateLimitPerMinute: 4, guardBanThreshold: 2 };
    a = await startGuardApp({ config, stores });
    b = await startGuardApp({ config, stores });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await stores.dispose();
  });

  it('share the rate limit', async () => {
    const from = '203.0.113.70';
    expect((await a.call('/health', { from })).status).toBe(200);
    expect((await b.call('/health', { from })).status).toBe(200);
    expect((await a.call('/health', { from })).status).toBe(200);
    expect((await b.call('/health', { from })).status).toBe(200);
    expect((await a.call('/health', { from })).status).toBe(429);
    expect((await b.call('/health', { from })).status).toBe(429);
  });

  it('share bans: earned on one, refused on the other, lifted on either', async () => {
    const from = '203.0.113.71';
    expect((await a.call('/.env', { from })).status).toBe(403);
    expect((await b.call('/wp-admin/', { from })).status).toBe(403);
    const refused = await a.call('/health', { from });
    expect(refused.body.error?.code).toBe('address_banned');
    expect((await b.call('/health', { from })).body.error?.code).toBe('address_banned');
    const listed = await b.call('/api/guard/bans', { headers: b.ceoHeaders });
    expect(listed.body.bans.map((ban: { address: string }) => ban.address)).toContain(from);
    expect(
      (await a.call(`/api/guard/bans/${from}`, { method: 'DELETE', headers: a.ceoHeaders })).status,
    ).toBe(200);
    expect((await b.call('/health', { from })).status).toBe(200);
  });
});
