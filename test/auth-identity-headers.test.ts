/**
 * Identity headers sent with a token must agree with the identity the token proves — by the
 * agent's UUID or slug, with the roster's team — and are refused when they name anyone else.
 * Real app, real roster (the seeded default company), real HTTP injection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { CEO_ID, CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { expiringToken, staticToken } from '../src/platform/http/auth/tokens.js';
import { startTestApp, type TestApp } from './support/app.js';

const dev = rosterMember('be-dev-1');
const otherDev = rosterMember('be-dev-2');
type Headers = Record<string, string>;

const errorCode = (response: { json(): unknown }) =>
  (response.json() as { error?: { code: string } }).error?.code;

function suite(secureMode: boolean) {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ config: { secureMode } });
  });
  afterAll(() => t?.close());

  const ceoToken = () => staticToken(t.platform.secret, CEO_IDENTITY);
  /** What `gaffer token be-dev-1` prints: a static token over the roster's UUID, role and team. */
  const devToken = () => staticToken(t.platform.secret, { id: dev.id, role: 'developer', team: 'backend' });
  /** What a spawned agent gets: an expiring token over its UUID. */
  const devExpiring = () =>
    expiringToken(
      t.platform.secret,
      { id: dev.id, role: 'developer', team: 'backend' },
      600,
      t.platform.clock.now(),
    );
  const whoAmI = (headers: Headers) => t.app.inject({ method: 'GET', url: '/api/auth/session', headers });

  async function accepted(headers: Headers, expected: { id: string; role: string; team: string }) {
    const response = await whoAmI(headers);
    expect(response.statusCode, `${JSON.stringify(headers)} → ${response.body}`).toBe(200);
    expect(response.json()).toMatchObject({ identity: expected, via: 'token' });
  }
  async function refused(headers: Headers) {
    const response = await whoAmI(headers);
    expect(response.statusCode, `${JSON.stringify(headers)} → ${response.body}`).toBe(401);
    expect(errorCode(response)).toBe('invalid_token');
  }

  describe('the CEO token', () => {
    const proven = { id: CEO_ID, role: 'ceo', team: '' };

    it('is accepted with X-Agent-ID naming the CEO by slug or UUID, and with the roster team', async () => {
      const token = { 'x-agent-token': ceoToken() };
      await accepted({ ...token, 'x-agent-id': 'ceo' }, proven);
      await accepted({ ...token, 'x-agent-id': 'CEO' }, proven);
      await accepted({ ...token, 'x-agent-id': CEO_ID }, proven);
      await accepted({ ...token, 'x-agent-team': 'board' }, proven);
      await accepted(
        { ...token, 'x-agent-id': 'ceo', 'x-agent-role': 'ceo', 'x-agent-team': 'board' },
        proven,
      );
      await accepted(
        { ...token, 'x-agent-id': CEO_ID, 'x-agent-role': 'ceo', 'x-agent-team': 'board' },
        proven,
      );
    });

    it('with agreeing headers opens a CEO-only route and signs in to the panel', async () => {
      const headers = { 'x-agent-token': ceoToken(), 'x-agent-id': 'ceo', 'x-agent-team': 'board' };
      const settings = await t.app.inject({ method: 'GET', url: '/api/settings', headers });
      expect(settings.statusCode, settings.body).toBe(200);
      const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/session', headers });
      expect(signIn.statusCode, signIn.body).toBe(200);
      expect(signIn.json()).toMatchObject({ identity: proven });
    });

    it('is refused with headers naming another identity: another agent, role or team', async () => {
      const token = { 'x-agent-token': ceoToken() };
      await refused({ ...token, 'x-agent-id': 'be-dev-1' });
      await refused({ ...token, 'x-agent-id': dev.id });
      await refused({ ...token, 'x-agent-id': 'main-pm', 'x-agent-role': 'ceo' });
      await refused({ ...token, 'x-agent-id': 'ceo', 'x-agent-role': 'developer' });
      await refused({ ...token, 'x-agent-id': 'ceo', 'x-agent-team': 'backend' });
      await refused({ ...token, 'x-agent-team': 'backend' });
      await refused({ ...token, 'x-agent-id': 'nobody-at-all' });
      // A NUL names nobody: refused, never a 500 from the roster's SQL.
      await refused({ ...token, 'x-agent-id': 'c\u0000eo' });
      await refused({ ...token, 'x-agent-id': 'ceo', 'x-agent-team': 'bo\u0000ard' });
    });

    it('in its expiring form (the login link) agrees with the slug and roster team too', async () => {
      const token = expiringToken(t.platform.secret, CEO_IDENTITY, 600, t.platform.clock.now());
      const response = await whoAmI({ 'x-agent-token': token, 'x-agent-id': 'ceo', 'x-agent-team': 'board' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ identity: proven, expires_at: expect.any(String) });
      await refused({ 'x-agent-token': token, 'x-agent-id': 'ceo', 'x-agent-team': 'frontend' });
    });
  });

  describe("an agent's token", () => {
    const proven = { id: dev.id, role: 'developer', team: 'backend' };

    it('signed over its UUID is accepted with its slug or UUID, with or without role and team', async () => {
      const token = { 'x-agent-token': devToken() };
      const full = { 'x-agent-role': 'developer', 'x-agent-team': 'backend' };
      await accepted({ ...token, 'x-agent-id': dev.id, ...full }, proven);
      await accepted({ ...token, 'x-agent-id': 'be-dev-1', ...full }, proven);
      await accepted({ ...token, 'x-agent-id': 'be-dev-1', 'x-agent-role': 'developer' }, proven);
      await accepted({ ...token, 'x-agent-id': 'be-dev-1' }, proven);
      await accepted({ ...token, 'x-agent-id': dev.id, 'x-agent-team': 'backend' }, proven);
    });

    it('signed over its slug is accepted with its UUID', async () => {
      const bySlug = staticToken(t.platform.secret, { id: 'be-dev-1', role: 'developer', team: 'backend' });
      await accepted(
        {
          'x-agent-token': bySlug,
          'x-agent-id': dev.id,
          'x-agent-role': 'developer',
          'x-agent-team': 'backend',
        },
        { ...proven, id: 'be-dev-1' },
      );
    });

    it('is refused with a wrong slug or UUID, a wrong team or a wrong role', async () => {
      const token = { 'x-agent-token': devToken() };
      await refused({
        ...token,
        'x-agent-id': 'be-dev-2',
        'x-agent-role': 'developer',
        'x-agent-team': 'backend',
      });
      await refused({
        ...token,
        'x-agent-id': otherDev.id,
        'x-agent-role': 'developer',
        'x-agent-team': 'backend',
      });
      await refused({ ...token, 'x-agent-id': 'be-dev-2' });
      await refused({
        ...token,
        'x-agent-id': 'be-dev-1',
        'x-agent-role': 'developer',
        'x-agent-team': 'frontend',
      });
      await refused({ ...token, 'x-agent-id': 'be-dev-1', 'x-agent-team': 'board' });
      await refused({ ...token, 'x-agent-id': 'be-dev-1', 'x-agent-role': 'qa', 'x-agent-team': 'backend' });
      await refused({ ...token, 'x-agent-id': 'be-dev-1', 'x-agent-role': 'ceo' });
      await refused({ ...token, 'x-agent-id': 'ceo' });
      await refused({ ...token, 'x-agent-id': CEO_ID, 'x-agent-role': 'ceo' });
    });

    it('in its expiring form agrees with its slug and team, and refuses another agent or team', async () => {
      const token = { 'x-agent-token': devExpiring() };
      await accepted({ ...token, 'x-agent-id': 'be-dev-1', 'x-agent-team': 'backend' }, proven);
      await accepted({ ...token, 'x-agent-id': dev.id, 'x-agent-role': 'developer' }, proven);
      await refused({ ...token, 'x-agent-id': 'be-dev-2' });
      await refused({ ...token, 'x-agent-id': 'be-dev-1', 'x-agent-team': 'frontend' });
      await refused({ ...token, 'x-agent-id': 'be-dev-1', 'x-agent-role': 'qa' });
    });

    it('with agreeing headers is still a developer: a CEO-only route answers 403', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/settings',
        headers: { 'x-agent-token': devToken(), 'x-agent-id': 'be-dev-1' },
      });
      expect(response.statusCode).toBe(403);
    });
  });
}

describe('identity headers agreeing with the token, secure mode on (the default)', () => suite(true));
describe('identity headers agreeing with the token, secure mode off (a presented token still rules)', () =>
  suite(false));
