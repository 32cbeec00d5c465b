/**
 * kill -9 of the app in the middle of a release: `gaffer start` as a child process approves, the
 * executor pushes the release commit and waits for its CI (held pending by the fake forge), the
 * process is killed; after a restart the proposal reads `failed_interrupted` once the dead
 * holder's heartbeat lapses, and approving again resumes — the commit already on prod is reused —
 * and publishes: one release commit, one release.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type FakeForge, startFakeForge } from './support/fake-forge/index.js';
import { type GafferProcess, startGaffer } from './support/release-process.js';
import {
  ciRun,
  gafferProject,
  type ReleaseRepo,
  releaseRoutes,
  seedReleaseRepo,
  waitForProposal,
} from './support/release-world.js';

const VARIABLES = {
  GAFFER_RELEASE_MANAGER_ENABLED: 'true',
  GAFFER_RELEASE_MIN_COMMITS: '1',
  GAFFER_RELEASE_CI_POLL_SECONDS: '1',
  GAFFER_RELEASE_CI_TIMEOUT_SECONDS: '600',
  GAFFER_RELEASE_PROJECT: 'gaffer',
  GAFFER_RELEASE_MANAGER_INTERVAL_SECONDS: '86400',
};

let forge: FakeForge | undefined;
let repo: ReleaseRepo | undefined;
let gaffer: GafferProcess | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  await gaffer?.kill();
  await forge?.close();
  repo?.cleanup();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a release interrupted by kill -9', () => {
  it('resumes after a restart without a second commit or release', async () => {
    forge = await startFakeForge();
    repo = await seedReleaseRepo();
    forge.serveGit('acme', 'gaffer', repo.bare);
    dataDir = mkdtempSync(join(tmpdir(), 'gaffer-release-restart-'));

    // First boot: switch the flag on (it applies at the next start) and register the project.
    gaffer = await startGaffer(dataDir, VARIABLES);
    const flag = await gaffer.client.request('PUT', '/api/settings/release_manager', { value: true });
    expect(flag.status, JSON.stringify(flag.body)).toBe(200);
    const created = await gaffer.client.request('POST', '/api/projects', gafferProject(forge));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await gaffer.stop();

    // Second boot: propose, approve, and die while the release commit's CI is pending.
    ciRun(
      forge,
      await repo.commit('dev', { 'src/kanban.ts': 'export {};\n' }, 'feat(kanban): drag cards'),
      'success',
    );
    gaffer = await startGaffer(dataDir, VARIABLES);
    let ceo = releaseRoutes(gaffer.client);
    expect((await ceo.runNow()).body.tasks_opened).toBe(1);
    expect((await ceo.approve()).status).toBe(202);
    const pushed = await waitForProposal(
      gaffer.client,
      (answer) => answer.body?.execute_step === 'release_ci' && !!answer.body?.commit_sha,
      60_000,
    );
    const sha = pushed.body.commit_sha as string;
    const run = ciRun(forge, sha, null, { branch: 'prod' }); // CI in progress: the executor keeps waiting
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await ceo.proposal()).body).toMatchObject({ execute_status: 'running', execute_in_flight: true });
    await gaffer.kill();

    // Third boot: the interrupted approve shows as such once its heartbeat lapses; approving resumes it.
    gaffer = await startGaffer(dataDir, VARIABLES);
    ceo = releaseRoutes(gaffer.client);
    const interrupted = await waitForProposal(
      gaffer.client,
      (answer) => answer.body?.execute_status === 'failed_interrupted',
      60_000,
    );
    expect(interrupted.body).toMatchObject({
      execute_in_flight: false,
      commit_sha: sha,
      execute_step: 'release_ci',
    });
    expect(interrupted.body.execute_detail).toMatch(/approve again to resume/);
    let approved = await ceo.approve();
    const deadline = Date.now() + 30_000;
    while (approved.status === 409 && Date.now() < deadline) {
      // The dead process's lease may outlive its row heartbeat by a moment.
      await new Promise((resolve) => setTimeout(resolve, 250));
      approved = await ceo.approve();
    }
    expect(approved.status, JSON.stringify(approved.body)).toBe(202);
    const resumed = await waitForProposal(
      gaffer.client,
      (answer) => answer.body?.execute_step === 'release_ci',
    );
    expect(resumed.body.execute_detail).toMatch(/waiting for the CI|resuming/);
    forge.updateRun(run.id, { status: 'completed', conclusion: 'success' });
    await waitForProposal(gaffer.client, (answer) => answer.status === 404, 30_000);

    expect(forge.releases('acme', 'gaffer')).toMatchObject([{ tag_name: 'v0.2.0', target_commitish: sha }]);
    expect(await repo.git(['rev-parse', 'prod'])).toBe(sha);
    expect(await repo.git(['log', '--no-merges', '--format=%s', '--grep=^chore(release):', 'prod'])).toBe(
      'chore(release): 0.2.0\nchore(release): 0.1.0',
    );
  }, 240_000);
});
