/**
 * `POST /api/system/store/move` refusals, in process: the CEO's alone, a PostgreSQL URL or a 422; on
 * the embedded store an unreachable target is refused before any write is paused (a write right
 * after lands); on PostgreSQL the store has nowhere to move. The move itself, under a stream of
 * writes, is test/cli-backup.test.ts's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProject } from './fixtures-task-rows.js';
import { startTestApp, type TestApp } from './support/app.js';
import { testDatabaseUrl } from './support/stores.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const move = (to: unknown, headers = t.ceoHeaders) =>
  t.app.inject({ method: 'POST', url: '/api/system/store/move', headers, payload: { to } });

describe('POST /api/system/store/move', () => {
  it('is the CEO’s alone, and takes a PostgreSQL URL only', async () => {
    const developer = await move(
      'postgres://127.0.0.1:1/x',
      t.headersFor('be-dev-1', 'developer', 'backend'),
    );
    expect(developer.statusCode).toBe(403);
    const mysql = await move('mysql://127.0.0.1/x');
    expect(mysql.statusCode).toBe(422);
    expect(mysql.json().error.details[0].field).toBe('body.to');
    expect((await move(undefined)).statusCode).toBe(422);
  });

  it.skipIf(!!testDatabaseUrl)('refuses a target it cannot reach, and pauses nothing', async () => {
    const refused = await move('postgres://gaffer@127.0.0.1:1/nowhere');
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error).toMatchObject({ code: 'target_unreachable' });
    expect(refused.json().error.remediate).toContain('Check the URL');
    // The store still takes writes.
    await expect(insertProject(t.platform.database.db)).resolves.toBeTruthy();
  });

  it.skipIf(!testDatabaseUrl)('on PostgreSQL, says the store is there already', async () => {
    const refused = await move(testDatabaseUrl);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'store_not_embedded' });
  });
});
