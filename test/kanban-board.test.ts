/** GET /api/kanban through the whole app: columns, counts, order, filters, caps, errors. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KANBAN_STATES } from '../src/modules/kanban/board.js';
import { insertProject, insertTasks, type TaskFields } from './fixtures-task-rows.js';
import { json, startTestApp, type TestApp } from './support/app.js';

interface CardBody {
  id: string;
  id8: string;
  title: string;
  status: string;
  priority: number;
  team: string;
  project_id: string | null;
  assigned_to: string | null;
  parent_task_id: string | null;
  source: string;
  updated_at: string;
}
interface BoardBody {
  columns: { status: string; count: number; truncated: boolean; cards: CardBody[] }[];
  total: number;
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const board = async (query: string, headers: Record<string, string> = t.ceoHeaders) => {
  const response = await t.app.inject({ method: 'GET', url: `/api/kanban${query}`, headers });
  expect(response.statusCode).toBe(200);
  return json<BoardBody>(response);
};
const column = (body: BoardBody, status: string) => body.columns.find((c) => c.status === status)!;
const titles = (body: BoardBody, status: string) => column(body, status).cards.map((c) => c.title);
const minutesAgo = (n: number) => new Date(Date.UTC(2026, 5, 1, 12, 0) - n * 60_000);

async function projectWith(rows: TaskFields[]): Promise<string> {
  const db = t.platform.database.db;
  const projectId = await insertProject(db);
  await insertTasks(
    db,
    rows.map((row) => ({ projectId, ...row })),
  );
  return projectId;
}

describe('GET /api/kanban', () => {
  it('has all fifteen columns in pipeline order, even when empty', async () => {
    const projectId = await insertProject(t.platform.database.db);
    const body = await board(`?project_id=${projectId}`);
    expect(body.columns.map((c) => c.status)).toEqual([...KANBAN_STATES]);
    expect(body.columns.every((c) => c.count === 0 && c.cards.length === 0 && !c.truncated)).toBe(true);
    expect(body.total).toBe(0);
  });

  it('groups by state with counts and compact cards, for any authenticated caller', async () => {
    const parentId = randomUUID();
    const projectId = await projectWith([
      { id: parentId, title: 'root', status: 'in_progress', team: 'main_pm' },
      {
        title: 'leaf',
        status: 'awaiting_qa',
        parentTaskId: parentId,
        assignedTo: '00000000-0000-0000-0001-000000000001',
        source: 'ci_watch',
        priority: 1,
        updatedAt: minutesAgo(3),
      },
      { title: 'idea', status: 'backlog' },
    ]);
    const body = await board(`?project_id=${projectId}`, t.headersFor('fe-qa', 'qa', 'frontend'));
    expect(body.total).toBe(3);
    expect(body.columns.filter((c) => c.count > 0).map((c) => [c.status, c.count])).toEqual([
      ['backlog', 1],
      ['in_progress', 1],
      ['awaiting_qa', 1],
    ]);
    const leaf = column(body, 'awaiting_qa').cards[0]!;
    expect(leaf).toEqual({
      id: leaf.id,
      id8: leaf.id.slice(0, 8),
      title: 'leaf',
      status: 'awaiting_qa',
      priority: 1,
      team: 'backend',
      project_id: projectId,
      assigned_to: '00000000-0000-0000-0001-000000000001',
      parent_task_id: parentId,
      source: 'ci_watch',
      updated_at: minutesAgo(3).toISOString(),
    });
  });

  it('orders active cards by priority then most recently updated; terminal ones most recent first', async () => {
    const projectId = await projectWith([
      { title: 'p2 old', status: 'pending', priority: 2, updatedAt: minutesAgo(30) },
      { title: 'p0', status: 'pending', priority: 0, updatedAt: minutesAgo(60) },
      { title: 'p2 new', status: 'pending', priority: 2, updatedAt: minutesAgo(1) },
      { title: 'p1', status: 'pending', priority: 1, updatedAt: minutesAgo(5) },
      { title: 'done p0 old', status: 'completed', priority: 0, updatedAt: minutesAgo(50) },
      { title: 'done p3 new', status: 'completed', priority: 3, updatedAt: minutesAgo(2) },
    ]);
    const body = await board(`?project_id=${projectId}`);
    expect(titles(body, 'pending')).toEqual(['p0', 'p1', 'p2 new', 'p2 old']);
    expect(titles(body, 'completed')).toEqual(['done p3 new', 'done p0 old']);
  });

  it('filters by project and team, together or alone', async () => {
    const projectA = await projectWith([
      { title: 'a-back', status: 'pending', team: 'backend' },
      { title: 'a-front', status: 'pending', team: 'frontend' },
    ]);
    const projectB = await projectWith([{ title: 'b-front', status: 'pending', team: 'frontend' }]);
    expect(titles(await board(`?project_id=${projectA}`), 'pending').sort()).toEqual(['a-back', 'a-front']);
    expect(titles(await board(`?project_id=${projectA}&team=frontend`), 'pending')).toEqual(['a-front']);
    expect(titles(await board(`?project_id=${projectB}&team=backend`), 'pending')).toEqual([]);
    const frontend = await board('?team=frontend&limit=500');
    expect(titles(frontend, 'pending')).toEqual(expect.arrayContaining(['a-front', 'b-front']));
    expect(titles(frontend, 'pending')).not.toContain('a-back');
  });

  it('searches titles and id prefixes with q, counts following the search', async () => {
    const projectId = await projectWith([
      { title: 'Fix the Login form', status: 'pending' },
      { title: 'login audit', status: 'in_progress' },
      { title: 'Billing export', status: 'pending' },
      { title: '100% coverage', status: 'pending' },
    ]);
    const found = await board(`?project_id=${projectId}&q=LOGIN`);
    expect(titles(found, 'pending')).toEqual(['Fix the Login form']);
    expect(titles(found, 'in_progress')).toEqual(['login audit']);
    expect(column(found, 'pending').count).toBe(1);
    expect(found.total).toBe(2);
    const billing = column(await board(`?project_id=${projectId}`), 'pending').cards.find(
      (c) => c.title === 'Billing export',
    )!;
    expect(titles(await board(`?project_id=${projectId}&q=${billing.id8}`), 'pending')).toEqual([
      'Billing export',
    ]);
    expect(titles(await board(`?project_id=${projectId}&q=%25`), 'pending')).toEqual(['100% coverage']);
    const empty = await t.app.inject({ method: 'GET', url: '/api/kanban?q=', headers: t.ceoHeaders });
    expect(empty.statusCode).toBe(422);
  });

  it('caps each column at `limit` and reports the true count', async () => {
    const projectId = await projectWith(
      Array.from({ length: 7 }, (_, i) => ({
        title: `t${i}`,
        status: 'in_progress',
        updatedAt: minutesAgo(i),
      })),
    );
    const body = await board(`?project_id=${projectId}&limit=3`);
    expect(column(body, 'in_progress')).toMatchObject({ count: 7, truncated: true });
    expect(titles(body, 'in_progress')).toEqual(['t0', 't1', 't2']);
    expect(body.total).toBe(7);
    const full = await board(`?project_id=${projectId}`);
    expect(column(full, 'in_progress')).toMatchObject({ count: 7, truncated: false });
  });

  it('shows only the 20 most recent terminal cards unless include_terminal is asked for', async () => {
    const projectId = await projectWith([
      ...Array.from({ length: 25 }, (_, i) => ({
        title: `done ${i}`,
        status: 'completed',
        updatedAt: minutesAgo(i),
      })),
      ...Array.from({ length: 3 }, (_, i) => ({
        title: `gone ${i}`,
        status: 'cancelled',
        updatedAt: minutesAgo(i),
      })),
      ...Array.from({ length: 25 }, (_, i) => ({ title: `todo ${i}`, status: 'pending' })),
    ]);
    const recent = await board(`?project_id=${projectId}`);
    expect(column(recent, 'completed')).toMatchObject({ count: 25, truncated: true });
    expect(titles(recent, 'completed')).toEqual(Array.from({ length: 20 }, (_, i) => `done ${i}`));
    expect(column(recent, 'cancelled')).toMatchObject({ count: 3, truncated: false });
    expect(column(recent, 'pending').cards).toHaveLength(25);

    const everything = await board(`?project_id=${projectId}&include_terminal=true`);
    expect(column(everything, 'completed')).toMatchObject({ count: 25, truncated: false });
    expect(column(everything, 'completed').cards).toHaveLength(25);

    const small = await board(`?project_id=${projectId}&limit=5&include_terminal=false`);
    expect(titles(small, 'completed')).toEqual(['done 0', 'done 1', 'done 2', 'done 3', 'done 4']);
  });

  it.each([
    ['limit=0', 'query.limit'],
    ['limit=501', 'query.limit'],
    ['limit=ten', 'query.limit'],
    ['team=marketing', 'query.team'],
    ['project_id=1a2b3c4d', 'query.project_id'],
    ['include_terminal=maybe', 'query.include_terminal'],
  ])('422 for %s', async (query, field) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/kanban?${query}`,
      headers: t.ceoHeaders,
    });
    expect(response.statusCode).toBe(422);
    const { error } = json<{ error: { code: string; details: { field: string }[] } }>(response);
    expect(error.code).toBe('validation_failed');
    expect(error.details.map((d) => d.field)).toContain(field);
  });

  it('401 without credentials', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/kanban' });
    expect(response.statusCode).toBe(401);
  });
});
