/**
 * `gaffer backup`, `gaffer restore`, `gaffer store move` and `gaffer evidence rebuild` as an operator runs them, against a real
 * `gaffer start` on the store of the pass: a backup taken while the server runs (through it), the
 * server stopped, the backup restored into a fresh store, and a server started on that store serving
 * the same task to a CEO token minted before; a second restore refused (the store has rows), a
 * damaged file refused with nothing written. In the PostgreSQL pass, an embedded store is moved to
 * an empty PostgreSQL database and served from there — stopped, and running under a stream of
 * writes (paused for the copy and after it: every acknowledged write is in the new store).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRunner } from '../src/platform/git/index.js';
import { seedBareRemote } from '../src/platform/git/test-support.js';
import { CLOSED_PORT } from './support/closed-port.js';
import { runGaffer } from './support/gaffer-cli.js';
import { eventually, type Replicas, startReplicas } from './support/replicas.js';
import { adminQuery, createTestStores, type TestStores, testDatabaseUrl } from './support/stores.js';

let dir: string;
let source: TestStores;
let company: Replicas;
let taskId: string;
const cleanups: (() => Promise<void>)[] = [];
/** A GAFFER_PORT where no server answers: the command opens the store itself. */
const NOTHING_THERE = String(CLOSED_PORT);

/** The store variables of a store: its data directory, and its database URL when it has one. */
const storeEnv = (stores: TestStores, extra: Record<string, string> = {}) => ({
  GAFFER_DATA_DIR: stores.dataDir,
  ...(stores.databaseUrl ? { GAFFER_DATABASE_URL: stores.databaseUrl } : {}),
  ...extra,
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gaffer-cli-backup-'));
  source = await createTestStores();
  company = await startReplicas(1, source);
  const server = company.replicas[0]!;
  const remote = await seedBareRemote(new GitRunner({ home: join(dir, 'home') }), join(dir, 'shop.git'), [
    { message: 'Initial commit', files: { 'README.md': '# Shop\n' } },
  ]);
  const project = await server.asCeo('/api/projects', {
    body: { slug: 'shop', name: 'Shop', git_url: remote },
  });
  expect(project.status).toBe(201);
  const task = await server.asCeo('/api/tasks', {
    body: {
      title: 'Carry me across',
      description: 'A task that must survive the backup and the move.',
      acceptance_criteria: ['It is there afterwards'],
      team: 'backend',
      task_type: 'code',
      nature: 'technical',
      complexity: 'low',
      project_id: ((await project.json()) as { id: string }).id,
    },
  });
  expect(task.status).toBe(201);
  taskId = ((await task.json()) as { id: string }).id;
}, 120_000);

afterAll(async () => {
  await company?.close();
  for (const cleanup of cleanups) await cleanup();
  await source?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** A server on `stores` signed with the original secret, and the task as a pre-existing CEO token sees it. */
async function servedTask(stores: TestStores): Promise<{ http: number; title?: string }> {
  const second = await startReplicas(1, stores, { env: { GAFFER_AUTH_SECRET: company.secret } });
  try {
    const response = await fetch(`${second.replicas[0]!.base}/api/tasks/${taskId}`, {
      headers: company.ceoHeaders,
    });
    const { title } = (await response.json()) as { title?: string };
    return { http: response.status, ...(title === undefined ? {} : { title }) };
  } finally {
    await second.close();
  }
}

/**
 * An embedded store holding the company, as a move starts from: a backup of the running server
 * restored into a new PGlite data directory under the test's. Answers that directory.
 */
async function embeddedCompany(prefix: string): Promise<string> {
  const embeddedDir = mkdtempSync(join(dir, prefix));
  const file = join(dir, `${prefix}company.jsonl.gz`);
  const port = new URL(company.replicas[0]!.base).port;
  const backup = await runGaffer(
    ['backup', file],
    storeEnv(source, { GAFFER_PORT: port, GAFFER_AUTH_SECRET: company.secret }),
  );
  expect(backup.code, backup.out).toBe(0);
  // Nothing answers on that port: the restore opens the new store itself.
  const filled = await runGaffer(['restore', file], {
    GAFFER_DATA_DIR: embeddedDir,
    GAFFER_PORT: NOTHING_THERE,
  });
  expect(filled.code, filled.out).toBe(0);
  return embeddedDir;
}

describe('gaffer backup and restore', () => {
  it('backs up a running server, restores into a fresh store, and that store serves the same company', async () => {
    const server = company.replicas[0]!;
    const port = new URL(server.base).port;
    const file = join(dir, 'company.jsonl.gz');
    const backup = await runGaffer(
      ['backup', file],
      storeEnv(source, { GAFFER_PORT: port, GAFFER_AUTH_SECRET: company.secret }),
    );
    expect(backup.code, backup.out).toBe(0);
    expect(backup.out).toContain(`Taken by the Gaffer at http://127.0.0.1:${port}`);
    expect(backup.out).toMatch(/Backup written to .*: \d+ tables, \d+ rows, .* read back and checked/);
    expect(backup.out).toContain('auth secret');
    expect(readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b])); // gzip

    await server.stop();
    const target = await createTestStores({ empty: true });
    cleanups.push(() => target.dispose());
    const restored = await runGaffer(['restore', file], storeEnv(target, { GAFFER_PORT: port }));
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toMatch(/ {2}tasks: 1\n/);
    expect(restored.out).toMatch(/Restored \d+ rows in \d+ tables/);

    const again = await runGaffer(['restore', file], storeEnv(target, { GAFFER_PORT: port }));
    expect(again.code).toBe(1);
    expect(again.out).toContain('the store is not empty');
    expect(again.out).toContain('Nothing was written');

    const damaged = join(dir, 'damaged.jsonl.gz');
    writeFileSync(damaged, readFileSync(file).subarray(0, 100));
    const refused = await runGaffer(['restore', damaged], storeEnv(target, { GAFFER_PORT: port }));
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('Nothing was written');

    // The restored store's evidence, folded again from its record with no server running.
    const rebuilt = await runGaffer(['evidence', 'rebuild'], storeEnv(target, { GAFFER_PORT: port }));
    expect(rebuilt.code, rebuilt.out).toBe(0);
    expect(rebuilt.out).toContain('rebuilt in the');
    expect(rebuilt.out).toContain('the outcomes of 1 task folded from the record');

    expect(await servedTask(target)).toEqual({ http: 200, title: 'Carry me across' });
    await server.restart();
  }, 240_000);

  it('rebuilds the evidence through the running server', async () => {
    const port = new URL(company.replicas[0]!.base).port;
    const rebuilt = await runGaffer(
      ['evidence', 'rebuild'],
      storeEnv(source, { GAFFER_PORT: port, GAFFER_AUTH_SECRET: company.secret }),
    );
    expect(rebuilt.code, rebuilt.out).toBe(0);
    expect(rebuilt.out).toContain(
      `Rebuilt by the Gaffer at http://127.0.0.1:${port}: the outcomes of 1 task`,
    );
    const unknown = await runGaffer(['evidence', 'refold'], { GAFFER_PORT: port });
    expect(unknown.code).toBe(2);
    expect(unknown.out).toContain('say: gaffer evidence rebuild');
  });

  it.skipIf(!testDatabaseUrl)(
    'moves an embedded store to an empty PostgreSQL database',
    async () => {
      const embeddedDir = await embeddedCompany('embedded-');
      const free = { GAFFER_PORT: NOTHING_THERE };

      const target = await createTestStores({ empty: true });
      cleanups.push(() => target.dispose());
      const moved = await runGaffer(['store', 'move', '--to', target.databaseUrl!], {
        GAFFER_DATA_DIR: embeddedDir,
        ...free,
      });
      expect(moved.code, moved.out).toBe(0);
      expect(moved.out).toMatch(
        /Moved \d+ rows in \d+ tables to postgres.* every table has the same rows and checksum/,
      );
      expect(moved.out).toContain('GAFFER_DATABASE_URL=');
      const twice = await runGaffer(['store', 'move', '--to', target.databaseUrl!], {
        GAFFER_DATA_DIR: embeddedDir,
        ...free,
      });
      expect(twice.code).toBe(1);
      expect(twice.out).toContain('not empty');

      expect(await servedTask(target)).toEqual({ http: 200, title: 'Carry me across' });
    },
    240_000,
  );

  it.skipIf(!testDatabaseUrl)(
    'moves a running embedded company: writes paused for the copy and after it, nothing acknowledged lost',
    async () => {
      const embeddedDir = await embeddedCompany('running-');
      const auth = { GAFFER_AUTH_SECRET: company.secret };
      const embedded = await startReplicas(1, { dataDir: embeddedDir, keyPrefix: 'move:' } as TestStores, {
        env: auth,
      });
      cleanups.push(() => embedded.close());
      const server = embedded.replicas[0]!;
      const read = (path: string) => fetch(`${server.base}${path}`, { headers: company.ceoHeaders });
      const projectId = ((await (await read(`/api/tasks/${taskId}`)).json()) as { project_id: string })
        .project_id;
      const create = (n: number) =>
        fetch(`${server.base}/api/tasks`, {
          method: 'POST',
          headers: { ...company.ceoHeaders, 'content-type': 'application/json' },
          body: JSON.stringify({
            title: `Written during the move ${n}`,
            description: 'A write racing the move.',
            acceptance_criteria: ['It is in the new store if it was acknowledged'],
            team: 'backend',
            task_type: 'code',
            nature: 'technical',
            complexity: 'low',
            project_id: projectId,
          }),
        });

      // A writer keeps creating tasks from before the move until after it.
      const acknowledged: string[] = [];
      const refused: { code: string; retryAfter: string | null }[] = [];
      let moving = true;
      const writer = (async () => {
        for (let n = 0; moving || refused.length === 0; n++) {
          const response = await create(n);
          const body = (await response.json()) as { id?: string; error?: { code: string } };
          if (response.status === 201) acknowledged.push(body.id!);
          else if (response.status === 503)
            refused.push({ code: body.error?.code ?? '', retryAfter: response.headers.get('retry-after') });
          else throw new Error(`a write answered ${response.status}: ${JSON.stringify(body)}`);
        }
      })();
      await Promise.race([
        writer,
        eventually(async () => expect(acknowledged.length).toBeGreaterThanOrEqual(3)),
      ]);

      const target = await createTestStores({ empty: true });
      cleanups.push(() => target.dispose());
      const moveTo = (url: string) =>
        runGaffer(['store', 'move', '--to', url], {
          GAFFER_DATA_DIR: embeddedDir,
          GAFFER_PORT: String(server.port),
          ...auth,
        });

      // A move that fails once the writes are paused (a role that may not create the schema there)
      // says why and resumes them (writes in between were refused with store_read_only, below).
      const role = `gaffer_move_${randomBytes(4).toString('hex')}`;
      await adminQuery(`create role ${role} login`);
      cleanups.push(() => adminQuery(`drop role if exists ${role}`));
      const restricted = new URL(target.databaseUrl!);
      restricted.username = role;
      const failed = await moveTo(restricted.toString());
      expect(failed.code, failed.out).toBe(1);
      expect(failed.out).toContain('answered 422: the target database cannot be used: 42501');
      const before = acknowledged.length;
      await eventually(async () => expect(acknowledged.length).toBeGreaterThan(before + 2));
      expect((await fetch(`${server.base}/ready`)).status).toBe(200);

      const moved = await moveTo(target.databaseUrl!);
      moving = false;
      await writer;
      expect(moved.code, moved.out).toBe(0);
      expect(moved.out).toMatch(
        /Moved \d+ rows in \d+ tables to postgres.* every table has the same rows and checksum/,
      );
      expect(moved.out).toMatch(/paused its writes for the copy \([\d.]+ s so far\) and keeps them paused/);

      // The old server takes no more writes, says why, and still reads.
      expect(refused.length).toBeGreaterThan(0);
      expect(new Set(refused.map((r) => `${r.code} retry after ${r.retryAfter}`))).toEqual(
        new Set(['store_read_only retry after 30']),
      );
      expect((await read('/api/tasks?limit=5')).status).toBe(200);
      // …and is not ready any more, so a load balancer sends the traffic to the moved store's replicas.
      const ready = await fetch(`${server.base}/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({
        status: 'degraded',
        checks: { database: { ok: false, kind: 'pglite', error: 'takes no writes' } },
      });
      const again = await runGaffer(['store', 'move', '--to', target.databaseUrl!], {
        GAFFER_DATA_DIR: embeddedDir,
        GAFFER_PORT: String(server.port),
        ...auth,
      });
      expect(again.code).toBe(1);
      expect(again.out).toContain('the store was moved');

      // Every acknowledged write is in the new store, which serves the company to the old token.
      await server.stop();
      const moved_ids = await taskIds(target.databaseUrl!);
      expect(acknowledged.filter((id) => !moved_ids.has(id))).toEqual([]);
      expect(await servedTask(target)).toEqual({ http: 200, title: 'Carry me across' });
    },
    240_000,
  );
});

async function taskIds(url: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return new Set((await client.query<{ id: string }>('select id from tasks')).rows.map((row) => row.id));
  } finally {
    await client.end();
  }
}
