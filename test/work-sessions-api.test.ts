/** /api/work-sessions through the whole app: one active per task, commits, PR, end, list, errors. */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProject, insertTask, type TaskFields } from './fixtures-task-rows.js';
import { json, startTestApp, type TestApp } from './support/app.js';

interface SessionBody {
  id: string;
  task_id: string;
  agent_id: string;
  branch: string;
  base_branch: string | null;
  status: string;
  commits: { hash: string; message: string; at: string }[];
  files_changed: string[];
  pr_number: number | null;
  pr_url: string | null;
  started_at: string;
  ended_at: string | null;
}
interface ErrorBody {
  error: { code: string; details?: { field: string; message: string }[] & { active_session_id?: string } };
}

const DEV_1 = '00000000-0000-0000-0001-000000000001';
const DEV_2 = '00000000-0000-0000-0001-000000000002';
const BE_PM = '00000000-0000-0000-0001-000000000004';

let t: TestApp;
let projectId: string;
let dev1: Record<string, string>;
let dev2: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  projectId = await insertProject(t.platform.database.db);
  dev1 = t.headersFor('be-dev-1', 'developer', 'backend');
  dev2 = t.headersFor('be-dev-2', 'developer', 'backend');
});
afterAll(() => t.close());

const devTask = (fields: TaskFields = {}) =>
  insertTask(t.platform.database.db, {
    projectId,
    status: 'in_progress',
    assignedTo: DEV_1,
    activeClaimantId: DEV_1,
    ...fields,
  });
const post = (url: string, payload: object, headers: Record<string, string> = dev1) =>
  t.app.inject({ method: 'POST', url, payload, headers });
const start = (taskId: string, headers: Record<string, string> = dev1, extra: object = {}) =>
  post(
    '/api/work-sessions',
    { task_id: taskId, branch: `feature/backend/${taskId.slice(0, 8)}`, ...extra },
    headers,
  );
const started = async (taskId: string, headers: Record<string, string> = dev1) => {
  const response = await start(taskId, headers, { base_branch: 'main' });
  expect(response.statusCode).toBe(201);
  return json<SessionBody>(response);
};
const errorOf = (response: LightMyRequestResponse) => json<ErrorBody>(response).error;
const fields = (response: LightMyRequestResponse) => (errorOf(response).details ?? []).map((d) => d.field);

describe('starting a session', () => {
  it('the assignee starts one on its task', async () => {
    const task = await devTask();
    const session = await started(task.id);
    expect(session).toMatchObject({
      task_id: task.id,
      agent_id: DEV_1,
      branch: `feature/backend/${task.id.slice(0, 8)}`,
      base_branch: 'main',
      status: 'active',
      commits: [],
      files_changed: [],
      pr_number: null,
      pr_url: null,
      ended_at: null,
    });
  });

  it('a second start while one is active is 409 session_active, whoever asks', async () => {
    const task = await devTask();
    const first = await started(task.id);
    const again = await start(task.id, t.ceoHeaders);
    expect(again.statusCode).toBe(409);
    expect(errorOf(again)).toMatchObject({
      code: 'session_active',
      details: { active_session_id: first.id },
    });
  });

  it('only one of two simultaneous starts wins', async () => {
    const task = await devTask();
    const responses = await Promise.all([start(task.id), start(task.id), start(task.id, t.ceoHeaders)]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
  });

  it('after the session ends, a new one may start', async () => {
    const task = await devTask();
    const first = await started(task.id);
    expect((await post(`/api/work-sessions/${first.id}/end`, { status: 'abandoned' })).statusCode).toBe(200);
    const second = await started(task.id);
    expect(second.id).not.toBe(first.id);
  });

  it('another developer may not; the CEO and a PM may, for the task’s owner by default', async () => {
    const task = await devTask({ activeClaimantId: null });
    const refused = await start(task.id, dev2);
    expect(refused.statusCode).toBe(403);
    expect(errorOf(refused).code).toBe('forbidden');
    expect((await start(task.id, dev2, { agent_id: DEV_2 })).statusCode).toBe(403);

    const byCeo = await started(task.id, t.ceoHeaders);
    expect(byCeo.agent_id).toBe(DEV_1);

    const other = await devTask({ assignedTo: null, activeClaimantId: null });
    const byPm = await start(other.id, t.headersFor('be-pm', 'cell_pm', 'backend'), { agent_id: DEV_2 });
    expect(byPm.statusCode).toBe(201);
    expect(json<SessionBody>(byPm).agent_id).toBe(DEV_2);
    const unowned = await devTask({ assignedTo: null, activeClaimantId: null });
    const pmOwn = await start(unowned.id, t.headersFor('be-pm', 'cell_pm', 'backend'));
    expect(json<SessionBody>(pmOwn).agent_id).toBe(BE_PM);
  });

  it('the git layer starts one without a caller, for the task’s claimant', async () => {
    const task = await devTask({ assignedTo: DEV_2, activeClaimantId: DEV_2 });
    const session = await t.modules.workSessions.service.start({ taskId: task.id, branch: 'feature/x' });
    expect(session).toMatchObject({ agentId: DEV_2, status: 'active', baseBranch: null });
  });

  it('404 for an unknown task, 409 task_terminal for a finished one', async () => {
    const unknown = await start(randomUUID(), t.ceoHeaders);
    expect(unknown.statusCode).toBe(404);
    const done = await devTask({ status: 'completed' });
    const terminal = await start(done.id);
    expect(terminal.statusCode).toBe(409);
    expect(errorOf(terminal).code).toBe('task_terminal');
  });

  it('422 with field details for invalid bodies', async () => {
    const task = await devTask();
    const cases: [object, string][] = [
      [{ branch: 'feature/x' }, 'body.task_id'],
      [{ task_id: task.id.slice(0, 8), branch: 'feature/x' }, 'body.task_id'],
      [{ task_id: task.id }, 'body.branch'],
      [{ task_id: task.id, branch: 'bad..name' }, 'body.branch'],
      [{ task_id: task.id, branch: 'ok', base_branch: 'has space' }, 'body.base_branch'],
      [{ task_id: task.id, branch: 'ok', agent_id: 'be-dev-1' }, 'body.agent_id'],
      [{ task_id: task.id, branch: 'ok', surprise: true }, 'body.surprise'],
    ];
    for (const [payload, field] of cases) {
      const response = await post('/api/work-sessions', payload);
      expect({ field, status: response.statusCode, fields: fields(response) }).toEqual({
        field,
        status: 422,
        fields: expect.arrayContaining([field]),
      });
    }
    const short = await post('/api/work-sessions', { task_id: task.id.slice(0, 8), branch: 'x' });
    expect(json<{ error: { remediate?: string } }>(short).error.remediate).toMatch(/36-character/);
  });

  it('422 for an agent that does not exist', async () => {
    const task = await devTask();
    const response = await start(task.id, t.ceoHeaders, { agent_id: randomUUID() });
    expect(response.statusCode).toBe(422);
    expect(fields(response)).toEqual(['body.agent_id']);
  });
});

describe('recording commits, the PR, and ending', () => {
  it('records commits once each and the files they touched once each', async () => {
    const session = await started((await devTask()).id);
    const url = `/api/work-sessions/${session.id}/commits`;
    await post(url, { hash: 'ABCDEF1', message: 'first', files: ['src/a.ts', './src/b.ts'] });
    await post(url, { hash: 'abcdef1', message: 'the same commit again', files: ['src/c.ts'] });
    const response = await post(url, {
      hash: '1234567890abcdef',
      message: 'second',
      files: ['src/b.ts', 'src/a.ts'],
    });
    expect(response.statusCode).toBe(200);
    const body = json<SessionBody>(response);
    expect(body.commits.map((c) => [c.hash, c.message])).toEqual([
      ['abcdef1', 'first'],
      ['1234567890abcdef', 'second'],
    ]);
    expect(body.files_changed).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts']);
    expect(Date.parse(body.commits[0]!.at)).not.toBeNaN();
    const noFiles = await post(url, { hash: 'fedcba9', message: 'no files' });
    expect(json<SessionBody>(noFiles).files_changed).toEqual(['src/a.ts', 'src/b.ts', 'src/c.ts']);
  });

  it('422 for a bad hash, an empty message or a path outside the repository', async () => {
    const session = await started((await devTask()).id);
    const url = `/api/work-sessions/${session.id}/commits`;
    expect(fields(await post(url, { hash: 'xyz', message: 'm' }))).toEqual(['body.hash']);
    expect(fields(await post(url, { hash: 'abc1234', message: '' }))).toEqual(['body.message']);
    expect(fields(await post(url, { hash: 'abc1234', message: 'm', files: ['ok.ts', '../etc'] }))).toEqual([
      'body.files[1]',
    ]);
    expect(fields(await post(url, { hash: 'abc1234', message: 'm', extra: 1 }))).toEqual(['body.extra']);
  });

  it('records the pull request', async () => {
    const session = await started((await devTask()).id);
    const url = `/api/work-sessions/${session.id}/pr`;
    const response = await post(url, { pr_number: 42, pr_url: 'https://git.example/acme/api/pull/42' });
    expect(response.statusCode).toBe(200);
    expect(json<SessionBody>(response)).toMatchObject({
      pr_number: 42,
      pr_url: 'https://git.example/acme/api/pull/42',
    });
    expect(fields(await post(url, { pr_number: 0, pr_url: 'https://x.test/1' }))).toEqual(['body.pr_number']);
    expect(fields(await post(url, { pr_number: 1, pr_url: 'not a url' }))).toEqual(['body.pr_url']);
    expect(fields(await post(url, { pr_number: 1, pr_url: 'ftp://x.test/1' }))).toEqual(['body.pr_url']);
  });

  it('ends a session; an ended session takes no more changes', async () => {
    const session = await started((await devTask()).id);
    const ended = await post(`/api/work-sessions/${session.id}/end`, { status: 'completed' });
    expect(ended.statusCode).toBe(200);
    expect(json<SessionBody>(ended)).toMatchObject({ status: 'completed', ended_at: expect.any(String) });
    for (const [path, payload] of [
      ['end', { status: 'abandoned' }],
      ['commits', { hash: 'abc1234', message: 'late' }],
      ['pr', { pr_number: 1, pr_url: 'https://x.test/1' }],
    ] as const) {
      const response = await post(`/api/work-sessions/${session.id}/${path}`, payload);
      expect(response.statusCode).toBe(409);
      expect(errorOf(response).code).toBe('session_not_active');
    }
    expect(fields(await post(`/api/work-sessions/${session.id}/end`, { status: 'active' }))).toEqual([
      'body.status',
    ]);
  });

  it('only the session’s owner, the CEO or a PM may change it', async () => {
    const session = await started((await devTask()).id);
    const refused = await post(
      `/api/work-sessions/${session.id}/commits`,
      { hash: 'abc1234', message: 'm' },
      dev2,
    );
    expect(refused.statusCode).toBe(403);
    const byPm = await post(
      `/api/work-sessions/${session.id}/pr`,
      { pr_number: 7, pr_url: 'https://x.test/7' },
      t.headersFor('main-pm', 'main_pm', 'main_pm'),
    );
    expect(byPm.statusCode).toBe(200);
  });

  it('404 for an unknown session', async () => {
    const id = randomUUID();
    const calls = [
      post(`/api/work-sessions/${id}/commits`, { hash: 'abc1234', message: 'm' }),
      post(`/api/work-sessions/${id}/pr`, { pr_number: 1, pr_url: 'https://x.test/1' }),
      post(`/api/work-sessions/${id}/end`, { status: 'completed' }),
    ];
    expect((await Promise.all(calls)).map((r) => r.statusCode)).toEqual([404, 404, 404]);
  });
});

describe('reading sessions', () => {
  let taskA: string;
  let sessionIds: string[];

  beforeAll(async () => {
    taskA = (await devTask()).id;
    const first = await started(taskA);
    await post(`/api/work-sessions/${first.id}/end`, { status: 'abandoned' });
    await new Promise((resolve) => setTimeout(resolve, 5)); // distinct start times, for the order
    const second = await started(taskA);
    const byDev2 = await started((await devTask({ assignedTo: DEV_2, activeClaimantId: DEV_2 })).id, dev2);
    sessionIds = [first.id, second.id, byDev2.id];
  });

  const list = async (query: string) => {
    const response = await t.app.inject({ url: `/api/work-sessions${query}`, headers: dev2 });
    expect(response.statusCode).toBe(200);
    return json<{ sessions: SessionBody[]; total: number; limit: number; offset: number }>(response);
  };

  it('filters by task, agent and status, newest first', async () => {
    const byTask = await list(`?task_id=${taskA}`);
    expect(byTask.sessions.map((s) => s.id)).toEqual([sessionIds[1], sessionIds[0]]);
    expect(byTask.total).toBe(2);
    const active = await list(`?task_id=${taskA}&status=active`);
    expect(active.sessions.map((s) => s.id)).toEqual([sessionIds[1]]);
    const byAgent = await list(`?agent_id=${DEV_2}&status=active`);
    expect(byAgent.sessions.map((s) => s.id)).toContain(sessionIds[2]);
    expect(byAgent.sessions.every((s) => s.agent_id === DEV_2 && s.status === 'active')).toBe(true);
  });

  it('pages with limit and offset, reporting the total', async () => {
    const all = await list('?limit=200');
    const page = await list('?limit=2&offset=1');
    expect(page).toMatchObject({ total: all.total, limit: 2, offset: 1 });
    expect(page.sessions.map((s) => s.id)).toEqual(all.sessions.slice(1, 3).map((s) => s.id));
  });

  it('gets one by id; 404 unknown, 422 malformed', async () => {
    const one = await t.app.inject({ url: `/api/work-sessions/${sessionIds[0]}`, headers: dev2 });
    expect(json<SessionBody>(one)).toMatchObject({ id: sessionIds[0], status: 'abandoned' });
    expect(
      (await t.app.inject({ url: `/api/work-sessions/${randomUUID()}`, headers: dev2 })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: '/api/work-sessions/nope', headers: dev2 })).statusCode).toBe(422);
  });

  it('422 for bad filters', async () => {
    for (const query of ['?limit=0', '?limit=201', '?offset=-1', '?status=open', '?task_id=1a2b3c4d']) {
      const response = await t.app.inject({ url: `/api/work-sessions${query}`, headers: dev2 });
      expect(response.statusCode).toBe(422);
    }
  });

  it('401 without credentials, on every route', async () => {
    const id = sessionIds[0]!;
    const calls = [
      t.app.inject({ url: '/api/work-sessions' }),
      t.app.inject({ url: `/api/work-sessions/${id}` }),
      t.app.inject({ method: 'POST', url: '/api/work-sessions', payload: { task_id: taskA, branch: 'x' } }),
      t.app.inject({
        method: 'POST',
        url: `/api/work-sessions/${id}/commits`,
        payload: { hash: 'abc1234', message: 'm' },
      }),
      t.app.inject({
        method: 'POST',
        url: `/api/work-sessions/${id}/pr`,
        payload: { pr_number: 1, pr_url: 'https://x.test' },
      }),
      t.app.inject({ method: 'POST', url: `/api/work-sessions/${id}/end`, payload: { status: 'completed' } }),
    ];
    expect((await Promise.all(calls)).map((r) => r.statusCode)).toEqual([401, 401, 401, 401, 401, 401]);
  });
});
