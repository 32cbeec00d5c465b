/** GET /api/tasks/{id}/findings through the whole app: order, cap, summary counts, errors. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskFindings } from '../src/modules/findings/schema.js';
import { insertTask } from './fixtures-task-rows.js';
import { json, startTestApp, type TestApp } from './support/app.js';

interface FindingBody {
  id: string;
  id8: string;
  task_id: string;
  origin: string;
  round: number;
  author_slug: string;
  file: string | null;
  line: number | null;
  severity: string;
  status: string;
  fix: string;
  addressed_by_commit: string | null;
  created_at: string;
}
interface LedgerBody {
  task_id: string;
  findings: FindingBody[];
  summary: { origin: string; open: number; addressed: number; verified: number; waived: number }[];
  total: number;
  truncated: boolean;
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const get = (id: string, headers: Record<string, string> = t.ceoHeaders) =>
  t.app.inject({ method: 'GET', url: `/api/tasks/${id}/findings`, headers });
const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 10, minute));
const row = (taskId: string, fields: Partial<typeof taskFindings.$inferInsert>) => ({
  taskId,
  origin: 'qa',
  round: 1,
  authorSlug: 'be-qa',
  severity: 'major',
  expected: 'e',
  actual: 'a',
  fix: 'f',
  ...fields,
});

describe('GET /api/tasks/{id}/findings', () => {
  it('lists newest round first, then newest raised, with per-origin counts over the whole ledger', async () => {
    const db = t.platform.database.db;
    const task = await insertTask(db);
    await db.insert(taskFindings).values([
      row(task.id, { fix: 'r1 qa old', createdAt: at(0), status: 'verified' }),
      row(task.id, {
        fix: 'r1 qa new',
        createdAt: at(5),
        status: 'addressed',
        addressedByCommit: 'abc1234',
      }),
      row(task.id, { fix: 'r2 gate', round: 2, origin: 'pr_gate', createdAt: at(10), severity: 'nit' }),
      row(task.id, {
        fix: 'r2 pm',
        round: 2,
        origin: 'pm',
        createdAt: at(20),
        status: 'waived',
        severity: 'minor',
      }),
      row(task.id, { fix: 'r3 ceo', round: 3, origin: 'ceo', createdAt: at(1), file: null }),
    ]);
    const response = await get(task.id, t.headersFor('be-doc', 'documenter', 'backend'));
    expect(response.statusCode).toBe(200);
    const body = json<LedgerBody>(response);
    expect(body.findings.map((f) => f.fix)).toEqual(['r3 ceo', 'r2 pm', 'r2 gate', 'r1 qa new', 'r1 qa old']);
    expect(body.summary).toEqual([
      { origin: 'qa', open: 0, addressed: 1, verified: 1, waived: 0 },
      { origin: 'pr_gate', open: 1, addressed: 0, verified: 0, waived: 0 },
      { origin: 'pm', open: 0, addressed: 0, verified: 0, waived: 1 },
      { origin: 'ceo', open: 1, addressed: 0, verified: 0, waived: 0 },
    ]);
    expect(body).toMatchObject({ task_id: task.id, total: 5, truncated: false });
    const newest = body.findings[3]!;
    expect(newest).toMatchObject({
      id8: newest.id.slice(0, 8),
      task_id: task.id,
      origin: 'qa',
      round: 1,
      author_slug: 'be-qa',
      file: null,
      line: null,
      severity: 'major',
      status: 'addressed',
      addressed_by_commit: 'abc1234',
      created_at: at(5).toISOString(),
    });
  });

  it('returns what the service raised, in the order it was written', async () => {
    const task = await insertTask(t.platform.database.db);
    const raised = await t.modules.findings.service.raise(task.id, 'qa', 1, 'be-qa', [
      { file: 'src/a.ts', line: 1, severity: 'blocker', expected: 'e', actual: 'a', fix: 'first' },
      { file: 'src/b.ts', line: 2, severity: 'minor', expected: 'e', actual: 'a', fix: 'second' },
    ]);
    const body = json<LedgerBody>(await get(task.id));
    expect(body.findings.map((f) => [f.id, f.fix, f.file, f.line])).toEqual([
      [raised[0]!.id, 'first', 'src/a.ts', 1],
      [raised[1]!.id, 'second', 'src/b.ts', 2],
    ]);
  });

  it('caps the list at 500 and says it is truncated; counts still cover everything', async () => {
    const db = t.platform.database.db;
    const task = await insertTask(db);
    await db.insert(taskFindings).values(
      Array.from({ length: 501 }, (_, i) =>
        row(task.id, {
          fix: `#${i}`,
          round: 1 + (i % 3),
          status: i % 2 ? 'open' : 'addressed',
          createdAt: at(i % 60),
        }),
      ),
    );
    const body = json<LedgerBody>(await get(task.id));
    expect(body.findings).toHaveLength(500);
    expect(body).toMatchObject({ total: 501, truncated: true });
    expect(body.summary).toEqual([{ origin: 'qa', open: 250, addressed: 251, verified: 0, waived: 0 }]);
    const rounds = body.findings.map((f) => f.round);
    expect(rounds).toEqual([...rounds].sort((a, b) => b - a));
    expect(rounds.at(-1)).toBe(1);
  });

  it('an empty ledger', async () => {
    const task = await insertTask(t.platform.database.db);
    expect(json<LedgerBody>(await get(task.id))).toEqual({
      task_id: task.id,
      findings: [],
      summary: [],
      total: 0,
      truncated: false,
    });
  });

  it('404 for an unknown task', async () => {
    const response = await get(randomUUID());
    expect(response.statusCode).toBe(404);
    expect(json<{ error: { code: string } }>(response).error.code).toBe('not_found');
  });

  it('422 with the full-UUID hint for a short id', async () => {
    const response = await get('1a2b3c4d');
    expect(response.statusCode).toBe(422);
    const { error } = json<{ error: { code: string; remediate?: string; details: { field: string }[] } }>(
      response,
    );
    expect(error).toMatchObject({ code: 'validation_failed', details: [{ field: 'params.id' }] });
    expect(error.remediate).toMatch(/36-character/);
  });

  it('401 without credentials', async () => {
    expect((await get(randomUUID(), {})).statusCode).toBe(401);
  });
});
