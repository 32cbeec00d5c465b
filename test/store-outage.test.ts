/**
 * A backing store going down, end to end: the full app on PostgreSQL and Redis, each behind a TCP
 * proxy the test cuts and restores. While PostgreSQL is cut every route listed answers 503
 * `store_unavailable` with `Retry-After` and no SQL or driver text, `/ready` is 503-degraded with a
 * bare `unreachable`, and the pause rows fail closed without SQL. While Redis is cut the gateway's
 * breaker fails open (verbs answer; nothing is counted), task writes still answer 201, and the
 * release approve fails closed (503: no approve without the lock). Restoring the proxy heals every
 * route without restarting the app.
 *
 * These need the real servers: skipped without GAFFER_TEST_DATABASE_URL (the PostgreSQL case) or
 * GAFFER_TEST_REDIS_URL (the Redis case).
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { rosterMember } from '../src/modules/agents/index.js';
import { taskBody } from '../src/modules/tasks/test-fixtures.js';
import { STORE_RETRY_AFTER_SECONDS } from '../src/platform/http/errors.js';
import { insertProject, insertTask } from './fixtures-task-rows.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createTestStores, type TestStores, testDatabaseUrl, testRedisUrl } from './support/stores.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';

let t: TestApp | undefined;
let stores: TestStores | undefined;
let proxy: TcpProxy | undefined;

afterEach(async () => {
  await proxy?.restore().catch(() => {});
  await t?.close();
  await proxy?.close();
  await stores?.dispose();
  t = stores = proxy = undefined;
});

const viaProxy = (url: string, port: number) => {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
};

async function proxied(url: string, defaultPort: number): Promise<{ proxy: TcpProxy; url: string }> {
  const target = new URL(url);
  const started = await startTcpProxy(target.hostname, Number(target.port || defaultPort));
  return { proxy: started, url: viaProxy(url, started.port) };
}

async function startApp(config: Partial<Config>): Promise<TestApp> {
  return startTestApp({ stores, config: { readyTimeoutMs: 1_000, ...config } });
}

/** Retries until `check` passes (the store's clients reconnect in the background). */
async function eventually(check: () => Promise<void>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** No SQL, no driver's words: what the outages below would otherwise leak. */
const LEAKS =
  /select|insert|update |Failed query|params:|ECONNREFUSED|ECONNRESET|Connection terminated|timeout exceeded|Stream isn't writeable|Connection is closed|MaxRetries/i;

function expectStoreUnavailable(response: LightMyRequestResponse, store: 'database' | 'cache', what: string) {
  expect(response.statusCode, `${what}: ${response.body}`).toBe(503);
  expect(response.headers['retry-after'], what).toBe(String(STORE_RETRY_AFTER_SECONDS));
  const body = response.json();
  expect(body.error, what).toMatchObject({ code: 'store_unavailable', details: { store } });
  expect(body.error.message, what).toContain(store);
  expect(body.correlation_id, what).toEqual(expect.any(String));
  expect(response.body, what).not.toMatch(LEAKS);
}

/** The routes of the issue, as the CEO or an agent calls them. */
function routes(app: TestApp, projectId: string) {
  const dev = rosterMember('be-dev-2');
  const devHeaders = app.headersFor(dev.id, dev.role, dev.team ?? '');
  const ceo = app.ceoHeaders;
  const inject = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => app.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  return {
    kanban: () => inject('GET', '/api/kanban', ceo),
    listTasks: () => inject('GET', '/api/tasks', ceo),
    createTask: () =>
      inject(
        'POST',
        '/api/tasks',
        ceo,
        taskBody({ project_id: projectId, assigned_to: 'be-dev-1', team: 'backend' }),
      ),
    pause: () =>
      inject('POST', '/api/maintenance-pause/engines', ceo, { mode: 'drain', reason: 'outage drill' }),
    resume: () => inject('DELETE', '/api/maintenance-pause/engines', ceo),
    pauses: () => inject('GET', '/api/maintenance-pause', ceo),
    giveMeWork: () => inject('POST', '/api/v1/flow/developer/give_me_work', devHeaders, {}),
    iAmDone: (taskId: string) =>
      inject('POST', '/api/v1/flow/developer/i_am_done', devHeaders, {
        task_id: taskId,
        notes: 'Added the endpoint and its test; all green locally.',
      }),
    approve: () => inject('POST', '/api/release/proposal/approve', ceo, {}),
    ready: () => app.app.inject({ url: '/ready' }),
  };
}

/** An open release proposal (a held task of the release manager carrying its report). */
async function openProposal(app: TestApp, projectId: string): Promise<void> {
  await insertTask(app.platform.database.db, {
    projectId,
    source: 'release_manager',
    status: 'backlog',
    held: true,
    title: 'Release 0.2.0',
    markers: { release_report: { version: '0.2.0' } },
  });
}

describe('PostgreSQL unreachable (skipped without GAFFER_TEST_DATABASE_URL)', () => {
  it.skipIf(!testDatabaseUrl)(
    'every route answers 503 store_unavailable without SQL, /ready degrades, and all recover when it is back',
    async () => {
      stores = await createTestStores();
      const pg = await proxied(stores.databaseUrl!, 5432);
      proxy = pg.proxy;
      t = await startApp({ databaseUrl: pg.url });
      const projectId = await insertProject(t.platform.database.db);
      await openProposal(t, projectId);
      const r = routes(t, projectId);
      expect((await r.ready()).statusCode).toBe(200);

      await proxy.cut();
      const calls = {
        kanban: r.kanban,
        'GET /api/tasks': r.listTasks,
        'POST /api/tasks': r.createTask,
        'pause POST': r.pause,
        'pause DELETE': r.resume,
        'pause GET': r.pauses,
        'gateway give_me_work': r.giveMeWork,
        'release approve': r.approve,
      };
      for (const [what, call] of Object.entries(calls))
        expectStoreUnavailable(await call(), 'database', what);

      const ready = await r.ready();
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        status: 'degraded',
        checks: { database: { ok: false, kind: 'postgres', error: 'unreachable' } },
      });
      expect(ready.body).not.toMatch(LEAKS);

      // Reading the pause state fails closed, and says why without SQL: in the rows the GET shows
      // (the route itself answers 503 above, as authenticating needs the database) and in the hold
      // the scheduler's loops see.
      const maintenance = t.modules.maintenance;
      for (const row of await maintenance.service.list()) {
        expect(row).toMatchObject({ paused: true, read_degraded_since: expect.any(String) });
        expect(row.reason).toContain('the database is unreachable');
        expect(JSON.stringify(row)).not.toMatch(LEAKS);
      }
      const hold = await maintenance.holdFor(['engines']);
      expect(hold?.reason).toContain('could not be read');
      expect(hold?.reason).not.toMatch(LEAKS);

      await proxy.restore();
      await eventually(async () => expect((await r.ready()).statusCode).toBe(200));
      expect((await r.kanban()).statusCode).toBe(200);
      expect((await r.listTasks()).statusCode).toBe(200);
      expect((await r.createTask()).statusCode).toBe(201);
      expect((await r.pause()).statusCode).toBe(200);
      expect((await r.resume()).statusCode).toBe(200);
      const work = await r.giveMeWork();
      expect(work.statusCode, work.body).toBe(200);
      expect(work.json().ok).toBe(true);
      expect((await r.approve()).statusCode).toBe(202);
      const recovered = await r.pauses();
      for (const row of recovered.json().scopes) expect(row).toMatchObject({ read_degraded_since: null });
    },
  );
});

describe('Redis unreachable (skipped without GAFFER_TEST_REDIS_URL)', () => {
  it.skipIf(!testRedisUrl)(
    'gateway verbs answer (the breaker fails open), writes answer, the release approve fails closed, and all recover',
    async () => {
      stores = await createTestStores();
      const redis = await proxied(testRedisUrl!, 6379);
      proxy = redis.proxy;
      t = await startApp({ redisUrl: redis.url });
      const projectId = await insertProject(t.platform.database.db);
      const r = routes(t, projectId);
      const held = await r.createTask();
      expect(held.statusCode, held.body).toBe(201);
      const taskId = held.json().id as string;
      await openProposal(t, projectId);

      await proxy.cut();
      // Writes commit and answer; their events are dropped (logged once), not turned into an error.
      expect((await r.createTask()).statusCode).toBe(201);
      expect((await r.kanban()).statusCode).toBe(200);
      const work = await r.giveMeWork();
      expect(work.statusCode, work.body).toBe(200);
      expect(work.json().ok).toBe(true);
      // A counted rejection, four times: the breaker counts nothing while it cannot, so no circuit_open.
      for (let i = 0; i < 4; i++) {
        const done = await r.iAmDone(taskId);
        expect(done.statusCode, done.body).toBe(200);
        expect(done.json()).toMatchObject({ ok: false, error: 'invalid_state' });
      }
      // The release lock lives on Redis: no lock, no approve.
      expectStoreUnavailable(await r.approve(), 'cache', 'release approve');
      const ready = await r.ready();
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        status: 'degraded',
        checks: { cache: { ok: false, mode: 'redis', error: 'unreachable' }, database: { ok: true } },
      });

      await proxy.restore();
      await eventually(async () => expect((await r.ready()).statusCode).toBe(200));
      // The approve that failed started nothing and left no lock behind.
      expect((await r.approve()).statusCode).toBe(202);
      // The breaker counts again: the third counted rejection within the window opens it.
      const outcomes: string[] = [];
      for (let i = 0; i < 3; i++) outcomes.push((await r.iAmDone(taskId)).json().error);
      expect(outcomes).toEqual(['invalid_state', 'invalid_state', 'circuit_open']);
    },
  );
});
