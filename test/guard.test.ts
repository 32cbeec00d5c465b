/**
 * The request guard over real HTTP, on the stores the run is given (embedded, or PostgreSQL + Redis):
 * rate limits, the failed-authentication limit, the 401 rule, the stale-token rule, the WAF and its
 * allow-list, bans (and that they override the whitelist), the CEO's ban routes, exclusions, the
 * internal whitelist and forwarded addresses, security headers and /_guard/status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import {
  eventually,
  type GuardTestApp,
  guardRecords,
  peerAddress,
  startGuardApp,
} from './support/guard-app.js';

let t: GuardTestApp;
beforeAll(async () => {
  t = await startGuardApp({
    config: {
      guardRateLimitPerMinute: 5,
      guardSensitiveRateLimitPerMinute: 2,
      guardAuthFailuresPerMinute: 25,
      guardBanThreshold: 3,
      internalNetworks: ['10.9.0.0/16'],
    },
  });
});
afterAll(() => t.close());

const STALE_TOKEN = 'f'.repeat(64);
const inject = (url: string, remoteAddress: string, headers: Record<string, string> = {}) =>
  t.app.inject({ url, remoteAddress, headers });

describe('rate limits', () => {
  it('answers 429 with Retry-After and the standard error body past the per-client limit, on an excluded path too', async () => {
    const from = '203.0.113.1';
    for (let i = 0; i < 5; i++) expect((await t.call('/health', { from })).status).toBe(200);
    const refused = await t.call('/health', { from });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body).toMatchObject({
      error: { code: 'rate_limited', details: { retry_after_seconds: expect.any(Number) } },
      correlation_id: expect.any(String),
    });
    // Another client is unaffected.
    expect((await t.call('/health', { from: '203.0.113.99' })).status).toBe(200);
  });

  it('counts an authenticated caller by identity, whichever address it calls from', async () => {
    const qa = { headers: agentHeaders('qa-rate-1', 'qa') };
    const addresses = ['203.0.113.2', '203.0.113.3'];
    for (let i = 0; i < 5; i++) {
      expect((await t.call('/api/kanban', { ...qa, from: addresses[i % 2] })).status).toBe(200);
    }
    expect((await t.call('/api/kanban', { ...qa, from: '203.0.113.4' })).status).toBe(429);
    // Another identity on the same address is counted apart.
    const other = { headers: agentHeaders('qa-rate-2', 'qa'), from: '203.0.113.4' };
    expect((await t.call('/api/kanban', other)).status).toBe(200);
    // The address itself still has its own allowance for anonymous calls.
    expect((await t.call('/health', { from: '203.0.113.2' })).status).toBe(200);
  });

  it('holds the sensitive routes to their tighter limit (panel sign-in)', async () => {
    const attempt = () =>
      t.call('/api/auth/session', { from: '203.0.113.5', method: 'POST', body: { token: 'guess' } });
    for (let i = 0; i < 2; i++) expect((await attempt()).status).not.toBe(429);
    const refused = await attempt();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('limits a path no route matches, by address', async () => {
    const from = '203.0.113.6';
    for (let i = 0; i < 5; i++) expect((await t.call(`/api/no-such-page-${i}`, { from })).status).toBe(404);
    expect((await t.call('/api/no-such-page', { from })).status).toBe(429);
  });

  it('exempts internal callers: loopback and GAFFER_INTERNAL_NETWORKS', async () => {
    for (let i = 0; i < 12; i++) expect((await t.call('/health')).status).toBe(200);
    for (let i = 0; i < 12; i++) expect((await inject('/health', '10.9.1.2')).statusCode).toBe(200);
  });
});

describe('forwarded addresses and the internal whitelist', () => {
  it('ignores X-Forwarded-For from an untrusted peer: a spoofed 10.0.0.5 is not internal', async () => {
    const spoofed = { headers: { 'x-forwarded-for': '10.9.0.5' } };
    const probe = await inject('/_guard/status', '198.51.100.7', spoofed.headers);
    expect(probe.statusCode).toBe(404);
    for (let i = 0; i < 5; i++)
      expect((await inject('/health', '198.51.100.7', spoofed.headers)).statusCode).toBe(200);
    expect((await inject('/health', '198.51.100.7', spoofed.headers)).statusCode).toBe(429);
  });

  it.skipIf(!peerAddress)(
    'does the same over real HTTP from a non-loopback address of this machine',
    async () => {
      const headers = { 'x-forwarded-for': '10.0.0.5' };
      expect((await t.callFromPeer('/_guard/status', { headers })).status).toBe(404);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await t.callFromPeer('/health', { headers })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    },
  );

  it('never lets a forwarded LAN address ride the whitelist (0.29.0 fix)', async () => {
    const from = '10.9.7.7'; // in GAFFER_INTERNAL_NETWORKS, but relayed by the loopback proxy
    expect((await t.call('/_guard/status', { from })).status).toBe(404);
    for (let i = 0; i < 5; i++) await t.call('/health', { from });
    expect((await t.call('/health', { from })).status).toBe(429);
  });
});

describe('failed authentications', () => {
  it('answer 429 past GAFFER_GUARD_AUTH_FAILURES_PER_MINUTE, and never ban', async () => {
    const from = '203.0.113.10';
    for (let i = 0; i < 25; i++) {
      const response = await t.call('/api/tasks', { from, headers: { 'x-agent-token': `guess-${i}` } });
      expect(response.status).toBe(401);
    }
    const limited = await t.call('/api/tasks', { from, headers: t.ceoHeaders });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(await bannedAddresses()).not.toContain(from);
  });

  it('the 401 rule logs one suspicious-activity record at the 20th in 300 s and never bans', async () => {
    const from = '203.0.113.11';
    const fail = () => t.call('/api/kanban', { from, headers: { 'x-agent-token': STALE_TOKEN } });
    for (let i = 0; i < 19; i++) expect((await fail()).status).toBe(401);
    await new Promise((resolve) => setImmediate(resolve));
    expect(guardRecords(t, 'status-401', from)).toHaveLength(0);
    expect((await fail()).status).toBe(401);
    await eventually(() => guardRecords(t, 'status-401', from).length === 1, 'the 401 rule fired');
    for (let i = 0; i < 4; i++) expect((await fail()).status).toBe(401);
    const [record] = guardRecords(t, 'status-401', from);
    expect(record).toMatchObject({
      level: 40,
      guard: { kind: 'suspicious', count: 20, window_seconds: 300, auth_failure: 'stale_agent_token' },
    });
    expect(guardRecords(t, 'status-401', from)).toHaveLength(1);
    expect(JSON.stringify(record)).not.toContain(STALE_TOKEN);
    expect(await bannedAddresses()).not.toContain(from);
  });

  it('a stale internal token never earns a ban, not even from loopback', async () => {
    for (let i = 0; i < 30; i++) {
      const response = await t.call('/api/kanban', { headers: { 'x-agent-token': STALE_TOKEN } });
      expect(response.status).toBe(401);
    }
    expect((await t.call('/api/kanban', { headers: t.ceoHeaders })).status).toBe(200);
    expect(await bannedAddresses()).toEqual(expect.not.arrayContaining(['127.0.0.1', '::ffff:127.0.0.1']));
  });
});

describe('the WAF', () => {
  it('refuses attack payloads in the path, the query and the body with a generic 403', async () => {
    for (const [path, from] of [
      ['/.env', '203.0.113.20'],
      ['/wp-admin/install.php', '203.0.113.21'],
      ['/api/kanban?team=%3Cscript%3Ealert(1)%3C%2Fscript%3E', '203.0.113.22'],
      ['/api/tasks?status=1%27%20OR%20%271%27%3D%271', '203.0.113.23'],
    ] as const) {
      const response = await t.call(path, { from, headers: t.ceoHeaders });
      expect(response.status, path).toBe(403);
      expect(response.body).toMatchObject({
        error: { code: 'request_blocked', message: 'request blocked by security policy' },
      });
    }
    const body = await t.call('/api/telegram/credentials', {
      from: '203.0.113.24',
      method: 'POST',
      headers: t.ceoHeaders,
      body: { bot_token: "x' UNION SELECT secret FROM auth --", chat_id: '1' },
    });
    expect(body.status).toBe(403);
    expect(body.body.error.code).toBe('request_blocked');
  });

  it('lets attack-looking prose through the allow-listed fields of a task, and blocks it in an id', async () => {
    const project = await t.call('/api/projects', {
      method: 'POST',
      headers: t.ceoHeaders,
      body: { slug: 'guarded', name: 'Guarded', git_url: 'https://github.com/acme/guarded.git' },
    });
    expect(project.status).toBe(201);
    const task = {
      title: 'Escape <script> tags in the task title bar',
      description:
        "The search box passes ' OR '1'='1 straight into SQL, and ../../etc/passwd reaches the file route. Fix both.",
      acceptance_criteria: [
        '<img src=x onerror=alert(1)> renders as text',
        "1' UNION SELECT password is refused",
      ],
      team: 'backend',
      task_type: 'code',
      nature: 'technical',
      complexity: 'low',
      project_id: project.body.id,
    };
    const created = await t.call('/api/tasks', { method: 'POST', headers: t.ceoHeaders, body: task });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.description).toContain("' OR '1'='1");

    // The same payload where an identifier belongs is an attack (one hit from an internal network peer).
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/tasks',
      remoteAddress: '10.9.4.4',
      headers: t.ceoHeaders,
      payload: { ...task, project_id: "' OR '1'='1" },
    });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error.code).toBe('request_blocked');
  });

  it('leaves the route’s own validation to judge an allow-listed path parameter', async () => {
    const response = await t.call('/api/git/file?project=guarded&branch=main&path=..%2F..%2Fetc%2Fpasswd', {
      headers: t.ceoHeaders,
    });
    expect(response.status).toBe(422);
  });

  it('does not read excluded paths, which still serve', async () => {
    const response = await t.call('/docs/%3Cscript%3Ealert(1)%3C%2Fscript%3E', { from: '203.0.113.25' });
    expect(response.status).toBe(404);
  });
});

describe('bans', () => {
  it('ban an address after repeated WAF hits; the CEO lists and lifts the ban', async () => {
    const from = '203.0.113.30';
    for (const path of ['/.git/config', '/phpmyadmin/', '/api/kanban?q=1%20UNION%20SELECT%201']) {
      expect((await t.call(path, { from })).status).toBe(403);
    }
    const banned = await t.call('/health', { from });
    expect(banned.status).toBe(403);
    expect(banned.body.error.code).toBe('address_banned');
    expect(Number(banned.headers.get('retry-after'))).toBeGreaterThan(3000);

    const list = await t.call('/api/guard/bans', { headers: t.ceoHeaders });
    expect(list.status).toBe(200);
    expect(list.body.bans).toContainEqual(
      expect.objectContaining({ address: from, reason: expect.stringContaining('3 blocked requests') }),
    );
    const status = await t.call('/_guard/status');
    expect(status.body.guard.bans.active).toBeGreaterThanOrEqual(1);
    expect(status.body.guard.recent_blocks.waf).toBeGreaterThanOrEqual(3);
    expect(status.body.guard.recent_blocks.banned).toBeGreaterThanOrEqual(1);

    // Only the CEO: another role is refused; the banned address itself may reach the route as the CEO.
    const asDev = await t.call('/api/guard/bans', { headers: agentHeaders('dev-1', 'developer') });
    expect(asDev.status).toBe(403);
    expect((await t.call('/api/guard/bans', { from, headers: t.ceoHeaders })).status).toBe(200);

    const lifted = await t.call(`/api/guard/bans/${from}`, { method: 'DELETE', headers: t.ceoHeaders });
    expect(lifted.status).toBe(200);
    expect(lifted.body).toEqual({ address: from, lifted: true });
    expect((await t.call('/health', { from })).status).toBe(200);
    expect(
      (await t.call(`/api/guard/bans/${from}`, { method: 'DELETE', headers: t.ceoHeaders })).status,
    ).toBe(404);
    const bad = await t.call('/api/guard/bans/not-an-address', { method: 'DELETE', headers: t.ceoHeaders });
    expect(bad.status).toBe(422);
  });

  it('override the internal whitelist', async () => {
    const peer = '10.9.5.5';
    for (const path of ['/.env', '/.aws/credentials', '/wp-login.php']) {
      expect((await inject(path, peer)).statusCode).toBe(403);
    }
    const refused = await inject('/_guard/status', peer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('address_banned');
    expect(
      (await t.call(`/api/guard/bans/${peer}`, { method: 'DELETE', headers: t.ceoHeaders })).status,
    ).toBe(200);
    expect((await inject('/_guard/status', peer)).statusCode).toBe(200);
  });
});

describe('security headers and /_guard/status', () => {
  it('sends helmet’s headers with a CSP the panel and the docs pass', async () => {
    const response = await t.call('/health');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('permissions-policy')).toBe('geolocation=(), microphone=(), camera=()');
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    // Headers only long-gone browsers read are not sent.
    for (const legacy of ['x-xss-protection', 'x-download-options', 'x-permitted-cross-domain-policies'])
      expect(response.headers.get(legacy), legacy).toBeNull();
    // The sign-in page keeps its own, stricter policy.
    const login = await t.call('/login');
    expect(login.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect((await t.call('/docs/')).status).toBe(200);
  });

  it('reports the rules loaded, the store in use and whether each rule is active', async () => {
    const response = await t.call('/_guard/status');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      status: 'ok',
      guard: {
        enabled: true,
        store: t.platform.cache.mode === 'redis' ? 'redis' : 'memory',
        scan_response_body: false,
        log_suspicious_level: 'warn',
        telemetry_enabled: false,
      },
    });
    const rules = Object.fromEntries(
      (response.body.guard.rules as { name: string; active: boolean }[]).map((rule) => [
        rule.name,
        rule.active,
      ]),
    );
    expect(rules).toMatchObject({
      'ip-ban': true,
      'rate-limit': true,
      'rate-limit-sensitive': true,
      'auth-failure-limit': true,
      waf: true,
      'status-401': true,
      'status-404': true,
      'leaked-secret': false,
      'security-headers': true,
    });
  });
});

function agentHeaders(id: string, role: string): Record<string, string> {
  return {
    'x-agent-id': id,
    'x-agent-role': role,
    'x-agent-token': staticToken(t.platform.secret, { id, role, team: '' }),
  };
}

async function bannedAddresses(): Promise<string[]> {
  const response = await t.call('/api/guard/bans', { headers: t.ceoHeaders });
  expect(response.status).toBe(200);
  return (response.body.bans as { address: string }[]).map((ban) => ban.address);
}
