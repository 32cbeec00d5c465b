/** The findings service on a real database: raise, address, verify, waive, and the ledger read. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTask } from '../../../test/fixtures-task-rows.js';
import { createTestStores, type TestPlatform, type TestStores } from '../../../test/support/stores.js';
import { fakeClock } from '../../platform/clock.js';
import { AppError } from '../../platform/http/errors.js';
import type { FindingInput } from './rules.js';
import { taskFindings } from './schema.js';
import { FindingsService } from './service.js';

const clock = fakeClock(new Date('2026-03-01T10:00:00Z'));
let stores: TestStores;
let platform: TestPlatform;
let service: FindingsService;

beforeAll(async () => {
  stores = await createTestStores();
  platform = await stores.platform({ clock });
  service = new FindingsService(platform);
});
afterAll(async () => {
  await stores.dispose();
});

const finding = (fields: Partial<FindingInput> = {}): FindingInput => ({
  file: 'src/api.ts',
  line: 10,
  severity: 'major',
  expected: 'a 404 for an unknown id',
  actual: 'a 500',
  fix: 'check the row exists first',
  ...fields,
});

const newTask = async () => (await insertTask(platform.database.db)).id;

async function appError(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('raise', () => {
  it('stores the findings open, trimmed, in input order', async () => {
    const taskId = await newTask();
    const rows = await service.raise(taskId, 'qa', 1, ' be-qa ', [
      finding({ file: './src/a.ts', criterion: 'ac-1', evidence: 'log line' }),
      finding({ file: null, line: null, severity: 'nit', expected: ' tidy ' }),
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      taskId,
      origin: 'qa',
      round: 1,
      authorSlug: 'be-qa',
      file: 'src/a.ts',
      line: 10,
      severity: 'major',
      criterion: 'ac-1',
      evidence: 'log line',
      status: 'open',
      addressedByCommit: null,
      resolutionNote: null,
    });
    expect(rows[1]).toMatchObject({ file: null, line: null, severity: 'nit', expected: 'tidy' });
    expect(rows[0]!.seq).toBeLessThan(rows[1]!.seq);
  });

  it('422 with field details, nothing written', async () => {
    const taskId = await newTask();
    const error = await appError(
      service.raise(taskId, 'qa', 1, 'be-qa', [finding(), finding({ file: '../x', line: 0 })]),
    );
    expect(error.statusCode).toBe(422);
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([
      { field: 'findings[1].file', message: 'must not contain a .. segment' },
      { field: 'findings[1].line', message: 'must be an integer of at least 1' },
    ]);
    expect((await service.ledger(taskId)).total).toBe(0);
  });

  it('404 for a task that does not exist (or an id that is no uuid)', async () => {
    expect((await appError(service.raise(randomUUID(), 'qa', 1, 'x', [finding()]))).statusCode).toBe(404);
    expect((await appError(service.raise('1a2b3c4d', 'qa', 1, 'x', [finding()]))).statusCode).toBe(404);
  });

  it('joins the caller’s transaction', async () => {
    const taskId = await newTask();
    await platform.database.db
      .transaction(async (tx) => {
        await service.raise(taskId, 'pm', 1, 'be-pm', [finding()], { db: tx });
        tx.rollback();
      })
      .catch(() => {});
    expect((await service.ledger(taskId)).total).toBe(0);
  });
});

describe('markAddressed', () => {
  it('addresses by full id or unambiguous prefix, with commit and note', async () => {
    const taskId = await newTask();
    const [a, b, c] = await service.raise(taskId, 'qa', 1, 'be-qa', [finding(), finding(), finding()]);
    const result = await service.markAddressed(taskId, [
      { finding_id: a!.id, commit: 'ABCDEF1', note: 'fixed' },
      { finding_id: `F-${b!.id.slice(0, 8)}` },
    ]);
    expect(result.skipped).toEqual([]);
    expect(result.addressed.map((f) => [f.id, f.status, f.addressedByCommit, f.resolutionNote])).toEqual([
      [a!.id, 'addressed', 'abcdef1', 'fixed'],
      [b!.id, 'addressed', null, null],
    ]);
    const statuses = (await service.ledger(taskId)).findings.map((f) => [f.id, f.status]);
    expect(statuses).toEqual([
      [a!.id, 'addressed'],
      [b!.id, 'addressed'],
      [c!.id, 'open'],
    ]);
  });

  it('re-addressing keeps the earlier commit unless a new one is given', async () => {
    const taskId = await newTask();
    const [a] = await service.raise(taskId, 'qa', 1, 'be-qa', [finding()]);
    await service.markAddressed(taskId, [{ finding_id: a!.id, commit: 'abcdef1' }]);
    const again = await service.markAddressed(taskId, [{ finding_id: a!.id, note: 'also tests' }]);
    expect(again.addressed[0]).toMatchObject({ addressedByCommit: 'abcdef1', resolutionNote: 'also tests' });
  });

  it('skips what names nothing, names several, or is closed — and never leaves the task', async () => {
    const taskId = await newTask();
    const otherTask = await newTask();
    const [foreign] = await service.raise(otherTask, 'qa', 1, 'be-qa', [finding()]);
    const rows = await service.raise(taskId, 'qa', 1, 'be-qa', [finding({ severity: 'nit' }), finding()]);
    await service.waive(rows[0]!.id, { note: 'cosmetic' });
    const result = await service.markAddressed(taskId, [
      { finding_id: 'F-1' },
      { finding_id: foreign!.id },
      { finding_id: rows[0]!.id },
      { finding_id: '0000000' },
    ]);
    expect(result.addressed).toEqual([]);
    expect(result.skipped.map((s) => s.reason)).toEqual(['invalid', 'not_found', 'closed', 'invalid']);
    expect((await service.ledger(otherTask)).findings[0]!.status).toBe('open');
  });

  it('reports a prefix two findings share as ambiguous', async () => {
    const taskId = await newTask();
    const [row] = await service.raise(taskId, 'qa', 1, 'be-qa', [finding()]);
    const prefix = row!.id.slice(0, 8);
    const twinId = `${prefix}-ffff-4fff-8fff-ffffffffffff`;
    await platform.database.db.insert(taskFindings).values({ ...row!, id: twinId, seq: undefined });
    const result = await service.markAddressed(taskId, [{ finding_id: prefix }, { finding_id: twinId }]);
    expect(result.skipped).toEqual([{ finding_id: prefix, reason: 'ambiguous' }]);
    expect(result.addressed.map((f) => f.id)).toEqual([twinId]);
  });

  it('422 for a malformed commit, 404 for no task', async () => {
    const taskId = await newTask();
    const error = await appError(service.markAddressed(taskId, [{ finding_id: 'x', commit: 'nothex!' }]));
    expect(error.statusCode).toBe(422);
    expect((await appError(service.markAddressed(randomUUID(), []))).statusCode).toBe(404);
  });
});

describe('verifyAddressed', () => {
  it('verifies the addressed findings of one origin only', async () => {
    const taskId = await newTask();
    const [qa1, qa2] = await service.raise(taskId, 'qa', 1, 'be-qa', [finding(), finding()]);
    const [gate] = await service.raise(taskId, 'pr_gate', 1, 'be-pr-reviewer', [finding()]);
    await service.markAddressed(taskId, [{ finding_id: qa1!.id }, { finding_id: gate!.id }]);
    const verified = await service.verifyAddressed(taskId, 'qa');
    expect(verified.map((f) => f.id)).toEqual([qa1!.id]);
    const byId = new Map((await service.ledger(taskId)).findings.map((f) => [f.id, f.status]));
    expect([byId.get(qa1!.id), byId.get(qa2!.id), byId.get(gate!.id)]).toEqual([
      'verified',
      'open',
      'addressed',
    ]);
  });

  it('422 for an unknown origin', async () => {
    const taskId = await newTask();
    // biome-ignore lint/suspicious/noExplicitAny: a wrong value on purpose
    expect((await appError(service.verifyAddressed(taskId, 'dev' as any))).statusCode).toBe(422);
  });
});

describe('waive', () => {
  it('waives minor and nit findings with a note', async () => {
    const taskId = await newTask();
    const [minor] = await service.raise(taskId, 'pm', 1, 'be-pm', [finding({ severity: 'minor' })]);
    const waived = await service.waive(`F-${minor!.id.slice(0, 8)}`, { note: 'out of scope', taskId });
    expect(waived).toMatchObject({ id: minor!.id, status: 'waived', resolutionNote: 'out of scope' });
    expect(await service.waive(minor!.id, { note: 'again' })).toMatchObject({
      resolutionNote: 'out of scope',
    });
  });

  it('refuses blocker and major (409), closed ones (409), unknown (404), bare prefixes (422)', async () => {
    const taskId = await newTask();
    const [major, nit] = await service.raise(taskId, 'qa', 1, 'be-qa', [
      finding(),
      finding({ severity: 'nit' }),
    ]);
    expect(await appError(service.waive(major!.id, { note: 'n' }))).toMatchObject({
      statusCode: 409,
      code: 'finding_not_waivable',
    });
    await service.markAddressed(taskId, [{ finding_id: nit!.id }]);
    await service.verifyAddressed(taskId, 'qa');
    expect(await appError(service.waive(nit!.id, { note: 'n' }))).toMatchObject({
      statusCode: 409,
      code: 'finding_closed',
    });
    expect((await appError(service.waive(randomUUID(), { note: 'n' }))).statusCode).toBe(404);
    expect((await appError(service.waive(nit!.id.slice(0, 8), { note: 'n' }))).statusCode).toBe(422);
    expect((await appError(service.waive(nit!.id, { note: ' ' }))).statusCode).toBe(422);
  });
});

describe('ledger', () => {
  it('newest round first, then newest raise, a raise in its written order; summary per origin', async () => {
    const taskId = await newTask();
    const r1 = await service.raise(taskId, 'qa', 1, 'be-qa', [
      finding({ fix: 'r1-a' }),
      finding({ fix: 'r1-b' }),
    ]);
    clock.advance(1000);
    await service.raise(taskId, 'qa', 2, 'be-qa', [finding({ fix: 'r2-a' }), finding({ fix: 'r2-b' })]);
    clock.advance(1000);
    await service.raise(taskId, 'pr_gate', 2, 'be-pr-reviewer', [finding({ fix: 'r2-gate' })]);
    clock.advance(1000);
    await service.raise(taskId, 'pm', 1, 'be-pm', [finding({ fix: 'r1-late' })]);
    await service.markAddressed(taskId, [{ finding_id: r1[0]!.id }]);

    const ledger = await service.ledger(taskId);
    expect(ledger.findings.map((f) => f.fix)).toEqual(['r2-gate', 'r2-a', 'r2-b', 'r1-late', 'r1-a', 'r1-b']);
    expect(ledger.total).toBe(6);
    expect(ledger.truncated).toBe(false);
    expect(ledger.summary).toEqual([
      { origin: 'qa', open: 3, addressed: 1, verified: 0, waived: 0 },
      { origin: 'pr_gate', open: 1, addressed: 0, verified: 0, waived: 0 },
      { origin: 'pm', open: 1, addressed: 0, verified: 0, waived: 0 },
    ]);

    const capped = await service.ledger(taskId, { limit: 2 });
    expect(capped.findings.map((f) => f.fix)).toEqual(['r2-gate', 'r2-a']);
    expect(capped).toMatchObject({ total: 6, truncated: true });
    expect(capped.summary).toEqual(ledger.summary);
  });

  it('is empty for a task without findings; 404 for no task', async () => {
    const taskId = await newTask();
    expect(await service.ledger(taskId)).toEqual({
      taskId,
      findings: [],
      summary: [],
      total: 0,
      truncated: false,
    });
    expect((await appError(service.ledger(randomUUID()))).statusCode).toBe(404);
  });
});
