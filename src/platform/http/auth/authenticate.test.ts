/** Every way a request is (or is not) authenticated, through real HTTP injection. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../../clock.js';
import { CEO_ID } from './identity.js';
import { type AuthTestApp, startAuthTestApp, TEST_SECRET } from './test-app.js';
import { expiringToken, staticToken } from './tokens.js';

const dev = { id: 'be-dev-1', role: 'developer', team: 'backend' };
const errorCode = (response: { json(): unknown }) =>
  (response.json() as { error: { code: string } }).error.code;

describe('secure mode (the default)', () => {
  const clock = fakeClock(new Date('2026-02-01T09:00:00Z'));
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await startAuthTestApp({ clock });
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('no token → 401 missing_token, with the error model and correlation id', async () => {
    for (const url of ['/api/test/ceo', '/api/test/anyone']) {
      const response = await get(url);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({
        error: { code: 'missing_token' },
        correlation_id: expect.any(String),
      });
    }
  });

  it('an unknown /api path is a plain 404, with or without credentials', async () => {
    for (const headers of [{}, t.headersFor(dev.id, dev.role, dev.team)]) {
      const response = await get('/api/never/registered', headers);
      expect(response.statusCode).toBe(404);
      expect(errorCode(response)).toBe('not_found');
    }
  });

  it('identity headers without a token are not trusted', async () => {
    const response = await get('/api/test/ceo', { 'x-agent-id': CEO_ID, 'x-agent-role': 'ceo' });
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('missing_token');
  });

  it('bad token → 401 invalid_token', async () => {
    for (const token of [
      'f'.repeat(64),
      'nonsense',
      'UNSIGNED',
      'abc.def',
      staticToken('another-secret', dev),
    ]) {
      const response = await get('/api/test/anyone', {
        ...t.headersFor(dev.id, dev.role, dev.team),
        'x-agent-token': token,
      });
      expect(response.statusCode, token).toBe(401);
      expect(errorCode(response)).toBe('invalid_token');
    }
  });

  it('expired token → 401 token_expired', async () => {
    const token = expiringToken(TEST_SECRET, dev, 60, clock.now());
    expect((await get('/api/test/anyone', { 'x-agent-token': token })).statusCode).toBe(200);
    clock.advance(61_000);
    const response = await get('/api/test/anyone', { 'x-agent-token': token });
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('token_expired');
  });

  it('a valid token for another role on a CEO-only route → 403', async () => {
    const response = await get('/api/test/ceo', t.headersFor(dev.id, dev.role, dev.team));
    expect(response.statusCode).toBe(403);
    expect(errorCode(response)).toBe('forbidden');
    const expiring = await get('/api/test/ceo', {
      'x-agent-token': expiringToken(TEST_SECRET, dev, 600, clock.now()),
    });
    expect(expiring.statusCode).toBe(403);
  });

  it('a role header contradicting the token → 401', async () => {
    const ceoToken = t.ceoHeaders['x-agent-token']!;
    const cases: Record<string, string>[] = [
      { 'x-agent-token': ceoToken, 'x-agent-role': 'developer' },
      { 'x-agent-token': ceoToken, 'x-agent-team': 'backend' },
      { ...t.headersFor(dev.id, dev.role, dev.team), 'x-agent-role': 'ceo' },
      { 'x-agent-token': expiringToken(TEST_SECRET, dev, 600, clock.now()), 'x-agent-role': 'ceo' },
      { 'x-agent-token': expiringToken(TEST_SECRET, dev, 600, clock.now()), 'x-agent-id': 'be-dev-2' },
    ];
    for (const headers of cases) {
      const response = await get('/api/test/ceo', headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(401);
      expect(errorCode(response)).toBe('invalid_token');
    }
  });

  it('a role header that is no role → 400 invalid_identity', async () => {
    const response = await get('/api/test/anyone', { ...t.ceoHeaders, 'x-agent-role': 'overlord' });
    expect(response.statusCode).toBe(400);
    expect(errorCode(response)).toBe('invalid_identity');
  });

  it('the bare CEO token, without X-Agent-ID, works on a CEO route', async () => {
    const response = await get('/api/test/ceo', t.ceoHeaders);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: CEO_ID, role: 'ceo', team: '', via: 'token' });
    const withMatchingRole = await get('/api/test/ceo', { ...t.ceoHeaders, 'x-agent-role': 'CEO' });
    expect(withMatchingRole.statusCode).toBe(200);
  });

  it('the CEO token with full identity headers works too', async () => {
    expect((await get('/api/test/ceo', t.headersFor(CEO_ID, 'ceo'))).statusCode).toBe(200);
  });

  it('an expiring agent token works without identity headers', async () => {
    const token = expiringToken(TEST_SECRET, dev, 600, clock.now());
    const response = await get('/api/test/anyone', { 'x-agent-token': token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ ...dev, via: 'token', expiresAt: expect.any(String) });
  });

  it('a static agent token with its identity headers works', async () => {
    const response = await get('/api/test/anyone', t.headersFor(dev.id, dev.role, dev.team));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ...dev, via: 'token' });
  });

  it('percent-encoding the path does not skip authentication', async () => {
    for (const url of ['/%61pi/test/ceo', '/api/%74est/ceo', '/api/test/ceo/']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(401);
    }
  });

  it('pages outside /api need no token', async () => {
    expect((await get('/login')).statusCode).toBe(200);
  });
});

describe('secure mode off (development)', () => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await startAuthTestApp({ config: { secureMode: false } });
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });

  it('trusts identity headers without a token', async () => {
    const response = await get('/api/test/ceo', { 'x-agent-id': CEO_ID, 'x-agent-role': 'ceo' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: CEO_ID, role: 'ceo', team: '', via: 'header' });
    const agent = await get('/api/test/anyone', {
      'x-agent-id': dev.id,
      'x-agent-role': dev.role,
      'x-agent-team': dev.team,
    });
    expect(agent.json()).toEqual({ ...dev, via: 'header' });
  });

  it('lets a request without token or headers through authentication (guards still apply)', async () => {
    const response = await get('/api/auth/session');
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('unauthenticated');
    const role = await get('/api/test/ceo', { 'x-agent-id': dev.id, 'x-agent-role': dev.role });
    expect(role.statusCode).toBe(403);
  });

  it('still rejects a bad token that is presented', async () => {
    const response = await get('/api/test/ceo', {
      'x-agent-id': CEO_ID,
      'x-agent-role': 'ceo',
      'x-agent-token': 'f'.repeat(64),
    });
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('invalid_token');
  });

  it('still honours a valid token over the headers', async () => {
    const response = await get('/api/test/ceo', t.ceoHeaders);
    expect(response.json()).toMatchObject({ role: 'ceo', via: 'token' });
  });
});
