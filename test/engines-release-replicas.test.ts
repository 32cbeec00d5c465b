/**
 * The release approve's single flight across replicas: two app instances on one PostgreSQL (and
 * Redis when GAFFER_TEST_REDIS_URL is set) approve at the same moment — exactly one 202, one 409 —
 * and the other replica sees the approve in flight. Needs a shared database: skipped when
 * GAFFER_TEST_DATABASE_URL is unset (embedded PGlite is one process's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { startAppWithFlags } from './support/engines.js';
import { type FakeForge, startFakeForge } from './support/fake-forge/index.js';
import {
  ciRun,
  gafferProject,
  injectClient,
  RELEASE_CONFIG,
  type ReleaseRepo,
  releaseRoutes,
  seedReleaseRepo,
  waitForProposal,
} from './support/release-world.js';
import { createTestStores, type TestStores, testDatabaseUrl } from './support/stores.js';

describe.skipIf(!testDatabaseUrl)('release approve across two replicas', () => {
  let stores: TestStores;
  let forge: FakeForge;
  let repo: ReleaseRepo;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    forge = await startFakeForge();
    repo = await seedReleaseRepo();
    forge.serveGit('acme', 'gaffer', repo.bare);
    stores = await createTestStores();
    first = await startAppWithFlags(['release_manager'], { config: RELEASE_CONFIG, stores });
    second = await startTestApp({ config: RELEASE_CONFIG, stores });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await stores?.dispose();
    await forge?.close();
    repo?.cleanup();
  });

  it('lets one approve through and refuses the other 409, whichever replica each hits', async () => {
    const created = await first.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: first.ceoHeaders,
      payload: gafferProject(forge),
    });
    expect(created.statusCode, created.body).toBe(201);
    ciRun(forge, await repo.commit('dev', { 'src/a.ts': 'a\n' }, 'feat: replicated'), 'success');
    const one = releaseRoutes(injectClient(first.app, first.ceoHeaders));
    const two = releaseRoutes(injectClient(second.app, second.ceoHeaders));
    expect((await one.runNow()).body.tasks_opened).toBe(1);
    expect((await two.proposal()).body.version).toBe('0.2.0');

    const answers = await Promise.all([one.approve(), two.approve()]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.error.code).toBe('release_in_flight');

    // Both replicas see the one approve in flight, and both refuse another.
    for (const replica of [one, two]) {
      expect((await replica.proposal()).body).toMatchObject({
        execute_status: 'running',
        execute_in_flight: true,
      });
      expect((await replica.approve()).status).toBe(409);
    }
    const pushed = await waitForProposal(
      injectClient(second.app, second.ceoHeaders),
      (answer) => answer.body?.execute_step === 'release_ci' && !!answer.body?.commit_sha,
    );
    ciRun(forge, pushed.body.commit_sha, 'success', { branch: 'prod' });
    await waitForProposal(injectClient(first.app, first.ceoHeaders), (answer) => answer.status === 404);
    expect((await two.proposal()).status).toBe(404);
    expect(forge.releases('acme', 'gaffer')).toHaveLength(1);
  });
});
