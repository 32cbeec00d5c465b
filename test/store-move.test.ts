/**
 * `gaffer store move` of a grown company (PostgreSQL pass only: the target is PostgreSQL): an
 * embedded store seeded by a real first start, then given 10,000 tasks.
 * - kill -9 in the middle of a move — while its one fill transaction inserts the rows, after the
 *   schema was migrated in a transaction of its own — leaves the target either empty or complete
 *   (the test says which it found) and no copy of the company in its temporary directory, and the move run again makes every table equal to the source's
 *   (or, had the first one completed, is refused as not empty);
 * - the move of the whole company is checked table by table (rows and checksums, here as well as
 *   by the move), and then two replicas on the moved database serve the board with every task and
 *   accept CEO tokens minted before the move (a token signed with another secret is refused);
 * - the demo company, after its scripted agents carried the sample task to the CEO (runs, audit,
 *   events, notifications, reviews), moves with every table equal.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tableChecksums } from '../src/platform/db/backup/index.js';
import { openDatabase } from '../src/platform/db/client.js';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { expiringToken, staticToken } from '../src/platform/http/auth/tokens.js';
import { insertProject, insertTasks } from './fixtures-task-rows.js';
import { CLOSED_PORT } from './support/closed-port.js';
import { GAFFER_MAIN, gafferEnv, runGaffer } from './support/gaffer-cli.js';
import { startReplicas } from './support/replicas.js';
import { createTestStores, type TestStores, testDatabaseUrl } from './support/stores.js';

const TASKS = 10_000;
const secret = randomBytes(32).toString('hex');
/** Minted before the move, with the secret the company keeps: the static form agents hold, and an expiring one. */
const ceoToken = staticToken(secret, CEO_IDENTITY);
const expiringCeoToken = expiringToken(secret, CEO_IDENTITY, 3600);
type Checksums = Record<string, { rows: number; sha256: string }>;
let dir: string;
let embeddedDir: string;
/** Every table of the grown embedded store, rows and checksum (it does not change: moves only read it). */
let source: Checksums;
const cleanups: (() => Promise<void>)[] = [];

/**
 * The variables of a `gaffer store move` of an embedded company (the grown one by default): nothing
 * answers on its port, so the move opens the stopped store itself; its temporary directory is the
 * test's own, to see that a killed move leaves nothing there.
 */
const moveVariables = (dataDir = embeddedDir) => ({
  GAFFER_DATA_DIR: dataDir,
  GAFFER_PORT: String(CLOSED_PORT),
  TMPDIR: join(dir, 'tmp'),
});
const moveArgs = (to: string) => ['store', 'move', '--to', to];
const move = (to: string, dataDir?: string) => runGaffer(moveArgs(to), moveVariables(dataDir), 180_000);

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

/** Every public table of a PostgreSQL database: rows and checksum, as the move compares them ({} unmigrated). */
async function checksumsOf(url: string): Promise<Checksums> {
  const database = await openDatabase({ url, poolSize: 1, migrate: false });
  try {
    return await tableChecksums(database.db);
  } finally {
    await database.close();
  }
}

/**
 * Seen from a session on the target: whether another session holds a write lock on its tasks table —
 * the move's fill transaction, from its first batch of tasks until it ends (the migrations' tables
 * are not visible from here before they commit) — and how many other sessions it has.
 */
async function targetSessions(admin: pg.Client): Promise<{ fillingTasks: boolean; others: number }> {
  const { rows } = await admin.query<{ filling: number; others: number }>(
    `select (select count(*) from pg_locks l join pg_class c on c.oid = l.relation
               join pg_namespace n on n.oid = c.relnamespace
              where l.pid <> pg_backend_pid() and n.nspname = 'public' and c.relname = 'tasks'
                and l.mode = 'RowExclusiveLock')::int as filling,
            (select count(*) from pg_stat_activity
              where datname = current_database() and pid <> pg_backend_pid())::int as others`,
  );
  return { fillingTasks: rows[0]!.filling > 0, others: rows[0]!.others };
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
    mkdirSync(join(dir, 'tmp'));
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
      source = await tableChecksums(database.db);
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
    // Watched from a session of its own on the target (which leaves it as empty as it was).
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const child: ChildProcess = spawn(process.execPath, [GAFFER_MAIN, ...moveArgs(url)], {
        env: gafferEnv(moveVariables()),
        stdio: 'ignore',
      });
      const exited = once(child, 'exit');
      // Killed while its fill transaction is inserting the tasks (the schema is in by then).
      while (!(await targetSessions(admin)).fillingTasks) {
        expect(child.exitCode, 'the move ended before it was caught filling').toBeNull();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      child.kill('SIGKILL');
      await exited;
      expect(readdirSync(join(dir, 'tmp')), 'left in its temporary directory').toEqual([]);
      // The server sees the connection gone and ends its transaction.
      const deadline = Date.now() + 20_000;
      while ((await targetSessions(admin)).others > 0) {
        expect(Date.now() < deadline, 'the killed move still has a session on the target').toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }

      const after = await checksumsOf(url);
      const rows = Object.values(after).reduce((sum, table) => sum + table.rows, 0);
      const state =
        JSON.stringify(after) === JSON.stringify(source)
          ? 'complete'
          : rows > 0
            ? `half-filled (${rows} rows)`
            : Object.keys(after).length > 0
              ? 'empty (the schema migrated, no rows)'
              : 'empty (no schema)';
      console.info(`gaffer store move killed with SIGKILL while filling: the target was left ${state}`);
      // Nothing (the transaction died with the process) or, had it just committed, every row: never part.
      expect(state).toMatch(/^(complete|empty)/);

      const again = await move(url);
      if (state === 'complete') {
        expect(again.code).toBe(1);
        expect(again.out).toContain('not empty');
      } else {
        expect(again.code, again.out).toBe(0);
        expect(again.out).toMatch(/every table has the same rows and checksum/);
      }
      expect(await checksumsOf(url)).toEqual(source);
    } finally {
      await admin.end();
    }
  }, 240_000);

  it('moves every table, and two replicas on the moved database serve the company to an old token', async () => {
    const target = await emptyTarget();
    const moved = await move(target.databaseUrl!);
    expect(moved.code, moved.out).toBe(0);
    const [, rows] = /Moved (\d+) rows/.exec(moved.out) ?? [];
    expect(Number(rows)).toBeGreaterThan(TASKS);
    expect(moved.out).toContain('every table has the same rows and checksum on both sides');
    // Checked here too, before a replica writes to it.
    expect(await checksumsOf(target.databaseUrl!)).toEqual(source);
    expect(source.tasks?.rows).toBe(TASKS);

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
      const asExpiring = await fetch(`${replica.base}/api/tasks?limit=1`, {
        headers: { 'x-agent-token': expiringCeoToken },
      });
      expect(asExpiring.status, `replica ${replica.index}`).toBe(200);
      const foreign = expiringToken(randomBytes(32).toString('hex'), CEO_IDENTITY, 3600);
      const refused = await fetch(`${replica.base}/api/tasks?limit=1`, {
        headers: { 'x-agent-token': foreign },
      });
      expect(refused.status, `replica ${replica.index}`).toBe(401);
    }
  }, 240_000);

  it('moves the demo company once its scripted agents carried the sample task to the CEO', async () => {
    const demoDir = join(dir, 'demo');
    const demo = spawn(process.execPath, [GAFFER_MAIN, 'demo'], {
      env: gafferEnv({ GAFFER_DATA_DIR: demoDir, GAFFER_PORT: '0' }),
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
