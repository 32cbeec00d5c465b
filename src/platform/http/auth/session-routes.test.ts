/** The panel session exchange, the cookie it sets, sign-out, expiry and pruning, through real HTTP injection. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeClock } from '../../clock.js';
import { CEO_ID } from './identity.js';
import { loginUrl } from './login-page.js';
import { authSessions } from './schema.js';
import { SESSION_COOKIE } from './sessions.js';
import { type AuthTestApp, startAuthTestApp, TEST_SECRET } from './test-app.js';
import { expiringToken } from './tokens.js';

const TTL = 3600;
const dev = { id: 'be-dev-1', role: 'developer', team: 'backend' };
const errorCode = (response: { json(): unknown }) =>
  (response.json() as { error: { code: string } }).error.code;

describe('panel sessions', () => {
  const clock = fakeClock(new Date('2026-02-01T09:00:00Z'));
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await startAuthTestApp({ clock, config: { sessionTtlSeconds: TTL } });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.platform.database.db.delete(authSessions);
  });

  const signIn = (headers: Record<string, string>, cookies?: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/auth/session', headers, ...(cookies ? { cookies } : {}) });
  const sessionCookie = (response: Awaited<ReturnType<typeof signIn>>) =>
    response.cookies.find((c) => c.name === SESSION_COOKIE);
  const withCookie = (url: string, value: string, method: 'GET' | 'DELETE' = 'GET') =>
    t.app.inject({ method, url, cookies: { [SESSION_COOKIE]: value } });
  const sessionRows = () => t.platform.database.db.$count(authSessions);

  it('exchanges the CEO token for an HttpOnly, SameSite=Strict cookie', async () => {
    const response = await signIn(t.ceoHeaders);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      identity: { id: CEO_ID, role: 'ceo', team: '' },
      expires_at: new Date(clock.now().getTime() + TTL * 1000).toISOString(),
    });
    expect(response.headers['cache-control']).toBe('no-store');
    const cookie = sessionCookie(response);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', maxAge: TTL });
    expect(cookie?.secure).toBeFalsy();
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const raw = String(response.headers['set-cookie']);
    expect(raw).toMatch(/HttpOnly/);
    expect(raw).toMatch(/SameSite=Strict/);
  });

  it('accepts the expiring CEO token from the printed login link', async () => {
    const link = loginUrl(t.platform.config, TEST_SECRET, clock.now());
    const token = new URLSearchParams(new URL(link).hash.slice(1)).get('token')!;
    const response = await signIn({ 'x-agent-token': token });
    expect(response.statusCode).toBe(200);
    expect(sessionCookie(response)).toBeDefined();
  });

  it('the cookie alone authenticates a CEO route and GET /api/auth/session', async () => {
    const cookie = sessionCookie(await signIn(t.ceoHeaders))!.value;
    const ceoRoute = await withCookie('/api/test/ceo', cookie);
    expect(ceoRoute.statusCode).toBe(200);
    expect(ceoRoute.json()).toMatchObject({ id: CEO_ID, role: 'ceo', via: 'session' });
    const me = await withCookie('/api/auth/session', cookie);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({
      identity: { id: CEO_ID, role: 'ceo', team: '' },
      via: 'session',
      expires_at: new Date(clock.now().getTime() + TTL * 1000).toISOString(),
    });
  });

  it('GET /api/auth/session answers for a token caller and 401s an anonymous one', async () => {
    const byToken = await t.app.inject({
      url: '/api/auth/session',
      headers: t.headersFor(dev.id, dev.role, dev.team),
    });
    expect(byToken.json()).toEqual({ identity: dev, via: 'token' });
    const expiring = expiringToken(TEST_SECRET, dev, 600, clock.now());
    const byExpiring = await t.app.inject({
      url: '/api/auth/session',
      headers: { 'x-agent-token': expiring },
    });
    expect(byExpiring.json()).toMatchObject({ via: 'token', expires_at: expect.any(String) });
    const anonymous = await t.app.inject({ url: '/api/auth/session' });
    expect(anonymous.statusCode).toBe(401);
    expect(errorCode(anonymous)).toBe('missing_token');
  });

  it('DELETE signs out: 204, the cookie is cleared and stops working', async () => {
    const cookie = sessionCookie(await signIn(t.ceoHeaders))!.value;
    const response = await withCookie('/api/auth/session', cookie, 'DELETE');
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    const cleared = sessionCookie(response);
    expect(cleared?.value).toBe('');
    expect(cleared?.path).toBe('/');
    expect(cleared?.expires?.getTime() ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(Date.now());
    const after = await withCookie('/api/test/ceo', cookie);
    expect(after.statusCode).toBe(401);
    expect(errorCode(after)).toBe('session_expired');
    expect(await sessionRows()).toBe(0);
  });

  it('DELETE is idempotent: 204 again, and 204 without any session', async () => {
    const cookie = sessionCookie(await signIn(t.ceoHeaders))!.value;
    expect((await withCookie('/api/auth/session', cookie, 'DELETE')).statusCode).toBe(204);
    expect((await withCookie('/api/auth/session', cookie, 'DELETE')).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/auth/session' })).statusCode).toBe(204);
  });

  it('refuses to sign in: missing token 401, bad token 401, expired token 401', async () => {
    const missing = await signIn({});
    expect([missing.statusCode, errorCode(missing)]).toEqual([401, 'missing_token']);
    const bad = await signIn({ 'x-agent-token': 'f'.repeat(64) });
    expect([bad.statusCode, errorCode(bad)]).toEqual([401, 'invalid_token']);
    const token = expiringToken(
      TEST_SECRET,
      { id: CEO_ID, role: 'ceo' },
      60,
      new Date(clock.now().getTime() - 61_000),
    );
    const expired = await signIn({ 'x-agent-token': token });
    expect([expired.statusCode, errorCode(expired)]).toEqual([401, 'token_expired']);
    expect(await sessionRows()).toBe(0);
  });

  it('refuses a valid token of any other role with 403, and creates no session', async () => {
    const staticDev = await signIn(t.headersFor(dev.id, dev.role, dev.team));
    expect([staticDev.statusCode, errorCode(staticDev)]).toEqual([403, 'forbidden']);
    const expiringPm = await signIn({
      'x-agent-token': expiringToken(
        TEST_SECRET,
        { id: 'main-pm', role: 'main_pm', team: 'main_pm' },
        600,
        clock.now(),
      ),
    });
    expect(expiringPm.statusCode).toBe(403);
    expect(sessionCookie(staticDev)).toBeUndefined();
    expect(await sessionRows()).toBe(0);
  });

  it('a session expires after sessionTtlSeconds', async () => {
    const cookie = sessionCookie(await signIn(t.ceoHeaders))!.value;
    clock.advance(TTL * 1000 + 1);
    const response = await withCookie('/api/test/ceo', cookie);
    expect(response.statusCode).toBe(401);
    expect(errorCode(response)).toBe('session_expired');
  });

  it('prunes expired sessions when a new one is created, and replaces the caller’s previous one', async () => {
    await signIn(t.ceoHeaders);
    clock.advance(TTL * 1000 + 1);
    const second = sessionCookie(await signIn(t.ceoHeaders))!.value;
    expect(await sessionRows()).toBe(1);
    const third = sessionCookie(await signIn(t.ceoHeaders, { [SESSION_COOKIE]: second }))!.value;
    expect(await sessionRows()).toBe(1);
    expect((await withCookie('/api/test/ceo', second)).statusCode).toBe(401);
    expect((await withCookie('/api/test/ceo', third)).statusCode).toBe(200);
  });
});

describe('the session cookie behind https', () => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await startAuthTestApp({ config: { publicUrl: 'https://gaffer.example.com' } });
  });
  afterAll(() => t.close());

  it('is Secure', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/session', headers: t.ceoHeaders });
    expect(response.cookies.find((c) => c.name === SESSION_COOKIE)).toMatchObject({
      secure: true,
      httpOnly: true,
    });
    const out = await t.app.inject({ method: 'DELETE', url: '/api/auth/session' });
    expect(String(out.headers['set-cookie'])).toMatch(/Secure/);
  });
});
