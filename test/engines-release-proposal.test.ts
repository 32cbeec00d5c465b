/**
 * The release manager's readiness sweep and proposal through the real app, real git (a bare remote
 * with the ladder dev → staging → prod, served by the fake forge) and the fake forge's CI: nothing
 * below the threshold or without a green gate on the head rung's tip, then one held proposal owned
 * by the Secretary with the report, the CEO notified; one open at a time; reject frees the slot; a
 * feat commit qualifies alone and a breaking change on 0.x bumps the minor; off unless the flag and
 * the master switch are both on; CEO only.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from './support/app.js';
import { startTestApp } from './support/app.js';
import { startAppWithFlags } from './support/engines.js';
import { type FakeForge, startFakeForge } from './support/fake-forge/index.js';
import {
  ciRun,
  gafferProject,
  injectClient,
  type Json,
  type ProposalBody,
  RELEASE_CONFIG,
  type ReleaseRepo,
  releaseRoutes,
  seedReleaseRepo,
} from './support/release-world.js';

let forge: FakeForge;
let repo: ReleaseRepo;
let t: TestApp;

beforeEach(async () => {
  forge = await startFakeForge();
  repo = await seedReleaseRepo();
  forge.serveGit('acme', 'gaffer', repo.bare);
  t = await startAppWithFlags(['release_manager'], { config: RELEASE_CONFIG });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/projects',
    headers: t.ceoHeaders,
    payload: gafferProject(forge),
  });
  expect(created.statusCode, created.body).toBe(201);
});

afterEach(async () => {
  await t?.close();
  await forge?.close();
  repo?.cleanup();
});

const ceo = () => releaseRoutes(injectClient(t.app, t.ceoHeaders));

async function sweep(): Promise<{
  outcome: string;
  tasks_opened: number;
  errors: number;
  error_messages: string[];
}> {
  const { status, body } = await ceo().runNow();
  expect(status, JSON.stringify(body)).toBe(200);
  return body;
}

async function releaseTasks(): Promise<Array<Record<string, Json>>> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/tasks?source=release_manager&limit=50',
    headers: t.ceoHeaders,
  });
  return JSON.parse(response.body).tasks;
}

describe('the release readiness sweep', () => {
  it('proposes only past the threshold with a green gate, as a held task of the Secretary', async () => {
    await repo.commit('dev', { 'src/a.ts': 'a\n' }, 'fix: the pause banner clears');
    ciRun(forge, await repo.commit('dev', { 'docs/x.md': 'x\n' }, 'docs: routes table'), 'success');
    expect(await sweep()).toMatchObject({ outcome: 'completed', tasks_opened: 0, errors: 0 });
    const below = await ceo().proposal();
    expect(below.status).toBe(404);
    expect(below.body.error.details.last_readiness.reason).toMatch(
      /2 commit\(s\) .*below the threshold of 3/,
    );

    // Three commits, but the head rung's tip is red: no proposal.
    const tip = await repo.commit('dev', { 'src/b.ts': 'b\n' }, 'fix(api): refuse short ids (#12)');
    ciRun(forge, tip, 'failure');
    expect((await sweep()).tasks_opened).toBe(0);
    expect((await ceo().proposal()).body.error.details.last_readiness.reason).toMatch(
      /^the gate is red: CI of dev/,
    );
    // A green run of an older commit does not make the tip green.
    ciRun(forge, await repo.git(['rev-parse', 'dev~1']), 'success');
    expect((await sweep()).tasks_opened).toBe(0);

    ciRun(forge, tip, 'success');
    expect(await sweep()).toMatchObject({ tasks_opened: 1, errors: 0 });
    const { status, body } = await ceo().proposal();
    expect(status).toBe(200);
    const proposal = body as ProposalBody;
    expect(proposal).toMatchObject({
      title: 'Release 0.1.1',
      status: 'pending',
      version: '0.1.1',
      tag: 'v0.1.1',
      bump: 'patch',
      execute_status: null,
      execute_detail: null,
      execute_in_flight: false,
      attempts: 0,
    });
    expect(proposal.report).toMatchObject({
      current_version: '0.1.0',
      last_tag: 'v0.1.0',
      head_branch: 'dev',
      head_sha: tip,
      prod_branch: 'prod',
      commit_count: 3,
      changelog_source: 'generated',
      canonical_files: ['CHANGELOG.md', 'package.json', 'src/version.ts'],
      gate: { state: 'green', conclusion: 'success', sha: tip },
    });
    expect(proposal.report.changes).toEqual([
      { kind: 'fix', count: 2, items: ['the pause banner clears', 'refuse short ids (#12)'] },
      { kind: 'docs', count: 1, items: ['routes table'] },
    ]);
    expect(proposal.report.changelog_entry).toMatch(
      /^## \[0\.1\.1\] - \d{4}-\d{2}-\d{2}\n\n### Fixed\n\n- the pause banner clears\n- \*\*api:\*\* refuse short ids \(#12\)\n\n### Changed\n\n- routes table\n$/,
    );

    const [task] = await releaseTasks();
    const secretary = (await t.modules.agents.service.byRole('secretary'))[0]!;
    expect(task).toMatchObject({
      id: proposal.task_id,
      held: true,
      status: 'pending',
      source: 'release_manager',
      assigned_to: secretary.id,
      team: secretary.team,
      confirmed_by_human: false,
    });
    expect(task!.description).toContain('Proposed release 0.1.1 (patch bump from 0.1.0, tag v0.1.1).');
    expect(task!.description).toContain('## Drafted CHANGELOG entry');
    // Held: nobody may claim it, not even the Secretary.
    const claim = await t.app.inject({
      method: 'POST',
      url: `/api/tasks/${task!.id}/claim`,
      headers: t.headersFor(secretary.id, 'secretary', secretary.team ?? ''),
    });
    expect(claim.statusCode).toBeGreaterThanOrEqual(400);

    const notices = await t.app.inject({ method: 'GET', url: '/api/notifications', headers: t.ceoHeaders });
    const release = JSON.parse(notices.body).notifications.filter((n: { subject: string }) =>
      n.subject.startsWith('[release]'),
    );
    expect(release).toHaveLength(1);
    expect(release[0]).toMatchObject({
      subject: '[release] 0.1.1 is ready for your review',
      related_task_id: proposal.task_id,
    });

    // One open proposal at a time: more commits, another pass, still the one.
    ciRun(forge, await repo.commit('dev', { 'src/c.ts': 'c\n' }, 'feat: another'), 'success');
    expect((await sweep()).tasks_opened).toBe(0);
    expect(await releaseTasks()).toHaveLength(1);
  });

  it('reject records the required changes, cancels the proposal and frees the slot', async () => {
    ciRun(forge, await repo.commit('dev', { 'src/k.ts': 'k\n' }, 'feat(kanban): drag cards'), 'success');
    expect((await sweep()).tasks_opened).toBe(1);
    const first = (await ceo().proposal()).body as ProposalBody;
    expect(first).toMatchObject({ version: '0.2.0', bump: 'minor' });

    const short = await ceo().reject('too short');
    expect(short.status).toBe(422);
    expect(short.body.error.code).toBe('validation_failed');
    const padded = await ceo().reject('   tiny        ');
    expect(padded.status).toBe(422);

    const rejected = await ceo().reject('Document the kanban change in the CHANGELOG first.');
    expect(rejected.status).toBe(200);
    expect(rejected.body).toEqual({
      task_id: first.task_id,
      version: '0.2.0',
      status: 'cancelled',
      required_changes: 'Document the kanban change in the CHANGELOG first.',
    });
    expect((await ceo().proposal()).status).toBe(404);
    expect((await ceo().reject('Nothing is open to reject now.')).status).toBe(404);
    const events = await t.app.inject({
      method: 'GET',
      url: `/api/tasks/${first.task_id}/events`,
      headers: t.ceoHeaders,
    });
    expect(events.body).toContain('Document the kanban change in the CHANGELOG first.');

    // The slot is free: the next pass proposes afresh.
    expect((await sweep()).tasks_opened).toBe(1);
    const second = (await ceo().proposal()).body as ProposalBody;
    expect(second.task_id).not.toBe(first.task_id);
    expect((await releaseTasks()).map((task) => task.status).sort()).toEqual(['cancelled', 'pending']);
  });

  it('a feat or a breaking change qualifies alone; a breaking change on 0.x bumps the minor', async () => {
    const tip = await repo.commit(
      'dev',
      { 'src/auth.ts': 'export {};\n' },
      'refactor(auth): sessions replace bearer tokens\n\nBREAKING CHANGE: bearer tokens no longer verify',
    );
    ciRun(forge, tip, 'success');
    expect((await sweep()).tasks_opened).toBe(1);
    const proposal = (await ceo().proposal()).body as ProposalBody;
    expect(proposal).toMatchObject({ version: '0.2.0', bump: 'minor' });
    expect(proposal.bump_rule).toMatch(/pre-1\.0 rule/);
    expect(proposal.report.breaking).toEqual(['sessions replace bearer tokens']);
    expect(proposal.report.threshold).toMatch(/a breaking change qualifies on its own/);
  });

  it('answers other roles 403 on every release route', async () => {
    const pm = await t.modules.agents.service.mainPm();
    const other = releaseRoutes(injectClient(t.app, t.headersFor(pm!.id, 'main_pm', 'main_pm')));
    for (const answer of [
      await other.proposal(),
      await other.approve(),
      await other.reject('Some reason text'),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.body.error.code).toBe('forbidden');
    }
    expect((await releaseRoutes(injectClient(t.app, {})).proposal()).status).toBe(401);
  });
});

describe('switched off', () => {
  it('runs no pass without the flag, nor with the flag but GAFFER_RELEASE_MANAGER_ENABLED off', async () => {
    const noFlag = await startTestApp({ config: RELEASE_CONFIG });
    const noSwitch = await startAppWithFlags(['release_manager'], {
      config: { ...RELEASE_CONFIG, releaseManagerEnabled: false },
    });
    try {
      for (const app of [noFlag, noSwitch]) {
        const run = await releaseRoutes(injectClient(app.app, app.ceoHeaders)).runNow();
        expect(run.status).toBe(409);
        expect(run.body.error.code).toBe('program_disabled');
      }
    } finally {
      await noFlag.close();
      await noSwitch.close();
    }
  });
});
