/**
 * The scheduler inside a running app: its loops on /api/orchestrator/state and /metrics, and two
 * app instances sharing the stores (PostgreSQL, and Redis when present) where a sweep runs on
 * exactly one of them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_COMPANY } from '../src/modules/agents/index.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createTestStores, type TestStores, testDatabaseUrl } from './support/stores.js';

const apps: TestApp[] = [];
let shared: TestStores | undefined;

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
  await shared?.dispose();
  shared = undefined;
});

async function start(stores?: TestStores): Promise<TestApp> {
  const app = await startTestApp({ stores });
  apps.push(app);
  return app;
}

describe('GET /api/orchestrator/state', () => {
  it('lists every loop with its last success, for the CEO only', async () => {
    const t = await start();
    t.scheduler.register({ name: 'test.probe', intervalMs: 3_600_000, run: async () => {} });
    expect(await t.scheduler.runNow('test.probe')).toEqual({ status: 'succeeded' });

    const response = await t.app.inject({ url: '/api/orchestrator/state', headers: t.ceoHeaders });
    expect(response.statusCode).toBe(200);
    const loops = response.json().loops as Array<Record<string, unknown>>;
    const loop = (name: string) => loops.find((candidate) => candidate.name === name);
    expect(loops.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['notifications.sweep', 'test.probe']),
    );
    expect(loop('notifications.sweep')).toMatchObject({ passes: 0, last_success_at: null, stalled: false });
    expect(loop('test.probe')).toMatchObject({
      passes: 1,
      failures: 0,
      interval_seconds: 3600,
      stalled: false,
    });
    expect(Date.parse(String(loop('test.probe')?.last_success_at))).not.toBeNaN();

    const pm = DEFAULT_COMPANY.find((agent) => agent.role === 'main_pm');
    const refused = await t.app.inject({
      url: '/api/orchestrator/state',
      headers: t.headersFor(pm!.slug, 'main_pm', 'main_pm'),
    });
    expect(refused.statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/orchestrator/state' })).statusCode).toBe(401);
  });

  it('exposes the last success of each loop as a metric', async () => {
    const t = await start();
    t.scheduler.register({ name: 'test.probe', intervalMs: 3_600_000, run: async () => {} });
    await t.scheduler.runNow('test.probe');
    const metrics = (await t.app.inject({ url: '/metrics' })).body;
    const line = metrics
      .split('\n')
      .find((row) => row.startsWith('gaffer_scheduler_last_success_timestamp_seconds{loop="test.probe"}'));
    const seconds = Number(line?.split(' ')[1]);
    expect(Math.abs(seconds * 1000 - Date.now())).toBeLessThan(60_000);
    expect(metrics).toContain(
      'gaffer_scheduler_last_success_timestamp_seconds{loop="notifications.sweep"} 0',
    );
    expect(metrics).toContain('gaffer_scheduler_failures{loop="test.probe"} 0');
  });
});

describe.skipIf(!testDatabaseUrl)('two app instances on one PostgreSQL', () => {
  it('run a sweep on exactly one of them', async () => {
    shared = await createTestStores();
    const replicas = [await start(shared), await start(shared)];
    const ranOn: number[] = [];
    replicas.forEach((replica, index) => {
      replica.scheduler.register({
        name: 'test.shared-sweep',
        intervalMs: 3_600_000,
        firstRunAfterMs: 0,
        run: async () => {
          ranOn.push(index);
          await new Promise((resolve) => setTimeout(resolve, 200));
        },
      });
    });
    const state = async () =>
      (
        await replicas[1]!.app.inject({ url: '/api/orchestrator/state', headers: replicas[1]!.ceoHeaders })
      ).json().loops as Array<{ name: string; passes: number; running: boolean }>;
    for (let i = 0; i < 200; i += 1) {
      const sweep = (await state()).find((loop) => loop.name === 'test.shared-sweep');
      if (sweep && sweep.passes === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ranOn).toHaveLength(1);
    // Both replicas read the same shared record.
    const fromFirst = (
      await replicas[0]!.app.inject({ url: '/api/orchestrator/state', headers: replicas[0]!.ceoHeaders })
    ).json().loops as Array<{ name: string; passes: number }>;
    expect(fromFirst.find((loop) => loop.name === 'test.shared-sweep')?.passes).toBe(1);
  });
});
