import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ config: { internalNetworks: ['10.1.0.0/16'] } });
});
afterAll(() => t.close());

describe('probes', () => {
  it('/health answers 200 with the version', async () => {
    const response = await t.app.inject({ url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', version: expect.any(String) });
  });

  it('/ready reports both stores as healthy', async () => {
    const response = await t.app.inject({ url: '/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: 'ok',
      checks: {
        database: { ok: true, kind: t.platform.database.kind },
        cache: { ok: true, mode: t.platform.cache.mode },
      },
    });
  });
});

describe('internal-only routes', () => {
  const from = (remoteAddress: string, headers: Record<string, string> = {}) => ({ remoteAddress, headers });

  it.each([
    ['loopback', from('127.0.0.1'), 200],
    ['an internal network', from('10.1.2.3'), 200],
    ['an outside address', from('203.0.113.9'), 404],
    [
      'an outside client forwarded by a trusted loopback proxy',
      from('127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }),
      404,
    ],
    // 0.29.0 security fix: a forwarded (LAN or internal-network) address never rides the whitelist,
    // and the probe is never reachable through the reverse proxy.
    [
      'an internal-network client forwarded by a trusted loopback proxy',
      from('127.0.0.1', { 'x-forwarded-for': '10.1.9.9' }),
      404,
    ],
    [
      'a loopback client forwarded by a trusted loopback proxy',
      from('127.0.0.1', { 'x-forwarded-for': '127.0.0.1' }),
      404,
    ],
    [
      'an outside peer claiming to forward a loopback client',
      from('203.0.113.9', { 'x-forwarded-for': '127.0.0.1' }),
      404,
    ],
  ])('/_guard/status from %s → %s', async (_name, request, status) => {
    const response = await t.app.inject({ url: '/_guard/status', ...request });
    expect(response.statusCode).toBe(status);
    if (status === 404) expect(response.json().error.code).toBe('not_found');
    else expect(response.json()).toMatchObject({ status: 'ok', guard: { scan_response_body: false } });
  });

  it('/metrics serves Prometheus text with request counts by route to internal callers only', async () => {
    await t.app.inject({ url: '/health' });
    const response = await t.app.inject({ url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/plain');
    expect(response.body).toMatch(
      /gaffer_http_request_duration_seconds_count\{method="GET",route="\/health",status_code="200"\} \d+/,
    );
    const outside = await t.app.inject({ url: '/metrics', remoteAddress: '198.51.100.1' });
    expect(outside.statusCode).toBe(404);
  });
});

describe('API documentation', () => {
  it('/docs serves the interactive UI', async () => {
    const response = await t.app.inject({ url: '/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('swagger');
  });

  it('/docs/json is a valid OpenAPI 3 document covering every registered route', async () => {
    const response = await t.app.inject({ url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);

    const documented = new Set<string>();
    const operationIds: string[] = [];
    for (const [path, item] of Object.entries(
      document.paths as Record<string, Record<string, { operationId?: string }>>,
    )) {
      const fastifyPath = path.replace(/\{([^}]+)\}/g, ':$1');
      for (const [method, operation] of Object.entries(item)) {
        documented.add(`${method.toUpperCase()} ${fastifyPath}`);
        operationIds.push(operation.operationId ?? `(none: ${method} ${path})`);
      }
    }
    expect(t.app.routeCatalogue.length).toBeGreaterThan(5);
    const missing = t.app.routeCatalogue.filter((route) => !documented.has(route));
    expect(missing).toEqual([]);
    // Every operation has an operationId of its own (what generated clients name methods by);
    // the panel's page fallback is no operation.
    expect(operationIds.filter((id) => !/^[a-z][A-Za-z0-9]+$/.test(id))).toEqual([]);
    expect(new Set(operationIds).size).toBe(operationIds.length);
    expect(document.paths['/{*}']).toBeUndefined();
    expect(document.servers).toEqual([{ url: '/', description: 'This Gaffer server' }]);
    expect(document.components.securitySchemes.agentToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Agent-Token',
    });
  });
});
