/** The sign-in page, their Content-Security-Policy, the printed login URL and the routes' docs. */
import { createHash } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWith } from '../../../config.js';
import { CEO_ID } from './identity.js';
import { LOGIN_TOKEN_TTL_SECONDS, loginUrl } from './login-page.js';
import { type AuthTestApp, startAuthTestApp, TEST_SECRET } from './test-app.js';
import { verifyToken } from './tokens.js';

const NOW = new Date('2026-02-01T09:00:00Z');

describe('loginUrl', () => {
  const tokenOf = (url: string) => new URLSearchParams(new URL(url).hash.slice(1)).get('token')!;

  it('defaults to http://host:port/login with the token in the fragment', () => {
    const url = loginUrl(configWith({}), TEST_SECRET, NOW);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:8420\/login#token=[A-Za-z0-9_-]+\.[0-9a-f]{64}$/);
    expect(new URL(url).search).toBe('');
  });

  it('carries an expiring CEO token valid for 24 hours', () => {
    const token = tokenOf(loginUrl(configWith({}), TEST_SECRET, NOW));
    expect(verifyToken(TEST_SECRET, token, {}, NOW)).toEqual({
      ok: true,
      subject: { id: CEO_ID, role: 'ceo', team: '' },
      expiresAt: new Date(NOW.getTime() + LOGIN_TOKEN_TTL_SECONDS * 1000),
    });
    expect(LOGIN_TOKEN_TTL_SECONDS).toBe(86_400);
    const later = new Date(NOW.getTime() + LOGIN_TOKEN_TTL_SECONDS * 1000);
    expect(verifyToken(TEST_SECRET, token, {}, later)).toEqual({ ok: false, reason: 'expired' });
  });

  it('starts with the public URL when one is set', () => {
    expect(loginUrl(configWith({ publicUrl: 'https://gaffer.example.com/' }), TEST_SECRET, NOW)).toMatch(
      /^https:\/\/gaffer\.example\.com\/login#token=/,
    );
    expect(loginUrl(configWith({ publicUrl: 'https://example.com/gaffer' }), TEST_SECRET, NOW)).toMatch(
      /^https:\/\/example\.com\/gaffer\/login#token=/,
    );
  });

  it('brackets IPv6 hosts and turns wildcard binds into loopback', () => {
    expect(loginUrl(configWith({ host: '::1', port: 9000 }), TEST_SECRET, NOW)).toMatch(
      /^http:\/\/\[::1\]:9000\/login#/,
    );
    expect(loginUrl(configWith({ host: '0.0.0.0' }), TEST_SECRET, NOW)).toMatch(
      /^http:\/\/127\.0\.0\.1:8420\//,
    );
    expect(loginUrl(configWith({ host: '::' }), TEST_SECRET, NOW)).toMatch(/^http:\/\/\[::1\]:8420\//);
  });
});

describe('pages', () => {
  let t: AuthTestApp;
  beforeAll(async () => {
    t = await startAuthTestApp();
  });
  afterAll(() => t.close());

  const inlineHash = (html: string, tag: 'script' | 'style') => {
    const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(html);
    return `'sha256-${createHash('sha256').update(match![1]!).digest('base64')}'`;
  };

  for (const url of ['/login']) {
    it(`${url} is a self-contained page whose CSP allows exactly its inline script and style`, async () => {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain(`script-src ${inlineHash(response.body, 'script')};`);
      expect(csp).toContain(`style-src ${inlineHash(response.body, 'style')};`);
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(response.body).not.toMatch(/<script[^>]+src=|<link|https?:\/\//);
      expect(response.body.match(/<script>/g)).toHaveLength(1);
      expect(response.body).toContain('<h1>Gaffer</h1>');
    });
  }

  it('/login takes the token from the fragment, drops it from history, posts it, then goes home or back to the page that asked', async () => {
    const body = (await t.app.inject({ url: '/login' })).body;
    expect(body).toContain('location.hash');
    expect(body).toContain('history.replaceState');
    expect(body).toContain("'X-Agent-Token': token");
    expect(body).toContain("method: 'POST'");
    expect(body).toContain("'api/auth/session'");
    expect(body).toContain('location.replace(returnTo() || base)');
    // The page that asked is taken only from this origin's storage, under the panel's base path, fresh.
    expect(body).toContain("localStorage.getItem('gaffer-return-to')");
    expect(body).toContain("path.indexOf(base) === 0 && path.indexOf('//') < 0");
    expect(body).not.toContain('location.search.get');
  });

  it('documents the session routes and pages with tags and summaries in a valid OpenAPI document', async () => {
    const document = (await t.app.inject({ url: '/docs/json' })).json();
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    const operation = (path: string, method: string) => document.paths[path]?.[method];
    for (const method of ['post', 'get', 'delete']) {
      expect(operation('/api/auth/session', method)).toMatchObject({
        tags: ['auth'],
        summary: expect.any(String),
      });
    }
    for (const path of ['/login']) {
      expect(operation(path, 'get')).toMatchObject({ tags: ['panel'], summary: expect.any(String) });
      expect(operation(path, 'get').responses['200'].content).toHaveProperty('text/html');
    }
    expect(operation('/api/auth/session', 'post').security).toEqual([]);
    expect(operation('/api/auth/session', 'post').parameters).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'x-agent-token' }),
    );
    const missing = t.app.routeCatalogue.filter((route) => {
      const [method, path] = route.split(' ') as [string, string];
      return !document.paths[path.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
    });
    expect(missing).toEqual([]);
  });
});
