/**
 * `gaffer store move` of a grown company (PostgreSQL pass only: the target is PostgreSQL): an
 * embedded store seeded by a real first start, then given 10,000 tasks.
 * - kill -9 in the middle of a move leaves the target either empty or complete, and the move can
 *   be run again (the rows go in one transaction);
 * - the move of the whole company is checked table by table, and then two replicas on the moved
 *   database serve the board with every task and accept a CEO token minted before the move;
 * - the demo company, after its scripted agents carried the sample task to the CEO (runs, audit,
 *   events, notifications, reviews), moves with every table equal.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/platform/db/client.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { insertProject, insertTasks } from './fixtures-task-rows.js';
import { GAFFER_COMMAND } from './support/gaffer-cli.js';
import { startReplicas } from './support/replicas.js';
import { createTestStores, type TestStores, testDatabaseUrl } from './support/stores.js';

const TASKS = 10_000;
const run = promisify(execFile);
const secret = randomBytes(32).toString('hex');
/** Minted before the move, with the secret the company keeps. */
const ceoToken = staticToken(secret, CEO_IDENTITY);
let dir: string;
let embeddedDir: string;
const cleanups: (() => Promise<void>)[] = [];

/** The `gaffer store move` command line and environment for an embedded company (the grown one by default). */
function moveCommand(to: string, dataDir = embeddedDir) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GAFFER_')));
  const [program, ...rest] = GAFFER_COMMAND;
  return {
    program: program!,
    args: [...rest, 'store', 'move', '--to', to],
    // Nothing answers on port 1: the move opens the stopped store itself.
    env: { ...clean, GAFFER_DATA_DIR: dataDir, GAFFER_PORT: '1', GAFFER_LOG_LEVEL: 'warn' },
  };
}

async function move(to: string, dataDir?: string): Promise<{ code: number; out: string }> {
  const { program, args, env } = moveCommand(to, dataDir);
  try {
    const { stdout, stderr } = await run(program, args, { env, timeout: 180_000 });
    return { code: 0, out: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}` };
  }
}

/** Rows per public table of a PostgreSQL database (the drizzle journal aside). */
async function rowCounts(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      `select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const counts: Record<string, number> = {};
    for (const { name } of tables.rows) {
      const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from "${name}"`);
      counts[name] = rows[0]!.n;
    }
    return counts;
  } finally {
    await client.end();
  }
}

/** Whether the move is inserting rows into `url` right now (its fill transaction is open). */
async function filling(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity
        where datname = $1 and state <> 'idle' and query ilike 'insert into%'`,
      [new URL(url).pathname.slice(1)],
    );
    return rows[0]!.n > 0;
  } finally {
    await client.end();
  }
}

async function emptyTarget(): Promise<TestStores> {
  const target = await createTestStores({ empty: true });
  cleanups.push(() => target.dispose());
  return target;
}

describe.skipIf(!testDatabaseUrl)('gaffer store move of a grown company', () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gaffer-store-move-'));
    embeddedDir = join(dir, 'embedded');
    // A real first start seeds the company; then it grows to 10,000 tasks.
    const first = await startReplicas(1, { dataDir: embeddedDir, keyPrefix: 'store-move:' } as TestStores, {
      env: { GAFFER_AUTH_SECRET: secret },
    });
    await first.close();
    const database = await openDatabase({ dataDir: embeddedDir });
    try {
      const projectId = await insertProject(database.db, 'grown');
      await insertTasks(
        database.db,
        Array.from({ length: TASKS }, (_, i) => ({ title: `Grown task ${i}`, projectId })),
      );
    } finally {
      await database.close();
    }
  }, 180_000);

  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('killed mid-copy leaves the target empty or complete, and runs again', async () => {
    const target = await emptyTarget();
    const url = target.databaseUrl!;
    const { program, args, env } = moveCommand(url);
    const child: ChildProcess = spawn(program, args, { env, stdio: 'ignore' });
    const exited = once(child, 'exit');
    // Killed while its fill transaction is inserting rows.
    while (!(await filling(url))) {
      expect(child.exitCode, 'the move ended before it was caught filling').toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill('SIGKILL');
    await exited;

    const after = await rowCounts(url);
    const rows = Object.values(after).reduce((sum, n) => sum + n, 0);
    const complete = after.tasks === TASKS;
    // Nothing (the transaction died with the process) or, had it just committed, every row: never part.
    if (!complete) expect(rows).toBe(0);

    const again = await move(url);
    if (complete) {
      expect(again.code).toBe(1);
      expect(again.out).toContain('not empty');
    } else {
      expect(again.code, again.out).toBe(0);
      expect(again.out).toMatch(/every table has the same rows and checksum/);
    }
    expect((await rowCounts(url)).tasks).toBe(TASKS);
  }, 240_000);

  it('moves every table, and two replicas on the moved database serve the company to an old token', async () => {
    const target = await emptyTarget();
    const moved = await move(target.databaseUrl!);
    expect(moved.code, moved.out).toBe(0);
    const [, rows] = /Moved (\d+) rows/.exec(moved.out) ?? [];
    expect(Number(rows)).toBeGreaterThan(TASKS);
    expect(moved.out).toContain('every table has the same rows and checksum on both sides');
    expect((await rowCounts(target.databaseUrl!)).tasks).toBe(TASKS);

    const replicas = await startReplicas(2, target, { env: { GAFFER_AUTH_SECRET: secret } });
    cleanups.push(() => replicas.close());
    for (const replica of replicas.replicas) {
      const board = await fetch(`${replica.base}/api/kanban`, { headers: { 'x-agent-token': ceoToken } });
      expect(board.status, `replica ${replica.index}`).toBe(200);
      expect(((await board.json()) as { total: number }).total).toBe(TASKS);
      const page = await fetch(`${replica.base}/api/tasks?limit=1&q=Grown%20task%209999`, {
        headers: { 'x-agent-token': ceoToken },
      });
      expect(page.status).toBe(200);
      expect(((await page.json()) as { tasks: { title: string }[] }).tasks[0]?.title).toBe('Grown task 9999');
    }
  }, 240_000);

  it('moves the demo company once its scripted agents carried the sample task to the CEO', async () => {
    const demoDir = join(dir, 'demo');
    const { program, env } = moveCommand('', demoDir);
    const demo = spawn(program, [GAFFER_COMMAND[1]!, 'demo'], {
      env: { ...env, GAFFER_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    demo.stdout!.on('data', (chunk) => {
      output += chunk;
    });
    demo.stderr!.on('data', (chunk) => {
      output += chunk;
    });
    const deadline = Date.now() + 150_000;
    while (!output.includes('awaits the CEO')) {
      expect(demo.exitCode, output).toBeNull();
      expect(Date.now() < deadline, `the demo did not reach the CEO:\n${output}`).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const stopped = once(demo, 'exit');
    demo.kill('SIGTERM');
    await stopped;

    const target = await emptyTarget();
    const moved = await move(target.databaseUrl!, demoDir);
    expect(moved.code, moved.out).toBe(0);
    expect(moved.out).toContain('every table has the same rows and checksum on both sides');
    const counts = await rowCounts(target.databaseUrl!);
    for (const table of ['tasks', 'projects', 'agents', 'agent_runs', 'task_events']) {
      expect(counts[table], table).toBeGreaterThan(0);
    }
  }, 240_000);
});
