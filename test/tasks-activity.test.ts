/**
 * GET /api/tasks/activity over HTTP: the newest audit rows across all tasks, newest first, with the
 * task's title and source (an engine origination shows its engine), paged back with `before`; 401
 * without an identity and a 422 for every bad query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskEvents } from '../src/modules/tasks/schema.js';
import { clientFor, taskBody, taskOf } from '../src/modules/tasks/test-fixtures.js';
import { insertProject, insertTask } from './fixtures-task-rows.js';
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

interface Activity {
  id: number;
  task_id: string;
  action: string;
  actor_role: string;
  to_status: string | null;
  task_title: string;
  task_source: string;
}
const activity = async (query = '') => {
  const response = await as('ceo').get(`/api/tasks/activity${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().events as Activity[];
};

describe('GET /api/tasks/activity', () => {
  it('lists the newest task events across tasks, with titles and sources, and pages back', async () => {
    const first = taskOf(
      await as('main-pm').post('/api/tasks', taskBody({ project_id: projectId, title: 'First task' })),
    );
    const second = taskOf(
      await as('main-pm').post('/api/tasks', taskBody({ project_id: projectId, title: 'Second task' })),
    );
    const edited = await as('main-pm').patch(`/api/tasks/${first.id}`, { priority: 0 });
    expect(edited.statusCode, edited.body).toBe(200);
    // An engine origination: the task carries the engine as its source.
    const engineTask = await insertTask(t.platform.database.db, {
      title: 'CI is red on main',
      source: 'engine:ci_watch',
      projectId,
    });
    await t.platform.database.db.insert(taskEvents).values({
      taskId: engineTask.id,
      actorId: 'system',
      actorRole: 'system',
      action: 'create',
      toStatus: 'pending',
    });

    const latest = await activity('?limit=3');
    expect(latest.map((e) => [e.task_title, e.action])).toEqual([
      ['CI is red on main', 'create'],
      [first.title, expect.not.stringMatching(/^create$/)],
      ['Second task', 'create'],
    ]);
    expect(latest[0]).toMatchObject({ task_source: 'engine:ci_watch', actor_role: 'system' });
    expect(latest[2]).toMatchObject({ task_id: second.id, task_source: 'manual', to_status: 'pending' });
    expect(latest[0]!.id).toBeGreaterThan(latest[1]!.id);

    const older = await activity(`?limit=3&before=${latest[2]!.id}`);
    expect(older[0]).toMatchObject({ task_id: first.id, action: 'create', task_title: 'First task' });
    expect(older.every((e) => e.id < latest[2]!.id)).toBe(true);
  });

  it('answers 401 without an identity and 422 for a bad query', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/tasks/activity' })).statusCode).toBe(401);
    for (const query of ['?limit=0', '?limit=201', '?limit=abc', '?before=0', '?before=1e40', '?since=1']) {
      const response = await as('ceo').get(`/api/tasks/activity${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(response.json().error.code).toBe('validation_failed');
    }
  });
});
