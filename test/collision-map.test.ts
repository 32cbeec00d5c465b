/** GET /api/tasks/{id}/collision-map through the whole app, on task rows written directly. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProject, insertTask, type TaskRow } from './fixtures-task-rows.js';
import { json, startTestApp, type TestApp } from './support/app.js';

interface SiblingBody {
  id: string;
  id8: string;
  title: string;
  status: string;
  branch_name: string | null;
  pr_number: number | null;
  sequence: number;
  intends_to_touch: string[];
  adds_migration: boolean;
  touches_shared: boolean;
  overlap: string[];
}
interface MapBody {
  task_id: string;
  parent_task_id: string | null;
  intends_to_touch: string[];
  adds_migration: boolean;
  touches_shared: boolean;
  siblings: SiblingBody[];
  truncated: boolean;
}

let t: TestApp;
let projectId: string;
let otherProjectId: string;
let parent: TaskRow;
let task: TaskRow;
const named: Record<string, TaskRow> = {};

beforeAll(async () => {
  t = await startTestApp();
  const db = t.platform.database.db;
  projectId = await insertProject(db);
  otherProjectId = await insertProject(db);
  parent = await insertTask(db, { projectId, intendsToTouch: ['src/**'], addsMigration: true });
  const child = (title: string, fields: Parameters<typeof insertTask>[1] = {}) =>
    insertTask(db, { title, projectId, parentTaskId: parent.id, depth: 1, ...fields }).then((row) => {
      named[title] = row;
      return row;
    });
  task = await child('the task', {
    intendsToTouch: ['src/api/**', 'src/lib/*.ts'],
    addsMigration: true,
    touchesShared: true,
  });
  await child('same file', {
    intendsToTouch: ['docs/api.md', 'src/api/users.ts'],
    priority: 1,
    sequence: 2,
    status: 'in_progress',
    branchName: 'feature/backend/abc',
    prNumber: 17,
  });
  await child('globs meet', { intendsToTouch: ['src/**/util.ts'], priority: 1, sequence: 1 });
  await child('directory holds', { intendsToTouch: ['src/api'], priority: 3 });
  await child('disjoint', { intendsToTouch: ['src/web/**', 'src/lib/deep/x.ts'] });
  await child('migration only', { intendsToTouch: ['src/web/**'], addsMigration: true, priority: 0 });
  await child('shared only', { touchesShared: true });
  await child('no surface');
  await child('cancelled', { intendsToTouch: ['src/api/**'], status: 'cancelled' });
  await child('other project', { projectId: otherProjectId, intendsToTouch: ['src/api/**'] });
  await child('many globs', {
    intendsToTouch: [
      'a/**',
      'src/api/a.ts',
      'b/**',
      'src/api/b.ts',
      'src/api/c.ts',
      'src/api/d.ts',
      'src/api/e.ts',
    ],
    priority: 3,
    sequence: 1,
  });
  // A cousin under another parent never counts.
  const otherParent = await insertTask(db, { projectId });
  await insertTask(db, { projectId, parentTaskId: otherParent.id, intendsToTouch: ['src/api/**'] });
});
afterAll(() => t.close());

const get = (id: string, headers: Record<string, string> = t.ceoHeaders) =>
  t.app.inject({ method: 'GET', url: `/api/tasks/${id}/collision-map`, headers });

describe('GET /api/tasks/{id}/collision-map', () => {
  it('lists the colliding same-parent siblings of the same project in (priority, sequence, id) order', async () => {
    const response = await get(task.id, t.headersFor('be-dev-1', 'developer', 'backend'));
    expect(response.statusCode).toBe(200);
    const body = json<MapBody>(response);
    expect(body).toMatchObject({
      task_id: task.id,
      parent_task_id: parent.id,
      intends_to_touch: ['src/api/**', 'src/lib/*.ts'],
      adds_migration: true,
      touches_shared: true,
      truncated: false,
    });
    expect(body.siblings.map((s) => [s.title, s.overlap])).toEqual([
      ['migration only', []],
      ['globs meet', ['src/**/util.ts']],
      ['same file', ['src/api/users.ts']],
      ['directory holds', ['src/api']],
      ['many globs', ['src/api/a.ts', 'src/api/b.ts', 'src/api/c.ts', 'src/api/d.ts', 'src/api/e.ts']],
    ]);
  });

  it('describes each sibling compactly', async () => {
    const body = json<MapBody>(await get(task.id));
    const sameFile = named['same file']!;
    expect(body.siblings.find((s) => s.id === sameFile.id)).toEqual({
      id: sameFile.id,
      id8: sameFile.id.slice(0, 8),
      title: 'same file',
      status: 'in_progress',
      branch_name: 'feature/backend/abc',
      pr_number: 17,
      sequence: 2,
      intends_to_touch: ['docs/api.md', 'src/api/users.ts'],
      adds_migration: false,
      touches_shared: false,
      overlap: ['src/api/users.ts'],
    });
    const many = body.siblings.find((s) => s.title === 'many globs')!;
    expect(many.intends_to_touch).toEqual(['a/**', 'src/api/a.ts', 'b/**', 'src/api/b.ts', 'src/api/c.ts']);
  });

  it('works the same from a sibling’s side', async () => {
    const body = json<MapBody>(await get(named['same file']!.id));
    expect(body.siblings.map((s) => [s.title, s.overlap])).toEqual([
      ['the task', ['src/api/**']],
      ['directory holds', ['src/api']],
    ]);
  });

  it('a root task has no siblings, whatever its surface', async () => {
    const body = json<MapBody>(await get(parent.id));
    expect(body).toEqual({
      task_id: parent.id,
      parent_task_id: null,
      intends_to_touch: ['src/**'],
      adds_migration: true,
      touches_shared: false,
      siblings: [],
      truncated: false,
    });
  });

  it('a task without a surface collides with nobody', async () => {
    const body = json<MapBody>(await get(named['no surface']!.id));
    expect(body.siblings).toEqual([]);
  });

  it('caps the list at ten and says so', async () => {
    const db = t.platform.database.db;
    const root = await insertTask(db, { projectId });
    const mine = await insertTask(db, { projectId, parentTaskId: root.id, intendsToTouch: ['lib/**'] });
    for (let i = 0; i < 11; i++) {
      await insertTask(db, {
        projectId,
        parentTaskId: root.id,
        intendsToTouch: [`lib/f${i}.ts`],
        sequence: i,
      });
    }
    const body = json<MapBody>(await get(mine.id));
    expect(body.siblings).toHaveLength(10);
    expect(body.siblings.map((s) => s.sequence)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(body.truncated).toBe(true);
  });

  it('404 for an unknown task', async () => {
    const response = await get(randomUUID());
    expect(response.statusCode).toBe(404);
    expect(json<{ error: { code: string } }>(response).error.code).toBe('not_found');
  });

  it('422 with the full-UUID hint for a short id', async () => {
    const response = await get(task.id.slice(0, 8));
    expect(response.statusCode).toBe(422);
    const { error } = json<{ error: { code: string; remediate?: string; details: { field: string }[] } }>(
      response,
    );
    expect(error.code).toBe('validation_failed');
    expect(error.details[0]!.field).toBe('params.id');
    expect(error.remediate).toMatch(/36-character/);
  });

  it('401 without credentials', async () => {
    const response = await get(task.id, {});
    expect(response.statusCode).toBe(401);
  });
});
