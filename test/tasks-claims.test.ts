import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import { type CreateTaskInput, SYSTEM_ACTOR } from '../src/modules/tasks/index.js';
import {
  clientFor,
  insertAgents,
  ok,
  refused,
  taskBody,
  taskOf,
} from '../src/modules/tasks/test-fixtures.js';
import { insertProject } from './fixtures-task-rows.js';
import { startTestApp, type TestApp } from './support/app.js';

let t: TestApp;
let projectId: string;
let as: (who: string | { id: string; role: string; team?: string | null }) => ReturnType<typeof clientFor>;

beforeAll(async () => {
  t = await startTestApp();
  projectId = await insertProject(t.platform.database.db);
  as = (who) => clientFor(t.app, t.headersFor, who);
});
afterAll(() => t.close());

const newTask = async (overrides: Record<string, unknown> = {}) =>
  ok(await as('main-pm').post('/api/tasks', taskBody({ project_id: projectId, ...overrides }))).id;

const claimEvents = async (taskId: string) =>
  (
    (await as('ceo').get(`/api/tasks/${taskId}/events`)).json().events as {
      action: string;
      actor_id: string;
    }[]
  ).filter((e) => e.action === 'claim');

describe('concurrent claims', () => {
  it('50 concurrent claimers: exactly one winner, 49 × 409 already_claimed naming it', async () => {
    const developers = await insertAgents(t.platform.database.db, 50, 'developer', 'backend');
    const task = await newTask();
    const responses = await Promise.all(
      developers.map((dev) => as({ id: dev.id, role: 'developer', team: 'backend' }).act(task, 'claim')),
    );
    const winners = responses.filter((r) => r.statusCode === 200);
    const losers = responses.filter((r) => r.statusCode === 409);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(49);
    const winner = taskOf(winners[0]!).active_claimant_id;
    expect(developers.map((d) => d.id)).toContain(winner);
    for (const loser of losers) {
      expect(loser.json().error).toMatchObject({
        code: 'already_claimed',
        details: { task_id: task, owner: { id: winner, role: 'developer' } },
      });
    }
    const events = await claimEvents(task);
    expect(events).toHaveLength(1);
    expect(events[0]!.actor_id).toBe(winner);
  });

  it('a re-claim by the holder is idempotent and not audited twice', async () => {
    const task = await newTask();
    ok(await as('be-dev-1').act(task, 'claim'));
    expect(ok(await as('be-dev-1').act(task, 'claim')).status).toBe('claimed');
    expect(await claimEvents(task)).toHaveLength(1);
    ok(await as('be-dev-1').act(task, 'unclaim'));
  });
});

describe('dependency hold', () => {
  it('holds a pending task until its dependencies are terminal, then moves them to completed', async () => {
    const first = await newTask({ title: 'Schema first' });
    const second = await newTask({ title: 'Then the endpoint', dependency_ids: [first] });
    const error = refused(await as('be-dev-2').act(second, 'claim'), 409, 'dependencies_open');
    expect(error.details.dependencies).toEqual([{ id: first, title: 'Schema first', status: 'pending' }]);

    ok(
      await as('ceo').patch(`/api/tasks/${first}`, {
        status: 'completed',
        force: true,
        reason: 'done by hand',
      }),
    );
    const settled = ok(await as('ceo').get(`/api/tasks/${second}`));
    expect(settled).toMatchObject({ dependency_ids: [], completed_dependency_ids: [first] });
    ok(await as('be-dev-2').act(second, 'claim'));
    ok(await as('be-dev-2').act(second, 'unclaim'));
  });

  it('refuses to create a task depending on an unknown one', async () => {
    const response = await as('main-pm').post(
      '/api/tasks',
      taskBody({ project_id: projectId, dependency_ids: ['00000000-0000-4000-8000-00000000dead'] }),
    );
    refused(response, 422, 'validation_failed');
    expect(response.json().error.details[0].field).toBe('body.dependency_ids');
  });
});

describe('sequence hold', () => {
  it('holds a later sibling while an earlier one is open', async () => {
    const parent = await newTask({ task_type: 'planning', title: 'Cell plan' });
    const one = await newTask({ parent_task_id: parent, sequence: 1, title: 'Step one' });
    const two = await newTask({ parent_task_id: parent, sequence: 2, title: 'Step two' });
    const parallel = await newTask({ parent_task_id: parent, sequence: 1, title: 'Also step one' });

    const error = refused(await as('be-dev-2').act(two, 'claim'), 409, 'sequence_held');
    expect((error.details.blockers as { id: string }[]).map((b) => b.id).sort()).toEqual(
      [one, parallel].sort(),
    );
    ok(await as('be-dev-2').act(parallel, 'claim')); // equal sequences run in parallel
    ok(await as('be-dev-2').act(parallel, 'unclaim'));

    ok(await as('be-pm').act(one, 'cancel'));
    ok(await as('be-pm').act(parallel, 'cancel'));
    ok(await as('be-dev-2').act(two, 'claim'));
    ok(await as('be-dev-2').act(two, 'unclaim'));
  });

  it('only waits for predecessors when the siblings are linked by dependencies', async () => {
    const parent = await newTask({ task_type: 'planning', title: 'Linked plan' });
    const unrelated = await newTask({ parent_task_id: parent, sequence: 1, title: 'Unrelated' });
    const base = await newTask({ parent_task_id: parent, sequence: 1, title: 'Base' });
    const top = await newTask({ parent_task_id: parent, sequence: 2, title: 'Top', dependency_ids: [] });
    ok(await as('ceo').patch(`/api/tasks/${top}`, { dependency_ids: [base] }));
    ok(await as('ceo').patch(`/api/tasks/${base}`, { status: 'completed', force: true }));
    // `unrelated` (sequence 1, still pending) is no predecessor of `top`, so it does not hold it.
    expect((await as('ceo').get(`/api/tasks/${unrelated}`)).json().status).toBe('pending');
    ok(await as('be-dev-2').act(top, 'claim'));
    ok(await as('be-dev-2').act(top, 'unclaim'));
  });
});

describe('held tasks', () => {
  it('are never claimable or startable by anyone', async () => {
    const held = await t.modules.tasks.service.create(
      {
        ...(taskBody({ project_id: projectId }) as unknown as CreateTaskInput),
        held: true,
        source: 'release_manager',
      },
      SYSTEM_ACTOR,
    );
    expect(held).toMatchObject({ held: true, source: 'release_manager' });
    refused(await as('be-dev-1').act(held.id, 'claim'), 409, 'task_held');
    refused(await as('be-pm').act(held.id, 'claim'), 409, 'task_held');
    ok(
      await as('ceo').patch(`/api/tasks/${held.id}`, {
        status: 'claimed',
        assigned_to: 'be-dev-1',
        reason: 'forced into a claim to try starting it',
      }),
    );
    refused(await as('be-dev-1').act(held.id, 'start'), 409, 'task_held');
    ok(await as('ceo').patch(`/api/tasks/${held.id}`, { status: 'cancelled', force: true }));
    const list = (await as('ceo').get('/api/tasks?source=release_manager')).json().tasks;
    expect(list.map((task: { id: string }) => task.id)).toEqual([held.id]);
  });
});

describe('claim guards', () => {
  it('holds a developer to one task at a time', async () => {
    const [dev] = await insertAgents(t.platform.database.db, 1, 'developer', 'backend');
    const me = as({ id: dev!.id, role: 'developer', team: 'backend' });
    const first = await newTask();
    const second = await newTask();
    ok(await me.act(first, 'claim'));
    const error = refused(await me.act(second, 'claim'), 409, 'single_active_task');
    expect(error.details.tasks).toEqual([expect.objectContaining({ id: first, status: 'claimed' })]);
    ok(await me.act(first, 'unclaim'));
    ok(await me.act(second, 'claim'));
  });

  it('lets coordinator PMs hold many tasks', async () => {
    const a = await newTask({ task_type: 'planning' });
    const b = await newTask({ task_type: 'planning' });
    ok(await as('be-pm').act(a, 'claim'));
    ok(await as('be-pm').act(b, 'claim'));
  });

  it('keeps a pre-assigned task for its assignee (a PM may take it over)', async () => {
    const task = await newTask({ assigned_to: 'ux-dev-1', team: 'ux_ui' });
    const error = refused(await as('ux-dev-2').act(task, 'claim'), 409, 'assigned_elsewhere');
    expect(error.details.assigned_to).toBe(rosterMember('ux-dev-1').id);
    expect(ok(await as('ux-pm').act(task, 'claim')).assigned_to).toBe(rosterMember('ux-pm').id);
  });

  it('refuses a claim from another cell and from a role whose queue it is not', async () => {
    const task = await newTask();
    refused(await as('fe-dev-1').act(task, 'claim'), 403, 'not_authorized');
    refused(await as('be-qa').act(task, 'claim'), 403, 'not_authorized');
    refused(await as('ceo').act(task, 'claim'), 403, 'not_authorized');
  });
});
