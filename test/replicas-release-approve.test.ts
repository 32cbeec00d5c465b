/**
 * The release approve's single flight across two real `gaffer start` replicas on one PostgreSQL and
 * one Redis: the same approve sent to both at once gives one 202 and one 409 `release_in_flight`,
 * both replicas then see the one approve in flight, and the forge gets one release. (Two app
 * instances in one test process: engines-release-replicas.test.ts.)
 *
 * Needs the real servers: skipped without GAFFER_TEST_DATABASE_URL and GAFFER_TEST_REDIS_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp } from './support/app.js';
import { type FakeForge, startFakeForge } from './support/fake-forge/index.js';
import {
  ciRun,
  gafferProject,
  type ReleaseClient,
  type ReleaseRepo,
  releaseRoutes,
  seedReleaseRepo,
  waitForProposal,
} from './support/release-world.js';
import { type Replica, type Replicas, startReplicas } from './support/replicas.js';
import { createTestStores, type TestStores, testDatabaseUrl, testRedisUrl } from './support/stores.js';

const RELEASE_ENV = {
  GAFFER_RELEASE_MANAGER_ENABLED: 'true',
  GAFFER_RELEASE_MIN_COMMITS: '1',
  GAFFER_RELEASE_CI_POLL_SECONDS: '1',
  GAFFER_RELEASE_CI_TIMEOUT_SECONDS: '120',
  GAFFER_RELEASE_PROJECT: 'gaffer',
  GAFFER_RELEASE_MANAGER_INTERVAL_SECONDS: '86400',
};

const client = (r: Replica): ReleaseClient => ({
  async request(method, path, body) {
    const response = await r.asCeo(path, { method, ...(body === undefined ? {} : { body }) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  },
});

describe.skipIf(!testDatabaseUrl || !testRedisUrl)(
  'release approve across two gaffer start replicas (needs GAFFER_TEST_DATABASE_URL and GAFFER_TEST_REDIS_URL)',
  () => {
    let stores: TestStores;
    let forge: FakeForge;
    let repo: ReleaseRepo;
    let cluster: Replicas;

    beforeAll(async () => {
      forge = await startFakeForge();
      repo = await seedReleaseRepo();
      forge.serveGit('acme', 'gaffer', repo.bare);
      stores = await createTestStores();
      const setup = await startTestApp({ stores });
      await setup.settings.service.set('release_manager', true, 'ceo');
      await setup.close();
      cluster = await startReplicas(2, stores, { env: RELEASE_ENV });
    }, 120_000);
    afterAll(async () => {
      await cluster?.close();
      await stores?.dispose();
      await forge?.close();
      repo?.cleanup();
    }, 60_000);

    it('lets one approve through and refuses the other 409, and releases once', async () => {
      const [first, second] = cluster.replicas as [Replica, Replica];
      const created = await first.asCeo('/api/projects', { body: gafferProject(forge) });
      expect(created.status, await created.clone().text()).toBe(201);
      ciRun(forge, await repo.commit('dev', { 'src/a.ts': 'a\n' }, 'feat: replicated'), 'success');
      const one = releaseRoutes(client(first));
      const two = releaseRoutes(client(second));
      const opened = await one.runNow();
      expect(opened.body.tasks_opened, JSON.stringify(opened.body)).toBe(1);
      expect((await two.proposal()).body.version).toBe('0.2.0');

      const answers = await Promise.all([one.approve(), two.approve()]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body.error.code).toBe('release_in_flight');
      for (const replica of [one, two]) {
        expect((await replica.proposal()).body).toMatchObject({ execute_in_flight: true });
        expect((await replica.approve()).status).toBe(409);
      }
      const pushed = await waitForProposal(
        client(second),
        (answer) => answer.body?.execute_step === 'release_ci' && !!answer.body?.commit_sha,
        60_000,
      );
      ciRun(forge, pushed.body.commit_sha, 'success', { branch: 'prod' });
      await waitForProposal(client(first), (answer) => answer.status === 404, 60_000);
      expect(forge.releases('acme', 'gaffer')).toHaveLength(1);
    }, 150_000);
  },
);
