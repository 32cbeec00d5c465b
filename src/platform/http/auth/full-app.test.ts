/**
 * Auth inside the whole application (real routes, real stores, the production logger settings):
 * the panel sign-in round trip on a CEO-only module route, and no secret or credential in any
 * response or log line.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestStores, type TestPlatform, type TestStores } from '../../../../test/support/stores.js';
import { buildApp, type Gaffer, REDACTED_LOG_PATHS } from '../../../app.js';
import { CEO_IDENTITY } from './identity.js';
import { loginUrl } from './login-page.js';
import { SESSION_COOKIE } from './sessions.js';
import { expiringToken, staticToken } from './tokens.js';

describe('auth in the whole app', () => {
  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  let stores: TestStores;
  let platform: TestPlatform;
  let gaffer: Gaffer;
  beforeAll(async () => {
    stores = await createTestStores();
    platform = await stores.platform();
    gaffer = await buildApp(platform, {
      logger: {
        level: 'trace',
        stream: logStream,
        redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
      },
    });
    await gaffer.app.ready();
  });
  afterAll(async () => {
    await gaffer?.app.close();
    await stores?.dispose();
  });

  it('signs the CEO in with the login link, serves a CEO route by cookie, signs out; nothing leaks', async () => {
    const { app } = gaffer;
    const { secret } = platform;
    const ceoToken = staticToken(secret, CEO_IDENTITY);
    const devToken = expiringToken(secret, { id: 'be-dev-1', role: 'developer', team: 'backend' }, 600);
    const linkToken = new URLSearchParams(
      new URL(loginUrl(platform.config, secret, new Date())).hash.slice(1),
    ).get('token')!;

    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/session',
      headers: { 'x-agent-token': linkToken },
    });
    expect(signIn.statusCode).toBe(200);
    const cookie = signIn.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

    const byCookie = await app.inject({ url: '/api/settings', cookies: { [SESSION_COOKIE]: cookie.value } });
    expect(byCookie.statusCode).toBe(200);
    const anonymous = await app.inject({ url: '/api/settings' });
    expect([anonymous.statusCode, anonymous.json().error.code]).toEqual([401, 'missing_token']);
    const asDeveloper = await app.inject({ url: '/api/settings', headers: { 'x-agent-token': devToken } });
    expect(asDeveloper.statusCode).toBe(403);
    const devSession = await app.inject({
      method: 'POST',
      url: '/api/auth/session',
      headers: { 'x-agent-token': devToken },
    });
    expect(devSession.statusCode).toBe(403);
    const byToken = await app.inject({ url: '/api/settings', headers: { 'x-agent-token': ceoToken } });
    expect(byToken.statusCode).toBe(200);

    const signOut = await app.inject({
      method: 'DELETE',
      url: '/api/auth/session',
      cookies: { [SESSION_COOKIE]: cookie.value },
    });
    expect(signOut.statusCode).toBe(204);
    const afterSignOut = await app.inject({
      url: '/api/settings',
      cookies: { [SESSION_COOKIE]: cookie.value },
    });
    expect(afterSignOut.statusCode).toBe(401);

    const pages = await Promise.all(['/login', '/docs/json'].map((url) => app.inject({ url })));
    expect(pages.map((p) => p.statusCode)).toEqual([200, 200]);

    const responses = [
      signIn,
      byCookie,
      anonymous,
      asDeveloper,
      devSession,
      byToken,
      signOut,
      afterSignOut,
      ...pages,
    ];
    for (const response of responses) {
      expect(response.body).not.toContain(secret);
      expect(JSON.stringify(response.headers)).not.toContain(secret);
    }
    const log = logLines.join('');
    expect(log).toContain('"url":"/api/auth/session"');
    for (const credential of [secret, ceoToken, linkToken, devToken, cookie.value]) {
      expect(log).not.toContain(credential);
    }
  });
});
