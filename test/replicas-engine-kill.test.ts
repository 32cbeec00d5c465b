/**
 * An engine sweep's lease holder killed mid-sweep: real `gaffer start` processes run CI-watch every
 * 2 s against the fake forge, which answers slowly so that a sweep is in flight; the process
 * running it is SIGKILLed. With PostgreSQL and Redis (GAFFER_TEST_DATABASE_URL and
 * GAFFER_TEST_REDIS_URL) there are three replicas and another takes the loop over once the dead
 * one's lease has expired; on the embedded store there is one, started again on its data. Either
 * way the red run gets its fix task, and only one — however many sweeps follow, wherever they run.
 * (Leases across replicas with a quick loop are in replicas.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from './support/app.js';
import { type FakeForge, startFakeForge } from './support/fake-forge/index.js';
import {
  eventually,
  type JsonAnswer,
  type Replica,
  type Replicas,
  startReplicas,
} from './support/replicas.js';
import { createTestStores, type TestStores, testDatabaseUrl, testRedisUrl } from './support/stores.js';

const LOOP = 'board-program.ci_watch';

const COUNT = testDatabaseUrl && testRedisUrl ? 3 : 1;

describe(`CI-watch on ${COUNT} gaffer start process(es), the sweeping one SIGKILLed mid-sweep`, () => {
  let stores: TestStores;
  let forge: FakeForge;
  let cluster: Replicas;
  let replicas: Replica[];

  beforeAll(async () => {
    forge = await startFakeForge();
    stores = await createTestStores();
    // Flags apply at boot: persist ci_watch before the replicas start.
    const setup = await startTestApp({ stores });
    await setup.settings.service.set('ci_watch', true, 'ceo');
    await setup.close();
    // A short loop lease: the survivors take the dead one's loop over within 6 s, not 30.
    cluster = await startReplicas(COUNT, stores, {
      env: { GAFFER_CI_WATCH_INTERVAL_SECONDS: '2', GAFFER_LOOP_LEASE_SECONDS: '6' },
    });
    replicas = cluster.replicas;
  }, 120_000);
  afterAll(async () => {
    await cluster?.close();
    await stores?.dispose();
    await forge?.close();
  }, 60_000);

  const state = async (r: Replica) =>
    ((await (await r.asCeo('/api/orchestrator/state')).json()) as JsonAnswer).loops.find(
      (loop: JsonAnswer) => loop.name === LOOP,
    ) as JsonAnswer;
  const fixTasks = async (r: Replica) =>
    ((await (await r.asCeo('/api/tasks?source=ci_watch&limit=200')).json()) as JsonAnswer)
      .tasks as JsonAnswer[];

  it('the sweep is taken up again after the dead lease expires, and the red run gets one task', async () => {
    forge.latencyMs = 1_500;
    const project = await replicas[0]!.asCeo('/api/projects', {
      body: {
        slug: 'watched',
        name: 'Watched',
        git_url: 'https://github.com/acme/watched.git',
        git_provider: 'github',
        forge_api_url: forge.githubApiUrl,
        git_token: forge.token,
        ci_watch_enabled: true,
        ci_watch_workflow: 'ci.yml',
        assigned_cell: 'backend',
      },
    });
    expect(project.status).toBe(201);
    forge.addRun({
      owner: 'acme',
      repo: 'watched',
      workflow: 'ci.yml',
      branch: 'main',
      headSha: 'a'.repeat(40),
      conclusion: 'failure',
      name: 'CI',
    });

    // Find the replica with a sweep in flight, and kill it there.
    const sweeping = await eventually(
      async () => {
        for (const r of replicas) if ((await state(r)).running) return r;
        throw new Error('no sweep in flight yet');
      },
      30_000,
      100,
    );
    await sweeping.kill();
    forge.latencyMs = 0;
    let survivors = replicas.filter((r) => r !== sweeping);
    if (!survivors.length) {
      // One process: it comes back on the same data, and sweeps once the dead lease expired.
      await sweeping.restart();
      survivors = [sweeping, sweeping];
    }

    await eventually(async () => expect(await fixTasks(survivors[0]!)).toHaveLength(1), 60_000, 500);
    // More sweeps come and go (on either survivor): still one task.
    const passes = (await state(survivors[0]!)).passes as number;
    await eventually(
      async () => expect((await state(survivors[1]!)).passes).toBeGreaterThanOrEqual(passes + 2),
      30_000,
      500,
    );
    const tasks = await fixTasks(survivors[1]!);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({ source: 'ci_watch', project_id: expect.any(String) });

    if (COUNT === 1) return;
    // The killed replica comes back and joins without opening another.
    await sweeping.restart();
    const after = (await state(sweeping)).passes as number;
    await eventually(
      async () => expect((await state(sweeping)).passes).toBeGreaterThanOrEqual(after + 2),
      30_000,
      500,
    );
    expect(await fixTasks(sweeping)).toHaveLength(1);
  }, 150_000);
});
