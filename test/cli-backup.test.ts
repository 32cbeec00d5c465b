/**
 * `gaffer backup`, `gaffer restore` and `gaffer store move` as an operator runs them, against a real
 * `gaffer start` on the store of the pass: a backup taken while the server runs (through it), the
 * server stopped, the backup restored into a fresh store, and a server started on that store serving
 * the same task to a CEO token minted before; a second restore refused (the store has rows), a
 * damaged file refused with nothing written. In the PostgreSQL pass, an embedded store is moved to
 * an empty PostgreSQL database and served from there.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitRunner } from '../src/platform/git/index.js';
import { seedBareRemote } from '../src/platform/git/test-support.js';
import { GAFFER_COMMAND } from './support/gaffer-cli.js';
import { type Replicas, startReplicas } from './support/replicas.js';
import { createTestStores, type TestStores, testDatabaseUrl } from './support/stores.js';

const run = promisify(execFile);
let dir: string;
let source: TestStores;
let company: Replicas;
let taskId: string;
const cleanups: (() => Promise<void>)[] = [];

/** Runs `gaffer …` with the store variables of `env`; answers its exit code and output. */
async function gaffer(args: string[], env: Record<string, string>) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GAFFER_')));
  const [program, ...rest] = GAFFER_COMMAND;
  try {
    const { stdout, stderr } = await run(program!, [...rest, ...args], {
      env: { ...clean, GAFFER_LOG_LEVEL: 'warn', ...env },
      timeout: 120_000,
    });
    return { code: 0, out: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}` };
  }
}

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

describe('gaffer backup and restore', () => {
  it('backs up a running server, restores into a fresh store, and that store serves the same company', async () => {
    const server = company.replicas[0]!;
    const port = new URL(server.base).port;
    const file = join(dir, 'company.jsonl.gz');
    const backup = await gaffer(
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
    const restored = await gaffer(['restore', file], storeEnv(target, { GAFFER_PORT: port }));
    expect(restored.code, restored.out).toBe(0);
    expect(restored.out).toMatch(/ {2}tasks: 1\n/);
    expect(restored.out).toMatch(/Restored \d+ rows in \d+ tables/);

    const again = await gaffer(['restore', file], storeEnv(target, { GAFFER_PORT: port }));
    expect(again.code).toBe(1);
    expect(again.out).toContain('the store is not empty');
    expect(again.out).toContain('Nothing was written');

    const damaged = join(dir, 'damaged.jsonl.gz');
    writeFileSync(damaged, readFileSync(file).subarray(0, 100));
    const refused = await gaffer(['restore', damaged], storeEnv(target, { GAFFER_PORT: port }));
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('Nothing was written');

    expect(await servedTask(target)).toEqual({ http: 200, title: 'Carry me across' });
    await server.restart();
  }, 240_000);

  it.skipIf(!testDatabaseUrl)(
    'moves an embedded store to an empty PostgreSQL database',
    async () => {
      // An embedded store holding the company: the backup restored into a PGlite data directory.
      const embeddedDir = mkdtempSync(join(dir, 'embedded-'));
      const file = join(dir, 'for-move.jsonl.gz');
      const port = new URL(company.replicas[0]!.base).port;
      expect(
        (
          await gaffer(
            ['backup', file],
            storeEnv(source, { GAFFER_PORT: port, GAFFER_AUTH_SECRET: company.secret }),
          )
        ).code,
      ).toBe(0);
      const free = { GAFFER_PORT: '1' }; // nothing answers there
      const filled = await gaffer(['restore', file], { GAFFER_DATA_DIR: embeddedDir, ...free });
      expect(filled.code, filled.out).toBe(0);

      const target = await createTestStores({ empty: true });
      cleanups.push(() => target.dispose());
      const moved = await gaffer(['store', 'move', '--to', target.databaseUrl!], {
        GAFFER_DATA_DIR: embeddedDir,
        ...free,
      });
      expect(moved.code, moved.out).toBe(0);
      expect(moved.out).toMatch(
        /Moved \d+ rows in \d+ tables to postgres.* every table has the same rows and checksum/,
      );
      expect(moved.out).toContain('GAFFER_DATABASE_URL=');
      const twice = await gaffer(['store', 'move', '--to', target.databaseUrl!], {
        GAFFER_DATA_DIR: embeddedDir,
        ...free,
      });
      expect(twice.code).toBe(1);
      expect(twice.out).toContain('not empty');

      expect(await servedTask(target)).toEqual({ http: 200, title: 'Carry me across' });
    },
    240_000,
  );
});
