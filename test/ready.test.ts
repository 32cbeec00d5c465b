import { afterEach, describe, expect, it } from 'vitest';
import { buildApp, type Gaffer } from '../src/app.js';
import { pauseWrites } from '../src/platform/db/backup/index.js';
import { CEO_IDENTITY, staticToken } from '../src/platform/http/auth/index.js';
import {
  createTestStores,
  type TestPlatform,
  type TestStores,
  testDatabaseUrl,
  testRedisUrl,
} from './support/stores.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

let stores: TestStores | undefined;
let proxy: TcpProxy | undefined;
let platform: TestPlatform | undefined;
let gaffer: Gaffer | undefined;

afterEach(async () => {
  await gaffer?.app.close();
  await proxy?.close();
  await platform?.close();
  await stores?.dispose();
  gaffer = platform = proxy = stores = undefined;
});

async function ready() {
  const response = await gaffer!.app.inject({ url: '/ready' });
  return { status: response.statusCode, body: response.json() };
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('condition not met in time');
}

const viaProxy = (url: string, port: number) => {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
};

describe('/ready when a backing store goes away', () => {
  it.skipIf(!testRedisUrl)(
    'goes 503-degraded while Redis is unreachable and recovers when it is back',
    async () => {
      const target = new URL(testRedisUrl!);
      proxy = await startTcpProxy(target.hostname, Number(target.port || 6379));
      stores = await createTestStores();
      platform = await stores.platform({
        config: { redisUrl: viaProxy(testRedisUrl!, proxy.port), readyTimeoutMs: 500 },
      });
      gaffer = await buildApp(platform, { logger: false });
      expect((await ready()).status).toBe(200);

      await proxy.cut();
      const down = await ready();
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({
        status: 'degraded',
        checks: { cache: { ok: false, mode: 'redis' }, database: { ok: true } },
      });
      // Unauthenticated: a bare word, never the driver's message.
      expect(down.body.checks.cache.error).toBe('unreachable');

      await proxy.restore();
      await eventually(async () => (await ready()).status === 200);
    },
  );

  it.skipIf(!testDatabaseUrl)(
    'goes 503-degraded while PostgreSQL is unreachable and recovers when it is back',
    async () => {
      stores = await createTestStores();
      const target = new URL(stores.databaseUrl!);
      proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
      platform = await stores.platform({
        config: { databaseUrl: viaProxy(stores.databaseUrl!, proxy.port), readyTimeoutMs: 1000 },
      });
      gaffer = await buildApp(platform, { logger: false });
      expect((await ready()).status).toBe(200);

      await proxy.cut();
      const down = await ready();
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({
        status: 'degraded',
        checks: { database: { ok: false, kind: 'postgres', error: 'unreachable' } },
      });
      expect(JSON.stringify(down.body)).not.toMatch(/select|Failed query|ECONNREFUSED|terminated/i);

      await proxy.restore();
      await eventually(async () => (await ready()).status === 200);
    },
  );

  it.skipIf(!!testDatabaseUrl)('goes 503-degraded when the embedded database has stopped', async () => {
    stores = await createTestStores();
    platform = await stores.platform({ config: { readyTimeoutMs: 500 } });
    gaffer = await buildApp(platform, { logger: false });
    expect((await ready()).status).toBe(200);
    await platform.database.close();
    const down = await ready();
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({
      status: 'degraded',
      checks: { database: { ok: false, kind: 'pglite', error: 'unreachable' } },
    });
    expect(JSON.stringify(down.body)).not.toMatch(/select|Failed query|PGlite is closed/i);
  });

  it.skipIf(!!testDatabaseUrl)(
    'goes 503-degraded while the embedded store takes no writes (as after a move), and the doctor says why',
    async () => {
      stores = await createTestStores();
      platform = await stores.platform();
      gaffer = await buildApp(platform, { logger: false });
      const headers = { 'x-agent-token': staticToken(platform.secret, CEO_IDENTITY) };
      const doctorOnDatabase = async () => {
        const response = await gaffer!.app.inject({ url: '/api/system/doctor', headers });
        return (response.json().findings as { name: string }[]).find((f) => f.name === 'database');
      };
      expect((await ready()).status).toBe(200);

      const resume = await pauseWrites(platform.database);
      const down = await ready();
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({
        status: 'degraded',
        checks: { database: { ok: false, kind: 'pglite', error: 'takes no writes' }, cache: { ok: true } },
      });
      expect(await doctorOnDatabase()).toMatchObject({
        status: 'fail',
        detail: 'answers, but takes no writes (read-only)',
        remedy: expect.stringContaining('GAFFER_DATABASE_URL'),
      });

      await resume();
      expect((await ready()).status).toBe(200);
      expect(await doctorOnDatabase()).toMatchObject({ status: 'ok' });
    },
  );
});
