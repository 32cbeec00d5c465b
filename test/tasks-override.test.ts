import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { clientFor, ok, refused, taskBody } from '../src/modules/tasks/test-fixtures.js';
import { insertProject } from './fixtures-task-rows.js';
import { startTestApp, type TestApp } from './support/app.js';

let t: TestApp;
let projectId: string;
let as: (slug: string) => ReturnType<typeof clientFor>;

beforeAll(async () => {
  t = await startTestApp();
  projectId = await insertProject(t.platform.database.db);
  as = (slug) => clientFor(t.app, t.headersFor, slug);
});
afterAll(() => t.close());

const id = (slug: string) => rosterMember(slug).id;

const newTask = async (overrides: Record<string, unknown> = {}) =>
  ok(await as('main-pm').post('/api/tasks', taskBody({ project_id: projectId, ...overrides }))).id;

const patch = (who: string, taskId: string, body: object) => as(who).patch(`/api/tasks/${taskId}`, body);

const events = async (taskId: string) =>
  (await as('ceo').get(`/api/tasks/${taskId}/events`)).json().events as {
    action: string;
    from_status: string | null;
    to_status: string | null;
    reason: string | null;
    data: Record<string, unknown>;
  }[];

describe('CEO god mode', () => {
  it('overrides the status, audited; review and terminal targets need force', async () => {
    const task = await newTask();
    const moved = ok(
      await patch('ceo', task, { status: 'in_progress', assigned_to: 'be-dev-1', reason: 'hand-off' }),
    );
    expect(moved).toMatchObject({
      status: 'in_progress',
      assigned_to: id('be-dev-1'),
      active_claimant_id: id('be-dev-1'),
    });
    expect(moved.markers).toMatchObject({
      admin_override: { from: 'pending', to: 'in_progress', forced: false },
    });

    for (const target of [
      'completed',
      'cancelled',
      'awaiting_qa',
      'awaiting_documentation',
      'awaiting_pr_review',
      'awaiting_pm_review',
      'awaiting_ceo_approval',
    ]) {
      const response = await patch('ceo', task, { status: target });
      refused(response, 409, 'force_required');
      expect(response.json().error.details).toEqual({ from: 'in_progress', to: target });
    }
    const forced = ok(await patch('ceo', task, { status: 'awaiting_qa', force: true }));
    expect(forced).toMatchObject({ status: 'awaiting_qa', active_claimant_id: null });
    ok(await patch('ceo', task, { status: 'completed', force: true, reason: 'shipped by hand' }));
    refused(await patch('ceo', task, { status: 'pending' }), 409, 'force_required');
    const revived = ok(await patch('ceo', task, { status: 'pending', force: true }));
    expect(revived.status).toBe('pending');

    const overrides = (await events(task)).filter((e) => e.action === 'admin_override');
    expect(overrides.map((e) => `${e.from_status}>${e.to_status} ${e.data.forced}`)).toEqual([
      'pending>in_progress false',
      'in_progress>awaiting_qa true',
      'awaiting_qa>completed true',
      'completed>pending true',
    ]);
    expect(overrides[2]!.reason).toBe('shipped by hand');
  });

  it('is the CEO’s only: the header without the CEO token proves nothing', async () => {
    const task = await newTask();
    refused(await patch('main-pm', task, { status: 'in_progress' }), 403, 'not_authorized');
    refused(await patch('auditor', task, { status: 'in_progress' }), 403, 'not_authorized');
    refused(
      await patch('be-dev-1', task, { force: true, title: 'Retitled by the developer' }),
      403,
      'not_authorized',
    );
    const spoofed = await t.app.inject({
      method: 'PATCH',
      url: `/api/tasks/${task}`,
      headers: { 'x-agent-role': 'ceo', 'x-agent-id': id('ceo') },
      payload: { status: 'in_progress' },
    });
    expect(spoofed.statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'PATCH',
      url: `/api/tasks/${task}`,
      headers: { ...as('main-pm').headers, 'x-agent-role': 'ceo' },
      payload: { status: 'in_progress' },
    });
    expect(forged.statusCode).toBe(401);
    const panel = await t.app.inject({
      method: 'PATCH',
      url: `/api/tasks/${task}`,
      headers: { ...t.ceoHeaders, 'x-agent-role': 'ceo' },
      payload: { status: 'in_progress' },
    });
    expect(panel.statusCode, panel.body).toBe(200);
  });

  it('restores the pre-block owner when overriding out of blocked', async () => {
    const task = await newTask();
    ok(await as('be-dev-2').act(task, 'claim'));
    ok(await as('be-dev-2').act(task, 'start'));
    ok(await as('be-dev-2').act(task, 'block', { reason: 'waiting for credentials' }));
    ok(await patch('ceo', task, { assigned_to: 'be-pm' }));
    const restored = ok(await patch('ceo', task, { status: 'in_progress' }));
    expect(restored).toMatchObject({ assigned_to: id('be-dev-2'), active_claimant_id: id('be-dev-2') });
    ok(await as('be-dev-2').act(task, 'unclaim'));
  });
});

describe('edit scopes', () => {
  it('lets PMs change wording and priority only, a cell PM on its own team only', async () => {
    const task = await newTask();
    expect(ok(await patch('be-pm', task, { title: 'Renamed by the PM', priority: 0 }))).toMatchObject({
      title: 'Renamed by the PM',
      priority: 0,
    });
    refused(await patch('be-pm', task, { assigned_to: 'be-dev-1' }), 403, 'not_authorized');
    refused(await patch('fe-pm', task, { title: 'Not my team' }), 403, 'not_authorized');
    expect(
      ok(await patch('main-pm', task, { description: 'A new and longer description of it.' })).description,
    ).toBe('A new and longer description of it.');
  });

  it('lets the owner change its own fields, and nobody else', async () => {
    const task = await newTask({ assigned_to: 'be-dev-1' });
    const edited = ok(
      await patch('be-dev-1', task, { intends_to_touch: ['src/health/**'], adds_migration: true }),
    );
    expect(edited).toMatchObject({ intends_to_touch: ['src/health/**'], adds_migration: true });
    refused(await patch('be-dev-2', task, { intends_to_touch: ['src/**'] }), 403, 'not_authorized');
    refused(await patch('be-dev-1', task, { budget_usd: 10 }), 403, 'not_authorized');
    refused(await patch('be-dev-1', task, {}), 422, 'validation_failed');
  });

  it('lets the board and the auditor change privileged fields', async () => {
    const task = await newTask();
    const assigned = ok(
      await patch('auditor', task, { assigned_to: 'be-dev-2', budget_usd: 12.5, sequence: 3 }),
    );
    expect(assigned).toMatchObject({ assigned_to: id('be-dev-2'), budget_usd: 12.5, sequence: 3 });
    refused(await patch('product-owner', task, { assigned_to: 'be-pm' }), 422, 'validation_failed');
    refused(await patch('product-owner', task, { dependency_ids: [task] }), 422, 'validation_failed');
    expect(ok(await patch('product-owner', task, { assigned_to: null })).assigned_to).toBeNull();
  });

  it('keeps the ids of unchanged acceptance criteria', async () => {
    const task = await newTask();
    const before = ok(await as('ceo').get(`/api/tasks/${task}`)).acceptance_criteria;
    const after = ok(
      await patch('be-pm', task, {
        acceptance_criteria: ['The body names the version', 'It answers within 50 ms'],
      }),
    ).acceptance_criteria;
    expect(after[0]).toEqual(before[1]);
    expect(after[1]!.id).not.toBe(before[0]!.id);
    const update = (await events(task)).find((e) => e.action === 'update');
    expect(update?.data).toEqual({ fields: ['acceptance_criteria'] });
  });

  it('answers 404 for an unknown task and 422 for a short id', async () => {
    refused(
      await patch('ceo', '00000000-0000-4000-8000-000000000000', { title: 'Nothing' }),
      404,
      'not_found',
    );
    const short = await patch('ceo', 'abcdef12', { title: 'Nothing' });
    refused(short, 422, 'validation_failed');
    expect(short.json().error.remediate).toBeDefined();
  });
});

describe('assign-review-pm', () => {
  it('assigns the cell PM of the task’s team, else the main PM; a no-op the second time', async () => {
    const task = await newTask({ team: 'frontend' });
    refused(await as('ceo').post(`/api/tasks/${task}/assign-review-pm`), 409, 'invalid_state');
    ok(await patch('ceo', task, { status: 'awaiting_pm_review', force: true }));
    const assigned = ok(await as('main-pm').post(`/api/tasks/${task}/assign-review-pm`));
    expect(assigned).toMatchObject({
      status: 'awaiting_pm_review',
      assigned_to: id('fe-pm'),
      claimed_by: id('fe-pm'),
      active_claimant_id: id('fe-pm'),
    });
    ok(await as('ceo').post(`/api/tasks/${task}/assign-review-pm`));
    expect((await events(task)).filter((e) => e.action === 'assign_review_pm')).toHaveLength(1);
    expect(ok(await as('fe-pm').act(task, 'complete')).status).toBe('completed');

    const boardTask = await newTask({ team: 'board', task_type: 'research' });
    ok(await patch('ceo', boardTask, { status: 'awaiting_pm_review', force: true }));
    expect(ok(await as('ceo').post(`/api/tasks/${boardTask}/assign-review-pm`)).assigned_to).toBe(
      id('main-pm'),
    );
  });

  it('is for the CEO, the main PM and the system only', async () => {
    const task = await newTask();
    refused(await as('be-pm').post(`/api/tasks/${task}/assign-review-pm`), 403, 'forbidden');
    refused(await as('be-dev-1').post(`/api/tasks/${task}/assign-review-pm`), 403, 'forbidden');
    refused(
      await as('ceo').post('/api/tasks/00000000-0000-4000-8000-000000000000/assign-review-pm'),
      404,
      'not_found',
    );
  });
});

describe('approve-and-start', () => {
  const notes = 'Approved: go ahead with the plan as written.';

  it('hands a pending task to the main PM, confirmed, without a status change', async () => {
    const task = await newTask({ assigned_to: 'be-dev-1' });
    refused(
      await as('ceo').post(`/api/tasks/${task}/approve-and-start`, { notes: 'too short' }),
      422,
      'validation_failed',
    );
    const started = ok(await as('ceo').post(`/api/tasks/${task}/approve-and-start`, { notes }));
    expect(started).toMatchObject({
      status: 'pending',
      assigned_to: id('main-pm'),
      confirmed_by_human: true,
      team: 'main_pm',
      task_type: 'planning',
    });
    ok(await as('ceo').post(`/api/tasks/${task}/approve-and-start`, { notes }));
    const audited = (await events(task)).filter((e) => e.action === 'approve_and_start');
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({
      reason: notes,
      data: { assigned_to: id('main-pm'), previous_assignee: id('be-dev-1'), retyped_from: 'code' },
    });
  });

  it('needs a pending task and the CEO', async () => {
    const task = await newTask();
    ok(await as('be-dev-1').act(task, 'claim'));
    refused(await as('ceo').post(`/api/tasks/${task}/approve-and-start`, { notes }), 409, 'invalid_state');
    refused(await as('main-pm').post(`/api/tasks/${task}/approve-and-start`, { notes }), 403, 'forbidden');
    refused(await as('ceo').post(`/api/tasks/${task}/approve-and-start`, {}), 422, 'validation_failed');
    ok(await as('be-dev-1').act(task, 'unclaim'));
  });
});
