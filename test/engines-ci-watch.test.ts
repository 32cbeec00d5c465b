/**
 * Multi-repo CI-watch through the real app, its board-program runner and the real Octokit / fetch
 * clients against the fake forge: red → one fix task and one cell-PM notification, dedup while it
 * is open, green and unknown open nothing, one repository's provider error spares the others, a
 * monorepo's cell-projects share a task, two workflows get two, caps, flag off polls nothing, the
 * pause scopes hold it and a kill pause aborts a sweep in flight.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.js';
import { json, startTestApp, type TestApp } from './support/app.js';
import { startAppWithFlags } from './support/engines.js';
import { type FakeForge, startFakeForge } from './support/fake-forge/index.js';
import { pause } from './support/ws-client.js';

const WAIT = { timeout: 20_000, interval: 25 };
const RED_SHA = 'a'.repeat(40);
const GREEN_SHA = 'b'.repeat(40);

interface Cycle {
  outcome: string;
  items_examined: number;
  tasks_opened: number;
  skipped_by_cap: number;
  errors: number;
  error_messages: string[];
  opened_task_ids: string[];
}

interface TaskView {
  id: string;
  title: string;
  description: string;
  status: string;
  team: string;
  source: string;
  project_id: string | null;
  assigned_to: string | null;
  confirmed_by_human: boolean;
}

interface ProjectOptions {
  repo?: string;
  workflow?: string;
  cell?: 'backend' | 'frontend' | 'ux_ui';
  provider?: 'github' | 'gitea';
}

describe('multi-repo CI-watch', () => {
  let forge: FakeForge;
  let t: TestApp;
  let serial = 0;
  const created: string[] = [];

  const config: Partial<Config> = { ciWatchMaxPerCycle: 10, ciWatchMaxOpenTasks: 3 };

  beforeAll(async () => {
    forge = await startFakeForge();
    t = await startAppWithFlags(['ci_watch'], { config });
  });
  afterAll(async () => {
    await t?.close();
    await forge?.close();
  });
  afterEach(async () => {
    for (const scope of ['board_programs', 'engines']) {
      await t.app.inject({ method: 'DELETE', url: `/api/maintenance-pause/${scope}`, headers: t.ceoHeaders });
    }
    forge.latencyMs = 0;
    forge.clearFailures();
    // Earlier tests' projects stop being watched, so each test sees only its own.
    for (const slug of created.splice(0)) {
      const off = await t.app.inject({
        method: 'PATCH',
        url: `/api/projects/${slug}`,
        headers: t.ceoHeaders,
        payload: { ci_watch_enabled: false },
      });
      expect(off.statusCode, off.body).toBe(200);
    }
    // Close every fix task so each test starts with no open CI-watch task.
    for (const task of await ciWatchTasks()) {
      if (task.status === 'cancelled') continue;
      const cancelled = await t.app.inject({
        method: 'POST',
        url: `/api/tasks/${task.id}/cancel`,
        headers: t.ceoHeaders,
        payload: { reason: 'test cleanup' },
      });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
    }
  });

  /** A fresh opted-in project on a fresh repository of the fake forge; answers its slug and repo. */
  async function project(options: ProjectOptions = {}) {
    serial += 1;
    const slug = `watched-${String(serial).padStart(3, '0')}`;
    const repo = options.repo ?? `repo-${serial}`;
    const provider = options.provider ?? 'github';
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: t.ceoHeaders,
      payload: {
        slug,
        name: `Watched ${serial}`,
        git_url:
          provider === 'github'
            ? `https://github.com/acme/${repo}.git`
            : `https://git.acme.test/acme/${repo}.git`,
        git_provider: provider,
        forge_api_url: provider === 'github' ? forge.githubApiUrl : forge.giteaApiUrl,
        git_token: forge.token,
        ci_watch_enabled: true,
        ci_watch_workflow: options.workflow ?? 'ci.yml',
        assigned_cell: options.cell ?? 'backend',
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    created.push(slug);
    return { slug, repo, id: json<{ id: string }>(response).id };
  }

  const red = (repo: string, workflow = 'ci.yml') =>
    forge.addRun({
      owner: 'acme',
      repo,
      workflow,
      branch: 'main',
      headSha: RED_SHA,
      conclusion: 'failure',
      name: 'CI',
    });
  const green = (repo: string, workflow = 'ci.yml') =>
    forge.addRun({
      owner: 'acme',
      repo,
      workflow,
      branch: 'main',
      headSha: GREEN_SHA,
      conclusion: 'success',
    });

  async function runNow(app: TestApp = t): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await app.app.inject({
      method: 'POST',
      url: '/api/board-programs/ci_watch/run-now',
      headers: app.ceoHeaders,
    });
    return { status: response.statusCode, body: json(response) };
  }

  async function cycle(): Promise<Cycle> {
    const { status, body } = await runNow();
    expect(status, JSON.stringify(body)).toBe(200);
    return body as unknown as Cycle;
  }

  async function ciWatchTasks(): Promise<TaskView[]> {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/tasks?source=ci_watch&limit=200',
      headers: t.ceoHeaders,
    });
    return json<{ tasks: TaskView[] }>(response).tasks;
  }

  const openTasks = async () => (await ciWatchTasks()).filter((task) => task.status !== 'cancelled');

  async function notificationsOf(cell: 'backend' | 'frontend' | 'ux_ui') {
    const pm = await t.modules.agents.service.cellPm(cell);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: t.headersFor(pm!.id, 'cell_pm', cell),
    });
    return json<{ notifications: { subject: string; body: string; related_task_id: string | null }[] }>(
      response,
    ).notifications;
  }

  it('opens one fix task for a red default branch and tells the cell PM, then nothing while it is open', async () => {
    const shop = await project({ cell: 'frontend' });
    red(shop.repo);
    const before = (await notificationsOf('frontend')).length;

    const first = await cycle();
    expect(first).toMatchObject({ outcome: 'completed', tasks_opened: 1, errors: 0 });
    const [task] = await openTasks();
    expect(task).toMatchObject({
      title: `CI-watch: fix the CI regression on ${shop.slug}`,
      status: 'pending',
      team: 'main_pm',
      source: 'ci_watch',
      project_id: shop.id,
      confirmed_by_human: true,
    });
    expect(task!.assigned_to).toBe((await t.modules.agents.service.mainPm())!.id);
    expect(task!.description).toContain(`CI on ${shop.slug}@main concluded 'failure' (CI).`);
    expect(task!.description).toMatch(/https?:\/\/\S+\/actions\/runs\/\d+/);
    const notices = await notificationsOf('frontend');
    expect(notices).toHaveLength(before + 1);
    expect(notices[0]).toMatchObject({
      subject: `[ci-watch] CI is red on ${shop.slug}`,
      related_task_id: task!.id,
    });

    forge.resetRequests();
    const second = await cycle();
    expect(second.tasks_opened).toBe(0);
    expect(await openTasks()).toHaveLength(1);
    // The open task already stands for that repository: its CI is not even read again.
    expect(forge.requests.filter((request) => request.path.includes(`/acme/${shop.repo}/`))).toHaveLength(0);
  });

  it('opens nothing for green, cancelled or unknown CI (no run at all, or a missing token)', async () => {
    const passing = await project();
    green(passing.repo);
    const cancelled = await project();
    forge.addRun({
      owner: 'acme',
      repo: cancelled.repo,
      workflow: 'ci.yml',
      branch: 'main',
      headSha: RED_SHA,
      conclusion: 'cancelled',
    });
    await project(); // no run at all
    const tokenless = await project();
    red(tokenless.repo);
    const untokened = await t.app.inject({
      method: 'PATCH',
      url: `/api/projects/${tokenless.slug}`,
      headers: t.ceoHeaders,
      payload: { git_token: '' },
    });
    expect(untokened.statusCode, untokened.body).toBe(200);

    const result = await cycle();
    expect(result.tasks_opened).toBe(0);
    expect(result.error_messages.join('\n')).toContain(tokenless.slug);
    expect(await openTasks()).toHaveLength(0);
  });

  it('goes on with the other repositories when the provider fails for one', async () => {
    const [a, b, c] = [await project(), await project(), await project()];
    for (const p of [a, b, c]) red(p.repo);
    forge.failNext({ pathPattern: new RegExp(`/acme/${b.repo}/`), status: 500, times: 100 });

    const result = await cycle();
    expect(result.tasks_opened).toBe(2);
    expect(result.errors).toBe(1);
    expect(result.error_messages[0]).toContain(b.slug);
    const titles = (await openTasks()).map((task) => task.title).sort();
    expect(titles).toEqual(
      [a.slug, c.slug].map((slug) => `CI-watch: fix the CI regression on ${slug}`).sort(),
    );
  });

  it('shares one fix task between the cell-projects of a monorepo, but not between two workflows', async () => {
    const api = await project({ repo: 'mono-1', cell: 'backend' });
    await project({ repo: 'mono-1', cell: 'frontend' });
    const docs = await project({ repo: 'mono-1', cell: 'ux_ui', workflow: 'docs.yml' });
    red('mono-1');
    red('mono-1', 'docs.yml');

    const result = await cycle();
    expect(result.tasks_opened).toBe(2);
    const byProject = (await openTasks()).map((task) => task.project_id).sort();
    expect(byProject).toEqual([api.id, docs.id].sort());
  });

  it('keeps to the per-cycle cap and the rolling cap of open tasks per repository', async () => {
    const capped = await startAppWithFlags(['ci_watch'], {
      config: { ciWatchMaxPerCycle: 1, ciWatchMaxOpenTasks: 2 },
    });
    try {
      const create = async (slug: string, repo: string, workflow: string) => {
        const response = await capped.app.inject({
          method: 'POST',
          url: '/api/projects',
          headers: capped.ceoHeaders,
          payload: {
            slug,
            name: slug,
            git_url: `https://github.com/acme/${repo}.git`,
            forge_api_url: forge.githubApiUrl,
            git_token: forge.token,
            ci_watch_enabled: true,
            ci_watch_workflow: workflow,
          },
        });
        expect(response.statusCode, response.body).toBe(201);
        red(repo, workflow);
      };
      for (const workflow of ['a.yml', 'b.yml', 'c.yml'])
        await create(`capped-${workflow[0]}`, 'capped', workflow);
      const run = async () => {
        const response = await capped.app.inject({
          method: 'POST',
          url: '/api/board-programs/ci_watch/run-now',
          headers: capped.ceoHeaders,
        });
        return json<Cycle>(response);
      };
      expect(await run()).toMatchObject({ tasks_opened: 1, skipped_by_cap: 2 });
      expect(await run()).toMatchObject({ tasks_opened: 1, skipped_by_cap: 1 });
      // Two are open for the repository now: the third workflow waits for one of them to close.
      expect(await run()).toMatchObject({ tasks_opened: 0, skipped_by_cap: 1 });
    } finally {
      await capped.close();
    }
  });

  it('reads Gitea through its combined commit status', async () => {
    const gitea = await project({ provider: 'gitea' });
    red(gitea.repo);
    const result = await cycle();
    expect(result.tasks_opened).toBe(1);
    expect((await openTasks())[0]!.project_id).toBe(gitea.id);
  });

  it('is held by either pause scope and aborted in flight by a kill pause', async () => {
    const slow = await project();
    red(slow.repo);
    for (const scope of ['engines', 'board_programs']) {
      const paused = await t.app.inject({
        method: 'POST',
        url: `/api/maintenance-pause/${scope}`,
        headers: t.ceoHeaders,
        payload: { mode: 'drain', reason: 'maintenance' },
      });
      expect(paused.statusCode, paused.body).toBe(200);
      forge.resetRequests();
      const refused = await runNow();
      expect(refused.status).toBe(409);
      expect(forge.requests).toHaveLength(0);
      await t.app.inject({ method: 'DELETE', url: `/api/maintenance-pause/${scope}`, headers: t.ceoHeaders });
    }

    forge.latencyMs = 10_000;
    forge.resetRequests();
    const inFlight = runNow();
    await expect.poll(() => forge.requests.length, WAIT).toBeGreaterThan(0);
    const kill = await t.app.inject({
      method: 'POST',
      url: '/api/maintenance-pause/engines',
      headers: t.ceoHeaders,
      payload: { mode: 'kill', reason: 'stop it now' },
    });
    expect(kill.statusCode, kill.body).toBe(200);
    const aborted = await inFlight;
    expect(aborted.body).toMatchObject({ outcome: 'aborted', tasks_opened: 0 });
    expect(await openTasks()).toHaveLength(0);
  });
});

describe('multi-repo CI-watch with its flag off', () => {
  it('polls nothing at all, even when its interval comes round', async () => {
    const forge = await startFakeForge();
    const t = await startTestApp({ config: { ciWatchIntervalSeconds: 1 } });
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/projects',
        headers: t.ceoHeaders,
        payload: {
          slug: 'dormant',
          name: 'Dormant',
          git_url: 'https://github.com/acme/dormant.git',
          forge_api_url: forge.githubApiUrl,
          git_token: forge.token,
          ci_watch_enabled: true,
        },
      });
      expect(response.statusCode, response.body).toBe(201);
      forge.addRun({
        owner: 'acme',
        repo: 'dormant',
        workflow: 'ci.yml',
        branch: 'main',
        headSha: RED_SHA,
        conclusion: 'failure',
      });
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/board-programs/ci_watch/run-now',
        headers: t.ceoHeaders,
      });
      expect(refused.statusCode).toBe(409);
      await pause(2_500);
      expect(forge.requests).toHaveLength(0);
    } finally {
      await t.close();
      await forge.close();
    }
  });
});
