/**
 * Approving a release proposal through the real app, real git and the fake forge: 202 at once and
 * the executor in the background — the ladder merged into prod head first, the version bumped and
 * the CHANGELOG stamped, the head rung's CI verified, `chore(release): X.Y.Z` committed as the
 * release identity (GPG-signed when configured) and pushed, its own CI awaited, the release
 * published once through the forge's REST API and the proposal completed; approving again
 * publishes nothing; two approves at once → one 202 and one 409; a red head rung commits nothing;
 * a red release commit publishes nothing and a retry resumes without a second commit.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import type { TestApp } from './support/app.js';
import { startAppWithFlags } from './support/engines.js';
import { type FakeForge, startFakeForge } from './support/fake-forge/index.js';
import {
  CHANGELOG_010,
  ciRun,
  gafferProject,
  injectClient,
  type ProposalBody,
  RELEASE_CONFIG,
  type ReleaseRepo,
  releaseRoutes,
  seedReleaseRepo,
  waitForProposal,
} from './support/release-world.js';

const run = promisify(execFile);

let forge: FakeForge | undefined;
let repo: ReleaseRepo | undefined;
let t: TestApp | undefined;

afterEach(async () => {
  await t?.close();
  await forge?.close();
  repo?.cleanup();
  t = undefined;
  forge = undefined;
  repo = undefined;
});

interface World {
  forge: FakeForge;
  repo: ReleaseRepo;
  t: TestApp;
  ceo: ReturnType<typeof releaseRoutes>;
  client: ReturnType<typeof injectClient>;
}

/** The world with a proposal open: dev has a feat and a fix (green), staging a hotfix of its own. */
async function withProposal(config: Partial<Config> = {}): Promise<World & { proposal: ProposalBody }> {
  forge = await startFakeForge();
  repo = await seedReleaseRepo();
  forge.serveGit('acme', 'gaffer', repo.bare);
  t = await startAppWithFlags(['release_manager'], { config: { ...RELEASE_CONFIG, ...config } });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: t.ceoHeaders,
    payload: gafferProject(forge),
  });
  expect(created.statusCode, created.body).toBe(201);
  await repo.commit('staging', { 'hotfix.txt': 'from staging\n' }, 'fix(staging): a hotfix made on staging');
  await repo.commit('dev', { 'src/kanban.ts': 'export {};\n' }, 'feat(kanban): drag cards (#7)');
  ciRun(
    forge,
    await repo.commit('dev', { 'src/pause.ts': 'export {};\n' }, 'fix: the pause banner clears'),
    'success',
  );
  const client = injectClient(t.app, t.ceoHeaders);
  const ceo = releaseRoutes(client);
  const sweep = await ceo.runNow();
  expect(sweep.body.tasks_opened, JSON.stringify(sweep.body)).toBe(1);
  const proposal = (await ceo.proposal()).body as ProposalBody;
  expect(proposal.version).toBe('0.2.0');
  return { forge, repo, t, ceo, client, proposal };
}

/** Waits until the executor pushed the release commit and polls its CI; answers the commit. */
async function pushedReleaseCommit(world: World): Promise<string> {
  const waiting = await waitForProposal(
    world.client,
    (answer) =>
      answer.status === 200 && answer.body.execute_step === 'release_ci' && !!answer.body.commit_sha,
  );
  return waiting.body.commit_sha as string;
}

const NOTES = '### Added\n\n- **kanban:** drag cards (#7)\n\n### Fixed\n\n- the pause banner clears';

describe('approving a release', () => {
  it('answers 202 at once, merges the ladder head first, publishes once after CI, and completes the proposal', async () => {
    const world = await withProposal();
    const started = Date.now();
    const approved = await world.ceo.approve();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(approved.status).toBe(202);
    expect(approved.body).toMatchObject({
      status: 'accepted',
      task_id: world.proposal.task_id,
      version: '0.2.0',
    });
    const running = await world.ceo.proposal();
    expect(running.body).toMatchObject({ execute_status: 'running', execute_in_flight: true, attempts: 1 });

    const sha = await pushedReleaseCommit(world);
    expect(world.forge.releases('acme', 'gaffer')).toEqual([]); // not before its CI is green
    ciRun(world.forge, sha, 'success', { branch: 'prod' });
    await waitForProposal(world.client, (answer) => answer.status === 404);

    const releases = world.forge.releases('acme', 'gaffer');
    expect(releases).toHaveLength(1);
    expect(releases[0]).toMatchObject({
      tag_name: 'v0.2.0',
      name: 'v0.2.0',
      target_commitish: sha,
      body: NOTES,
    });
    const task = await world.t.app.inject({
      method: 'GET',
      url: `/api/tasks/${world.proposal.task_id}`,
      headers: world.t.ceoHeaders,
    });
    expect(JSON.parse(task.body)).toMatchObject({ status: 'completed', held: true });

    const git = world.repo.git;
    expect(await git(['rev-parse', 'prod'])).toBe(sha);
    expect((await git(['log', '--first-parent', '--format=%s', 'prod'])).split('\n')).toEqual([
      'chore(release): 0.2.0',
      'Merge staging into prod for release 0.2.0',
      'Merge dev into prod for release 0.2.0',
      'chore(release): 0.1.0',
      'feat: first',
    ]);
    expect(await git(['log', '-1', '--format=%an <%ae>', sha])).toBe(
      'Gaffer Release Manager <release-manager@gaffer.localhost>',
    );
    expect(await git(['show', 'prod:package.json'])).toContain('"version": "0.2.0"');
    expect(await git(['show', 'prod:src/version.ts'])).toBe("export const VERSION = '0.2.0';");
    expect(await git(['show', 'prod:hotfix.txt'])).toBe('from staging');
    const today = new Date().toISOString().slice(0, 10);
    expect(`${await git(['show', 'prod:CHANGELOG.md'])}\n`).toBe(
      CHANGELOG_010.replace(
        '## [Unreleased]\n\n',
        `## [Unreleased]\n\n## [0.2.0] - ${today}\n\n${NOTES}\n\n`,
      ),
    );
    expect(await git(['rev-parse', 'v0.2.0^{commit}'])).toBe(sha);

    // The token travelled only in git's environment: not in the readiness checkout's config, nor any answer.
    const readinessConfig = readFileSync(
      join(world.t.stores.dataDir, 'release', 'gaffer', 'readiness', '.git', 'config'),
      'utf8',
    );
    expect(readinessConfig).toContain(world.forge.gitUrl('acme', 'gaffer'));
    expect(readinessConfig).not.toContain(world.forge.token);
    expect(JSON.stringify([approved.body, running.body])).not.toContain(world.forge.token);

    // Approving again publishes nothing: there is no open proposal, and the next pass finds nothing new.
    expect((await world.ceo.approve()).status).toBe(404);
    expect((await world.ceo.runNow()).body.tasks_opened).toBe(0);
    expect(world.forge.releases('acme', 'gaffer')).toHaveLength(1);
  });

  it('lets exactly one of two concurrent approves through; the other is refused 409, not queued', async () => {
    const world = await withProposal();
    const answers = await Promise.all([world.ceo.approve(), world.ceo.approve()]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409]);
    const refused = answers.find((answer) => answer.status === 409)!;
    expect(refused.body.error.code).toBe('release_in_flight');
    // Still refused while the first runs; the running one is visible.
    expect((await world.ceo.approve()).body.error.code).toBe('release_in_flight');
    expect((await world.ceo.reject('Stop this release, please.')).status).toBe(409);
    const sha = await pushedReleaseCommit(world);
    expect((await world.ceo.proposal()).body).toMatchObject({
      execute_in_flight: true,
      execute_status: 'running',
      attempts: 1,
    });
    ciRun(world.forge, sha, 'success', { branch: 'prod' });
    await waitForProposal(world.client, (answer) => answer.status === 404);
    expect(world.forge.releases('acme', 'gaffer')).toHaveLength(1);
    expect(await world.repo.git(['log', '--format=%s', '--grep=^chore(release): 0.2.0$', 'prod'])).toBe(
      'chore(release): 0.2.0',
    );
  });

  it('commits nothing when the head rung’s CI is red, and says why', async () => {
    const world = await withProposal();
    // The head rung moved on after the proposal and its new tip is red.
    ciRun(
      world.forge,
      await world.repo.commit('dev', { 'src/late.ts': 'x\n' }, 'fix: a late change'),
      'failure',
    );
    const before = await world.repo.refs();
    expect((await world.ceo.approve()).status).toBe(202);
    const failed = await waitForProposal(
      world.client,
      (answer) => answer.body?.execute_status === 'failed_head_ci',
    );
    expect(failed.body).toMatchObject({ status: 'pending', execute_in_flight: false, commit_sha: null });
    expect(failed.body.execute_detail).toMatch(/CI of dev \(the head rung\) at [0-9a-f]{8} is failure/);
    expect(failed.body.execute_detail).toContain('Nothing was committed or pushed');
    expect(await world.repo.refs()).toBe(before);
    expect(world.forge.releases('acme', 'gaffer')).toEqual([]);
  });

  it('publishes nothing on a red release commit, shows why, and a retry resumes without a second commit', async () => {
    const world = await withProposal();
    expect((await world.ceo.approve()).status).toBe(202);
    const sha = await pushedReleaseCommit(world);
    ciRun(world.forge, sha, 'failure', { branch: 'prod' });
    const failed = await waitForProposal(
      world.client,
      (answer) => answer.body?.execute_status === 'failed_release_ci',
    );
    expect(failed.body.execute_detail).toMatch(
      new RegExp(`CI of the release commit at ${sha.slice(0, 8)} is failure.*not published`),
    );
    expect(failed.body).toMatchObject({ execute_in_flight: false, commit_sha: sha });
    expect(world.forge.releases('acme', 'gaffer')).toEqual([]);

    ciRun(world.forge, sha, 'success', { branch: 'prod', attempt: 2 }); // the re-run passed
    expect((await world.ceo.approve()).status).toBe(202);
    await waitForProposal(world.client, (answer) => answer.status === 404);
    expect(world.forge.releases('acme', 'gaffer')).toMatchObject([
      { tag_name: 'v0.2.0', target_commitish: sha },
    ]);
    expect(await world.repo.git(['rev-parse', 'prod'])).toBe(sha);
    expect(await world.repo.git(['log', '--format=%s', '--grep=^chore(release):', 'prod'])).toBe(
      'chore(release): 0.2.0\nchore(release): 0.1.0',
    );
  });
});

describe('signing', () => {
  it('signs the release commit with the configured key; git verify-commit accepts it', async (context) => {
    const gpg = await run('gpg', ['--version']).catch(() => null);
    if (!gpg) {
      console.warn('gpg is not installed: the signed-commit test is skipped');
      context.skip();
    }
    const gnupgHome = mkdtempSync(join(tmpdir(), 'gaffer-gnupg-'));
    const previous = process.env.GNUPGHOME;
    try {
      const env = { ...process.env, GNUPGHOME: gnupgHome };
      await run(
        'gpg',
        [
          '--batch',
          '--passphrase',
          '',
          '--quick-gen-key',
          'Gaffer Release Manager <release-manager@gaffer.localhost>',
          'ed25519',
          'sign',
          'never',
        ],
        { env },
      );
      const listed = await run('gpg', ['--batch', '--with-colons', '--list-secret-keys'], { env });
      const fingerprint = /^fpr:+([0-9A-F]{40}):/m.exec(listed.stdout)![1]!;
      process.env.GNUPGHOME = gnupgHome;

      const world = await withProposal({ releaseSignCommits: true, releaseSigningKey: fingerprint });
      expect((await world.ceo.approve()).status).toBe(202);
      const sha = await pushedReleaseCommit(world);
      ciRun(world.forge, sha, 'success', { branch: 'prod' });
      await waitForProposal(world.client, (answer) => answer.status === 404);

      const verified = await run('git', ['verify-commit', '--raw', sha], { cwd: world.repo.bare, env });
      expect(verified.stderr).toContain('GOODSIG');
      expect(verified.stderr).toContain(fingerprint);
    } finally {
      if (previous === undefined) delete process.env.GNUPGHOME;
      else process.env.GNUPGHOME = previous;
      await run('gpgconf', ['--kill', 'gpg-agent'], { env: { ...process.env, GNUPGHOME: gnupgHome } }).catch(
        () => undefined,
      );
      rmSync(gnupgHome, { recursive: true, force: true });
    }
  });
});
