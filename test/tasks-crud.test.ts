/**
 * /api/tasks create, read, list and audit trail over HTTP: the declaration rules (422 with field
 * details), who may open tasks, targets and hierarchy, 404s, the short-id hint, filters and both
 * kinds of pagination.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rosterMember } from '../src/modules/agents/index.js';
import type { TaskView } from '../src/modules/tasks/index.js';
import { clientFor, ok, taskBody, taskOf } from '../src/modules/tasks/test-fixtures.js';
import { insertProject } from './fixtures-task-rows.js';
import { startTestApp, type TestApp } from './support/app.js';

let t: TestApp;
let projectId: string;
let otherProjectId: string;
let as: (slug: string) => ReturnType<typeof clientFor>;

beforeAll(async () => {
  t = await startTestApp();
  projectId = await insertProject(t.platform.database.db);
  otherProjectId = await insertProject(t.platform.database.db);
  as = (slug) => clientFor(t.app, t.headersFor, slug);
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, who = 'main-pm') => as(who).post('/api/tasks', body);

function fields(response: LightMyRequestResponse): string[] {
  expect(response.statusCode, response.body).toBe(422);
  expect(response.json().error.code).toBe('validation_failed');
  return (response.json().error.details as { field: string }[]).map((d) => d.field);
}

describe('create', () => {
  it('opens a pending task with generated criterion ids and defaults', async () => {
    const response = await create(taskBody({ project_id: projectId }));
    expect(response.statusCode).toBe(201);
    const task = taskOf(response);
    expect(task).toMatchObject({
      status: 'pending',
      priority: 2,
      sequence: 0,
      depth: 0,
      source: 'manual',
      project_id: projectId,
      product_id: null,
      cell_projects: {},
      created_by: rosterMember('main-pm').id,
      assigned_to: null,
      held: false,
    });
    expect(task.acceptance_criteria.map((c) => c.text)).toEqual([
      'GET /health answers 200',
      'The body names the version',
    ]);
    expect(task.acceptance_criteria.every((c) => /^[0-9a-f]{32}$/.test(c.id))).toBe(true);
    const events = (await as('ceo').get(`/api/tasks/${task.id}/events`)).json().events;
    expect(events).toEqual([
      expect.objectContaining({
        action: 'create',
        from_status: null,
        to_status: 'pending',
        actor_role: 'main_pm',
      }),
    ]);
  });

  it('refuses invalid bodies with field details', async () => {
    const { title: _t, ...untitled } = taskBody({ project_id: projectId });
    expect(fields(await create(untitled))).toEqual(['body.title']);
    expect(fields(await create(taskBody({ project_id: projectId, description: 'too short' })))).toEqual([
      'body.description',
    ]);
    expect(
      fields(
        await create(taskBody({ project_id: projectId, acceptance_criteria: Array(8).fill('criterion') })),
      ),
    ).toEqual(['body.acceptance_criteria']);
    expect(fields(await create(taskBody({ project_id: projectId, title: 'x'.repeat(201) })))).toEqual([
      'body.title',
    ]);
    expect(fields(await create(taskBody({ project_id: projectId, priority: 4 })))).toEqual(['body.priority']);
    expect(fields(await create(taskBody({ project_id: projectId, complexity: 'huge' })))).toContain(
      'body.complexity',
    );
    expect(fields(await create(taskBody({ project_id: 'not-a-uuid' })))).toContain('body.project_id');
    expect(fields(await create(taskBody({ project_id: projectId, colour: 'red' })))).toEqual(['body.colour']);
    const { nature: _n, complexity: _c, ...undeclared } = taskBody({ project_id: projectId });
    expect(fields(await create(undeclared)).sort()).toEqual(['body.complexity', 'body.nature']);
  });

  it('needs exactly one target', async () => {
    expect(fields(await create(taskBody()))).toEqual(['body.project_id']);
    expect(
      fields(await create(taskBody({ project_id: projectId, cell_projects: { backend: otherProjectId } }))),
    ).toEqual(['body.project_id', 'body.cell_projects']);
    expect(fields(await create(taskBody({ cell_projects: {} })))).toEqual(['body.project_id']);
    expect(fields(await create(taskBody({ project_id: '00000000-0000-4000-8000-0000000000aa' })))).toEqual([
      'body.project_id',
    ]);
    expect(fields(await create(taskBody({ product_id: '00000000-0000-4000-8000-0000000000bb' })))).toEqual([
      'body.product_id',
    ]);
  });

  it('takes a per-cell project map, and an umbrella without any target', async () => {
    const root = ok(
      await create(
        taskBody({
          team: 'main_pm',
          task_type: 'planning',
          cell_projects: { backend: projectId, frontend: otherProjectId },
        }),
      ),
    );
    expect(root.cell_projects).toEqual({ backend: projectId, frontend: otherProjectId });
    expect((await as('be-dev-1').get(`/api/tasks/${root.id}`)).json().cell_projects).toEqual(
      root.cell_projects,
    );
    const child = ok(
      await create(taskBody({ parent_task_id: root.id, team: 'frontend', task_type: 'planning' })),
    );
    expect(child).toMatchObject({ project_id: otherProjectId, depth: 1 });
    expect(
      fields(await create(taskBody({ parent_task_id: root.id, team: 'ux_ui', task_type: 'planning' }))),
    ).toEqual(['body.project_id']);
    const umbrella = ok(
      await create(
        taskBody({
          team: 'main_pm',
          task_type: 'planning',
          batch_id: '7d0b4cc8-41c4-4d51-9d08-6a5e4a0f2b9a',
        }),
      ),
    );
    expect(umbrella).toMatchObject({ project_id: null, product_id: null, cell_projects: {} });
  });

  it('allows four levels and refuses a fifth', async () => {
    let parent = ok(await create(taskBody({ project_id: projectId, task_type: 'planning' }))).id;
    for (const depth of [1, 2, 3]) {
      const child = ok(await create(taskBody({ parent_task_id: parent, task_type: 'planning' })));
      expect(child.depth).toBe(depth);
      parent = child.id;
    }
    expect(fields(await create(taskBody({ parent_task_id: parent })))).toEqual(['body.parent_task_id']);
    expect(
      fields(await create(taskBody({ parent_task_id: '00000000-0000-4000-8000-0000000000cc' }))),
    ).toContain('body.parent_task_id');
  });

  it('never hands a PM a fresh code task, nor gives the main_pm team one', async () => {
    expect(fields(await create(taskBody({ project_id: projectId, assigned_to: 'be-pm' })))).toEqual([
      'body.assigned_to',
    ]);
    expect(fields(await create(taskBody({ project_id: projectId, team: 'main_pm' })))).toEqual([
      'body.task_type',
    ]);
    expect(fields(await create(taskBody({ project_id: projectId, assigned_to: 'nobody-here' })))).toEqual([
      'body.assigned_to',
    ]);
    const assigned = ok(await create(taskBody({ project_id: projectId, assigned_to: 'be-dev-1' })));
    expect(assigned.assigned_to).toBe(rosterMember('be-dev-1').id);
  });

  it('lets PMs, the board and the CEO open tasks, a cell PM for its own team only', async () => {
    expect((await create(taskBody({ project_id: projectId }), 'be-dev-1')).statusCode).toBe(403);
    expect((await create(taskBody({ project_id: projectId, team: 'frontend' }), 'be-pm')).statusCode).toBe(
      403,
    );
    expect((await create(taskBody({ project_id: projectId }), 'be-pm')).statusCode).toBe(201);
    expect((await create(taskBody({ project_id: projectId }), 'product-owner')).statusCode).toBe(201);
    const ceo = await t.app.inject({
      method: 'POST',
      url: '/api/tasks',
      headers: t.ceoHeaders,
      payload: taskBody({ project_id: projectId }),
    });
    expect(ceo.statusCode).toBe(201);
  });

  it('needs credentials', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/tasks',
      payload: taskBody({ project_id: projectId }),
    });
    expect(response.statusCode).toBe(401);
    const header = await t.app.inject({
      method: 'GET',
      url: '/api/tasks',
      headers: { 'x-agent-id': 'ceo', 'x-agent-role': 'ceo' },
    });
    expect(header.statusCode).toBe(401);
  });
});

describe('read', () => {
  it('reads a task; 404 for an unknown one; 422 with the remediation hint for a short id', async () => {
    const task = ok(await create(taskBody({ project_id: projectId })));
    expect(ok(await as('be-qa').get(`/api/tasks/${task.id}`)).id).toBe(task.id);
    const missing = await as('be-qa').get('/api/tasks/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('not_found');
    expect((await as('be-qa').get('/api/tasks/00000000-0000-4000-8000-000000000000/events')).statusCode).toBe(
      404,
    );
    const short = await as('be-qa').get(`/api/tasks/${task.id.slice(0, 8)}`);
    expect(fields(short)).toEqual(['params.id']);
    expect(short.json().error.remediate).toMatch(/full 36-character/);
  });
});

describe('list', () => {
  let listProject: string;
  const made: TaskView[] = [];
  beforeAll(async () => {
    listProject = await insertProject(t.platform.database.db);
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 3)); // distinct creation times: newest first is exact
      made.push(
        ok(
          await create(
            taskBody({
              project_id: listProject,
              title: `List task ${i}`,
              team: i % 2 ? 'frontend' : 'backend',
              ...(i === 4 ? { assigned_to: 'fe-dev-1', team: 'frontend' } : {}),
            }),
          ),
        ),
      );
    }
    ok(await as('be-dev-1').act(made[0]!.id, 'claim'));
  });

  const list = async (query: string) => {
    const response = await as('ceo').get(`/api/tasks?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { tasks: TaskView[]; next_cursor: string | null };
  };
  const titles = (page: { tasks: TaskView[] }) => page.tasks.map((task) => task.title);

  it('filters by project, team, status, assignee and parent, newest first', async () => {
    expect(titles(await list(`project_id=${listProject}`))).toEqual(
      [4, 3, 2, 1, 0].map((i) => `List task ${i}`),
    );
    expect(titles(await list(`project_id=${listProject}&team=frontend`))).toEqual([
      'List task 4',
      'List task 3',
      'List task 1',
    ]);
    expect(titles(await list(`project_id=${listProject}&status=claimed`))).toEqual(['List task 0']);
    expect(titles(await list(`project_id=${listProject}&status=claimed&status=pending`))).toHaveLength(5);
    expect(titles(await list('assigned_to=fe-dev-1'))).toEqual(['List task 4']);
    expect(titles(await list(`assigned_to=${rosterMember('fe-dev-1').id}`))).toEqual(['List task 4']);
    expect(titles(await list(`parent_task_id=${made[0]!.id}`))).toEqual([]);
    expect(titles(await list(`project_id=${listProject}&source=manual`))).toHaveLength(5);
  });

  it('searches titles (any case, wildcards literal) and id prefixes with q, with the other filters', async () => {
    expect(titles(await list(`project_id=${listProject}&q=LIST%20TASK%203`))).toEqual(['List task 3']);
    expect(titles(await list(`project_id=${listProject}&q=task&team=backend`))).toEqual([
      'List task 2',
      'List task 0',
    ]);
    expect(titles(await list(`project_id=${listProject}&q=${made[1]!.id.slice(0, 8)}`))).toEqual([
      'List task 1',
    ]);
    // % and _ are searched for as text, not as LIKE wildcards.
    expect(titles(await list(`project_id=${listProject}&q=%25`))).toEqual([]);
    expect(titles(await list(`project_id=${listProject}&q=List_task`))).toEqual([]);
  });

  it('pages by cursor and by offset', async () => {
    const first = await list(`project_id=${listProject}&limit=2`);
    expect(titles(first)).toEqual(['List task 4', 'List task 3']);
    const second = await list(`project_id=${listProject}&limit=2&cursor=${first.next_cursor}`);
    expect(titles(second)).toEqual(['List task 2', 'List task 1']);
    const third = await list(`project_id=${listProject}&limit=2&cursor=${second.next_cursor}`);
    expect(titles(third)).toEqual(['List task 0']);
    expect(third.next_cursor).toBeNull();
    expect(titles(await list(`project_id=${listProject}&limit=2&offset=3`))).toEqual([
      'List task 1',
      'List task 0',
    ]);
  });

  it('refuses bad paging and filters with 422', async () => {
    expect(fields(await as('ceo').get('/api/tasks?limit=201'))).toEqual(['query.limit']);
    expect(fields(await as('ceo').get('/api/tasks?limit=0'))).toEqual(['query.limit']);
    expect(fields(await as('ceo').get('/api/tasks?status=done'))).toContain('query.status.0');
    expect(fields(await as('ceo').get('/api/tasks?cursor=abc&offset=2'))).toEqual(['query.cursor']);
    expect(fields(await as('ceo').get('/api/tasks?cursor=abc'))).toEqual(['query.cursor']);
    expect(fields(await as('ceo').get('/api/tasks?assigned_to=nobody'))).toEqual(['query.assigned_to']);
    expect(fields(await as('ceo').get('/api/tasks?q='))).toEqual(['query.q']);
    expect(fields(await as('ceo').get(`/api/tasks?q=${'x'.repeat(201)}`))).toEqual(['query.q']);
  });
});
