/** Neither the HMAC secret nor a credential ever shows up in a response or a log line. */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../../clock.js';
import { loginUrl } from './login-page.js';
import { SESSION_COOKIE } from './sessions.js';
import { type AuthTestApp, startAuthTestApp, TEST_SECRET } from './test-app.js';
import { expiringToken } from './tokens.js';

describe('secrecy', () => {
  const clock = fakeClock(new Date('2026-02-01T09:00:00Z'));
  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await startAuthTestApp({ clock, logStream });
  });
  afterAll(() => t.close());

  it('keeps the secret out of every response and log line, and credentials out of the logs', async () => {
    const ceoToken = t.ceoHeaders['x-agent-token']!;
    const linkToken = new URLSearchParams(
      new URL(loginUrl(t.platform.config, TEST_SECRET, clock.now())).hash.slice(1),
    ).get('token')!;
    const devToken = expiringToken(
      TEST_SECRET,
      { id: 'be-dev-1', role: 'developer', team: 'backend' },
      60,
      clock.now(),
    );
    const responses = [];

    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/session',
      headers: { 'x-agent-token': linkToken },
    });
    const cookie = signIn.cookies.find((c) => c.name === SESSION_COOKIE)!.value;
    responses.push(
      signIn,
      await t.app.inject({ method: 'POST', url: '/api/auth/session', headers: t.ceoHeaders }),
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/session',
        headers: { 'x-agent-token': devToken },
      }),
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/session',
        headers: { 'x-agent-token': `${ceoToken}0` },
      }),
      await t.app.inject({ url: '/api/auth/session', cookies: { [SESSION_COOKIE]: cookie } }),
      await t.app.inject({ url: '/api/test/ceo', headers: t.ceoHeaders }),
      await t.app.inject({ url: '/api/test/ceo', headers: { 'x-agent-token': devToken } }),
      await t.app.inject({ url: '/api/test/ceo' }),
      await t.app.inject({ url: '/login' }),
      await t.app.inject({ url: '/' }),
      await t.app.inject({ url: '/docs/json' }),
      await t.app.inject({ url: '/api/no/such/route', headers: t.ceoHeaders }),
    );
    clock.advance(61_000);
    responses.push(
      await t.app.inject({ url: '/api/test/anyone', headers: { 'x-agent-token': devToken } }),
      await t.app.inject({
        method: 'DELETE',
        url: '/api/auth/session',
        cookies: { [SESSION_COOKIE]: cookie },
      }),
    );

    expect(responses.map((r) => r.statusCode)).toEqual([
      200, 200, 403, 401, 200, 200, 403, 401, 200, 404, 200, 404, 401, 204,
    ]);
    expect(logLines.length).toBeGreaterThan(responses.length);
    for (const response of responses) {
      expect(response.body).not.toContain(TEST_SECRET);
      expect(JSON.stringify(response.headers)).not.toContain(TEST_SECRET);
    }
    const log = logLines.join('');
    for (const credential of [TEST_SECRET, ceoToken, linkToken, devToken, cookie]) {
      expect(log).not.toContain(credential);
    }
  });
});
