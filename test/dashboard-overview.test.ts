/**
 * Provenance, the CEO overview and recent activity through the real app: tasks written by the CEO,
 * by an agent, delegated through the gateway, and opened by the CI-watch engine against a fake
 * forge are told apart by their root ancestor; a cell PM's escalation through the gateway shows as
 * a blocker and in its team's health; completions show in throughput and lead time.
 */

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { projects } from '../src/modules/projects/schema.js';
import { GitRunner } from '../src/platform/git/index.js';
import { seedBareRemote, tempDirs } from '../src/platform/git/test-support.js';
import { PM_PLAN } from './gateway-support.js';
import { json, type TestApp } from './support/app.js';
import { startAppWithFlags } from './support/engines.js';
import { type FakeForge, startFakeForge } from './support/fake-forge/index.js';

let t: TestApp;
let forge: FakeForge;
let projectId: string;
const dirs = tempDirs('gaffer-dashboard-');

beforeAll(async () => {
  forge = await startFakeForge();
  t = await startAppWithFlags(['ci_watch']);
  // A project on a bare repository on disk (local forge), for the PMs' planning through the gateway.
  const runner = new GitRunner({ home: join(dirs.make(), 'home') });
  const remote = await seedBareRemote(runner, join(dirs.make(), 'origin.git'), [
    { message: 'Initial commit', files: { 'README.md': '# Shop\n' } },
  ]);
  const [row] = await t.platform.database.db
    .insert(projects)
    .values({ slug: 'overview-shop', name: 'Shop', gitUrl: remote, gitProvider: 'local', createdBy: 'ceo' })
    .returning({ id: projects.id });
  projectId = row!.id;
});
afterAll(async () => {
  await t?.close();
  await forge?.close();
  dirs.cleanup();
});

const as = (slug: string) => {
  const member = rosterMember(slug);
  return t.headersFor(member.id, member.role, member.team ?? '');
};
const get = (url: string, headers: Record<string, string> = t.ceoHeaders) =>
  t.app.inject({ method: 'GET', url, headers });
const ok = async <T>(url: string): Promise<T> => {
  const response = await get(url);
  expect(response.statusCode, response.body).toBe(200);
  return json<T>(response);
};

async function createTask(fields: Record<string, unknown>, headers = t.ceoHeaders): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/tasks',
    headers,
    payload: {
      title: 'Some work',
      description: 'Work that one of the teams picks up and delivers.',
      acceptance_criteria: ['It is done'],
      team: 'main_pm',
      task_type: 'planning',
      nature: 'technical',
      complexity: 'medium',
      project_id: projectId,
      ...fields,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return json<{ id: string }>(response).id;
}

async function verb(slug: string, route: string, name: string, payload: object) {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/v1/flow/${route}/${name}`,
    headers: as(slug),
    payload,
  });
  expect(response.statusCode, response.body).toBe(200);
  const envelope = json<{ ok: boolean; data?: Record<string, unknown> }>(response);
  expect(envelope.ok, response.body).toBe(true);
  return envelope;
}

describe('provenance', () => {
  it('classifies new tasks by their root ancestor: the CEO’s, an agent’s, or an engine’s', async () => {
    const empty = await ok('/api/dashboard/metrics/provenance');
    expect(empty).toEqual({ days: 30, total: 0, human: 0, agent: 0, engine: 0, human_rate: 0 });

    // The CEO's root, and a subtask the main PM delegates from it through the gateway: both human.
    const root = await createTask({ title: 'Same-day shipping', assigned_to: 'main-pm' });
    await verb('main-pm', 'main_pm', 'i_will_plan', { task_id: root, ...PM_PLAN });
    await verb('main-pm', 'main_pm', 'delegate', {
      task_id: root,
      title: 'Backend: shipping cut-off',
      description: 'Compute the same-day cut-off in the order service.',
      assigned_to: 'be-pm',
      task_type: 'planning',
      nature: 'technical',
      complexity: 'medium',
      acceptance_criteria: ['Orders before the cut-off ship the same day'],
    });
    // A root the main PM writes itself: an agent's.
    await createTask({ title: 'Tidy the release notes', assigned_to: 'main-pm' }, as('main-pm'));
    // A root the CI-watch engine opens for a red build on a watched repository.
    const watched = await t.app.inject({
      method: 'POST',
      url: '/api/projects',
      headers: t.ceoHeaders,
      payload: {
        slug: 'watched-shop',
        name: 'Watched shop',
        git_url: 'https://github.com/acme/shop.git',
        git_provider: 'github',
        forge_api_url: forge.githubApiUrl,
        git_token: forge.token,
        ci_watch_enabled: true,
        ci_watch_workflow: 'ci.yml',
        assigned_cell: 'backend',
      },
    });
    expect(watched.statusCode, watched.body).toBe(201);
    forge.addRun({
      owner: 'acme',
      repo: 'shop',
      workflow: 'ci.yml',
      branch: 'main',
      headSha: 'a'.repeat(40),
      conclusion: 'failure',
      name: 'CI',
    });
    const cycle = await t.app.inject({
      method: 'POST',
      url: '/api/board-programs/ci_watch/run-now',
      headers: t.ceoHeaders,
    });
    expect(cycle.statusCode, cycle.body).toBe(200);
    expect(json<{ tasks_opened: number }>(cycle).tasks_opened).toBe(1);

    expect(await ok('/api/dashboard/metrics/provenance?days=1')).toEqual({
      days: 1,
      total: 4,
      human: 2,
      agent: 1,
      engine: 1,
      human_rate: 0.5,
    });
  });

  it('refuses a window outside 1–90 days, and anyone below a PM', async () => {
    for (const days of ['0', '91', '-3', 'month']) {
      expect((await get(`/api/dashboard/metrics/provenance?days=${days}`)).statusCode, days).toBe(422);
    }
    expect((await get('/api/dashboard/metrics/provenance', as('be-dev-1'))).statusCode).toBe(403);
    expect((await get('/api/dashboard/metrics/provenance', as('main-pm'))).statusCode).toBe(200);
  });
});

describe('the CEO overview and recent activity', () => {
  it('shows a PM’s escalation as a blocker and in its team’s health, and completions as throughput', async () => {
    const frontend = { team: 'frontend', task_type: 'code', complexity: 'low' };
    const stuck = await createTask({ ...frontend, title: 'Checkout button', assigned_to: 'fe-dev-1' });
    await createTask({ ...frontend, title: 'Basket badge', assigned_to: 'fe-dev-2' });
    await verb('fe-pm', 'cell_pm', 'escalate_up', {
      task_id: stuck,
      reason: 'needs a product decision on scope',
    });
    const done = await createTask({ ...frontend, title: 'Footer links', assigned_to: 'fe-dev-2' });
    const completed = await t.app.inject({
      method: 'PATCH',
      url: `/api/tasks/${done}`,
      headers: t.ceoHeaders,
      payload: { status: 'completed', force: true, reason: 'shipped by hand' },
    });
    expect(completed.statusCode, completed.body).toBe(200);

    interface Overview {
      days: number;
      teams: { team: string; status: string; open_tasks: number; blocked_tasks: number }[];
      blockers: {
        task_id: string;
        title: string;
        team: string;
        assignee_slug: string | null;
        reason: string;
      }[];
      throughput: { date: string; completed: number }[];
      completed: number;
      median_lead_time_hours: number | null;
    }
    const overview = await ok<Overview>('/api/dashboard/overview?days=7');
    expect(overview.teams.find((row) => row.team === 'frontend')).toMatchObject({
      status: 'slow',
      open_tasks: 2,
      blocked_tasks: 1,
    });
    expect(overview.teams.find((row) => row.team === 'ux_ui')).toMatchObject({ status: 'ok', open_tasks: 0 });
    expect(overview.blockers).toEqual([
      expect.objectContaining({
        task_id: stuck,
        title: 'Checkout button',
        team: 'frontend',
        assignee_slug: 'fe-dev-1',
        reason: 'needs a product decision on scope',
      }),
    ]);
    expect(overview.throughput).toHaveLength(7);
    expect(overview.throughput.at(-1)).toEqual({ date: new Date().toISOString().slice(0, 10), completed: 1 });
    expect(overview.completed).toBe(1);
    expect(overview.median_lead_time_hours).toBeGreaterThanOrEqual(0);

    const activity = await ok<{ hours: number; events: { task_id: string; action: string }[] }>(
      '/api/dashboard/activity?hours=1&limit=2',
    );
    expect(activity.hours).toBe(1);
    expect(activity.events).toHaveLength(2);
    expect(activity.events[0]).toMatchObject({ task_id: done });
  });

  it('refuses bad windows and limits with a 422', async () => {
    for (const query of ['hours=0', 'hours=169', 'limit=0', 'limit=201', 'hours=-1']) {
      expect((await get(`/api/dashboard/activity?${query}`)).statusCode, query).toBe(422);
    }
    for (const query of ['days=0', 'days=91']) {
      expect((await get(`/api/dashboard/overview?${query}`)).statusCode, query).toBe(422);
    }
    expect((await get('/api/dashboard/overview', as('fe-dev-1'))).statusCode).toBe(403);
  });
});
