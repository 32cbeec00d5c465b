/**
 * A backing store going down under two real `gaffer start` replicas, each reaching PostgreSQL and
 * Redis through a TCP proxy the test cuts and restores (the machine's servers are never stopped).
 * Redis cut: /ready is 503-degraded naming the cache on both, the routes that do not need Redis
 * (task writes, the board, settings) keep answering on both, and once Redis is back the cross-replica
 * fan-out works again without a restart. PostgreSQL cut: both answer 503 `store_unavailable` and
 * /ready names the database; both heal when it is back. (One in-process app's outage behaviour,
 * route by route, is store-outage.test.ts.)
 *
 * Needs the real servers: skipped without GAFFER_TEST_DATABASE_URL and GAFFER_TEST_REDIS_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskBody } from '../src/modules/tasks/test-fixtures.js';
import {
  eventually,
  type JsonAnswer,
  type Replica,
  type Replicas,
  startReplicas,
} from './support/replicas.js';
import { createTestStores, type TestStores, testDatabaseUrl, testRedisUrl } from './support/stores.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';
import { connect } from './support/ws-client.js';

async function proxied(url: string, defaultPort: number): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(url);
  const proxy = await startTcpProxy(target.hostname, Number(target.port || defaultPort));
  target.hostname = '127.0.0.1';
  target.port = String(proxy.port);
  return { proxy, url: target.toString() };
}

describe.skipIf(!testDatabaseUrl || !testRedisUrl)(
  'store outages under two gaffer start replicas (needs GAFFER_TEST_DATABASE_URL and GAFFER_TEST_REDIS_URL)',
  () => {
    let stores: TestStores;
    let cluster: Replicas;
    let replicas: Replica[];
    let pg: { proxy: TcpProxy; url: string };
    let redis: { proxy: TcpProxy; url: string };
    let projectId: string;

    beforeAll(async () => {
      stores = await createTestStores();
      pg = await proxied(stores.databaseUrl!, 5432);
      redis = await proxied(stores.redisUrl!, 6379);
      cluster = await startReplicas(2, stores, {
        env: { GAFFER_DATABASE_URL: pg.url, GAFFER_REDIS_URL: redis.url, GAFFER_READY_TIMEOUT_MS: '1000' },
      });
      replicas = cluster.replicas;
      const project = await replicas[0]!.asCeo('/api/projects', {
        body: { slug: 'outage', name: 'Outage', git_url: 'https://github.com/acme/outage.git' },
      });
      expect(project.status).toBe(201);
      projectId = ((await project.json()) as { id: string }).id;
    }, 120_000);
    afterAll(async () => {
      await pg?.proxy.restore().catch(() => {});
      await redis?.proxy.restore().catch(() => {});
      await cluster?.close();
      await pg?.proxy.close();
      await redis?.proxy.close();
      await stores?.dispose();
    }, 60_000);

    const ready = async (r: Replica) => {
      const response = await fetch(`${r.base}/ready`);
      return { status: response.status, body: (await response.json()) as JsonAnswer };
    };

    it('Redis down: /ready names the cache, routes without Redis answer on both, fan-out heals', async () => {
      await redis.proxy.cut();
      for (const r of replicas) {
        await eventually(async () => {
          const answer = await ready(r);
          expect(answer.status).toBe(503);
          expect(answer.body).toMatchObject({
            status: 'degraded',
            checks: { cache: { ok: false, error: 'unreachable' }, database: { ok: true } },
          });
        });
        const created = await r.asCeo('/api/tasks', {
          body: taskBody({ project_id: projectId, title: `During ${r.index}` }),
        });
        expect(created.status, `replica ${r.index}`).toBe(201);
        expect((await r.asCeo('/api/kanban')).status, `replica ${r.index}`).toBe(200);
        expect((await r.asCeo('/api/settings/feature-flags')).status, `replica ${r.index}`).toBe(200);
      }

      await redis.proxy.restore();
      for (const r of replicas)
        await eventually(async () => expect((await ready(r)).status).toBe(200), 30_000);
      // The subscriber reconnected: a pause on one replica reaches a socket on the other.
      const { client } = await connect(`ws://127.0.0.1:${replicas[1]!.port}/ws/system`);
      try {
        await eventually(
          async () => {
            const paused = await replicas[0]!.asCeo('/api/maintenance-pause/engines', {
              body: { mode: 'drain', reason: 'after the outage' },
            });
            expect(paused.status).toBe(200);
            expect(await client.next(2_000)).toMatchObject({
              type: 'MAINTENANCE_PAUSE_CHANGED',
              scope: 'engines',
            });
          },
          30_000,
          500,
        );
      } finally {
        client.close();
      }
      expect((await replicas[1]!.asCeo('/api/maintenance-pause/engines', { method: 'DELETE' })).status).toBe(
        200,
      );
    }, 120_000);

    it('PostgreSQL down: both answer 503 store_unavailable and /ready names the database; both heal', async () => {
      await pg.proxy.cut();
      for (const r of replicas) {
        const kanban = await r.asCeo('/api/kanban');
        expect(kanban.status, `replica ${r.index}`).toBe(503);
        const body = (await kanban.json()) as JsonAnswer;
        expect(body.error).toMatchObject({ code: 'store_unavailable', details: { store: 'database' } });
        expect(body.correlation_id).toEqual(expect.any(String));
        const answer = await ready(r);
        expect(answer.status).toBe(503);
        expect(answer.body.checks.database).toMatchObject({ ok: false, error: 'unreachable' });
      }
      await pg.proxy.restore();
      for (const r of replicas) {
        await eventually(async () => expect((await ready(r)).status).toBe(200), 30_000);
        const created = await r.asCeo('/api/tasks', {
          body: taskBody({ project_id: projectId, title: `After ${r.index}` }),
        });
        expect(created.status, `replica ${r.index}`).toBe(201);
      }
    }, 120_000);
  },
);
