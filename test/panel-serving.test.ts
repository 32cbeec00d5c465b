/**
 * The panel as HTTP sees it: the built files served by the app (a stand-in build in a temp dir),
 * long-cached hashed assets, an index.html that is never cached, the SPA fallback for panel URLs
 * that leaves the API, sockets, docs and probes their JSON 404s, the page that says how to build
 * a missing panel, and the session cookie accepted on every REST route the panel calls.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type Gaffer } from '../src/app.js';
import { loginUrl } from '../src/platform/http/auth/login-page.js';
import { SESSION_COOKIE } from '../src/platform/http/auth/sessions.js';
import { classifyPanelPath, IMMUTABLE_CACHE } from '../src/platform/http/panel-static.js';
import { createTestStores, type TestPlatform, type TestStores } from './support/stores.js';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div></body></html>';
const ASSET = 'console.log("panel");';

describe('classifyPanelPath', () => {
  it('keeps server paths, finds assets and files, and calls the rest panel pages', () => {
    for (const path of [
      '/api',
      '/api/x',
      '/ws/system',
      '/docs',
      '/docs/json',
      '/health',
      '/ready',
      '/metrics',
      '/_guard/status',
      '/login/x',
    ])
      expect(classifyPanelPath(path), path).toBe('reserved');
    expect(classifyPanelPath('/assets/index-AbC123.js')).toBe('asset');
    expect(classifyPanelPath('/favicon.svg')).toBe('file');
    for (const path of ['/', '/tasks', '/tasks/123', '/apiary', '/projects/acme-api', '/healthcheck'])
      expect(classifyPanelPath(path), path).toBe('page');
  });
});

describe('serving the built panel', () => {
  let stores: TestStores;
  let platform: TestPlatform;
  let gaffer: Gaffer;
  let missing: Gaffer;
  let panelDir: string;

  beforeAll(async () => {
    panelDir = mkdtempSync(join(tmpdir(), 'gaffer-panel-'));
    mkdirSync(join(panelDir, 'assets'));
    writeFileSync(join(panelDir, 'index.html'), INDEX);
    writeFileSync(join(panelDir, 'assets', 'index-AbC123.js'), ASSET);
    writeFileSync(join(panelDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    stores = await createTestStores();
    platform = await stores.platform();
    gaffer = await buildApp(platform, { logger: false, panelDir });
    await gaffer.app.ready();
    missing = await buildApp(platform, { logger: false, panelDir: join(panelDir, 'not-built') });
    await missing.app.ready();
  });
  afterAll(async () => {
    await gaffer?.app.close();
    await missing?.app.close();
    await platform?.close();
    await stores?.dispose();
    rmSync(panelDir, { recursive: true, force: true });
  });

  it('answers / and every panel URL with index.html, never cached, under a strict CSP', async () => {
    for (const url of [
      '/',
      '/tasks',
      '/tasks/5f0c7a1e-1111-4222-8333-944445555666',
      '/agents/be-dev-1',
      '/settings?tab=flags',
    ]) {
      const response = await gaffer.app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.body, url).toBe(INDEX);
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-eval');
    }
  });

  it('serves hashed assets cached for a year and other build files revalidated', async () => {
    const asset = await gaffer.app.inject({ url: '/assets/index-AbC123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe(ASSET);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(IMMUTABLE_CACHE).toBe('public, max-age=31536000, immutable');

    const icon = await gaffer.app.inject({ url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers a missing asset or file with a 404, not with the page', async () => {
    for (const url of ['/assets/index-Gone00.js', '/nope.png']) {
      const response = await gaffer.app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('<div id="root">');
    }
    // An encoded parent step is the request guard's to refuse (403), never the page.
    const traversal = await gaffer.app.inject({ url: '/assets/..%2Findex.html' });
    expect(traversal.statusCode).toBe(403);
    expect(traversal.body).not.toContain('<div id="root">');
  });

  it('never swallows the API, sockets, docs or probes: they keep their own answers and JSON 404s', async () => {
    for (const url of [
      '/api/nope',
      '/api',
      '/ws/nope',
      '/docs/nope',
      '/health/x',
      '/ready/x',
      '/metrics/x',
      '/_guard/x',
    ]) {
      const response = await gaffer.app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toMatch(/^application\/json/);
      expect(response.json(), url).toMatchObject({
        error: { code: 'not_found' },
        correlation_id: expect.any(String),
      });
    }
    expect((await gaffer.app.inject({ url: '/health' })).json()).toMatchObject({ status: 'ok' });
    expect((await gaffer.app.inject({ url: '/docs/json' })).json()).toHaveProperty('openapi');
    expect((await gaffer.app.inject({ url: '/api/tasks' })).statusCode).toBe(401);
    expect((await gaffer.app.inject({ url: '/login' })).body).toContain('Signing in');
    // Only GET is a page: other methods on unknown paths are the API's JSON 404.
    const post = await gaffer.app.inject({ method: 'POST', url: '/tasks' });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('says plainly how to build the panel when it is missing', async () => {
    for (const url of ['/', '/tasks']) {
      const response = await missing.app.inject({ url });
      expect(response.statusCode, url).toBe(503);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('npm run build:panel');
    }
    expect((await missing.app.inject({ url: '/api/nope' })).json()).toMatchObject({
      error: { code: 'not_found' },
    });
  });

  it('accepts the session from the login link on every REST route the panel uses', async () => {
    const token = new URL(loginUrl(platform.config, platform.secret, new Date())).hash.split('token=')[1]!;
    const signIn = await gaffer.app.inject({
      method: 'POST',
      url: '/api/auth/session',
      headers: { 'x-agent-token': token },
    });
    expect(signIn.statusCode).toBe(200);
    const cookie = signIn.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    const cookies = { [SESSION_COOKIE]: cookie.value };

    const reads = [
      '/api/auth/session',
      '/api/maintenance-pause',
      '/api/settings/feature-flags',
      '/api/telegram/credentials',
      '/api/tasks?status=awaiting_ceo_approval',
      '/api/notifications',
      '/api/orchestrator/dispatcher',
      '/api/projects',
      '/api/agents',
      '/api/kanban',
    ];
    for (const url of reads) {
      const response = await gaffer.app.inject({ url, cookies });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    }
    const pause = await gaffer.app.inject({
      method: 'POST',
      url: '/api/maintenance-pause/dispatch',
      cookies,
      payload: { mode: 'drain', reason: 'panel session check' },
    });
    expect(pause.statusCode, pause.body).toBe(200);
    const resume = await gaffer.app.inject({
      method: 'DELETE',
      url: '/api/maintenance-pause/dispatch',
      cookies,
    });
    expect(resume.statusCode, resume.body).toBe(200);
    const flag = await gaffer.app.inject({
      method: 'PUT',
      url: '/api/settings/ci_watch',
      cookies,
      payload: { value: true },
    });
    expect(flag.statusCode, flag.body).toBe(200);

    // A signed-out (or expired) session is refused with a code the panel turns into the sign-in page.
    await gaffer.app.inject({ method: 'DELETE', url: '/api/auth/session', cookies });
    const after = await gaffer.app.inject({ url: '/api/maintenance-pause', cookies });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ error: { code: 'session_expired' } });
  });
});
