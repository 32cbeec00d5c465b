/**
 * Backups of a real company's store, on the store of the pass (PGlite, or PostgreSQL in the
 * PostgreSQL + Redis pass), restored into fresh stores of both kinds: taken while tasks are being
 * created (one transaction's view: it restores with every foreign key whole, and holds exactly the
 * tasks of one moment), every table equal after the restore (counts and order-free checksums);
 * a snapshot of the previous schema restored and migrated forward; a store with rows refused
 * unless forced; a cut-short, altered or foreign file refused before anything is written.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projects } from '../src/modules/projects/schema.js';
import { BACKUP_LOOP } from '../src/modules/system/index.js';
import { RowDigest } from '../src/platform/db/backup/format.js';
import {
  appliedMigrations,
  BackupFileError,
  dumpStore,
  migrationTags,
  readBackup,
  readCatalog,
  restoreStore,
  StoreNotEmptyError,
  tableChecksums,
} from '../src/platform/db/backup/index.js';
import { migrateTo } from '../src/platform/db/backup/restore.js';
import { type Database, openDatabase, queryRows } from '../src/platform/db/client.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createTestStores, type TestStores, testDatabaseUrl } from './support/stores.js';

let t: TestApp;
let dir: string;
let projectId: string;
const opened: Database[] = [];
const emptyStores: TestStores[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gaffer-backup-'));
  t = await startTestApp();
  const [row] = await t.platform.database.db
    .insert(projects)
    .values({
      slug: 'shop',
      name: 'Shop',
      gitUrl: join(dir, 'shop.git'),
      gitProvider: 'local',
      createdBy: 'ceo',
    })
    .returning({ id: projects.id });
  projectId = row!.id;
});
afterAll(async () => {
  await Promise.all(opened.map((database) => database.close()));
  await Promise.all(emptyStores.map((stores) => stores.dispose()));
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh, never-migrated store: an in-memory PGlite, or a new PostgreSQL database. */
async function freshStore(kind: 'pglite' | 'postgres'): Promise<Database> {
  let url: string | undefined;
  if (kind === 'postgres') {
    const stores = await createTestStores({ empty: true });
    emptyStores.push(stores);
    url = stores.databaseUrl;
  }
  const database = await openDatabase({ url, migrate: false });
  opened.push(database);
  return database;
}

const createTask = (n: number) =>
  t.app.inject({
    method: 'POST',
    url: '/api/tasks',
    headers: t.ceoHeaders,
    payload: {
      title: `Backup task ${n}`,
      description: 'A task the backup carries.',
      acceptance_criteria: ['It is restored'],
      team: 'backend',
      task_type: 'code',
      nature: 'technical',
      complexity: 'low',
      project_id: projectId,
    },
  });

async function backupTo(name: string): Promise<string> {
  const path = join(dir, name);
  await dumpStore(t.platform.database, createWriteStream(path), new Date());
  return path;
}

/**
 * Per table of a backup file: its row count and the digest of its sorted row lines — what
 * `tableChecksums` answers for a store holding exactly those rows (the running source may have moved
 * on since: its loops take leases and index what they find).
 */
function fileChecksums(path: string): Record<string, { rows: number; sha256: string }> {
  const out: Record<string, { rows: number; sha256: string }> = {};
  let table: string | null = null;
  let rows: string[] = [];
  for (const line of gunzipSync(readFileSync(path)).toString('utf8').split('\n').slice(1)) {
    const value = line ? (JSON.parse(line) as Record<string, unknown>) : {};
    if (table === null && typeof value.table === 'string') {
      table = value.table;
      rows = [];
    } else if (table !== null && value.end_table === table) {
      const digest = new RowDigest();
      for (const row of rows.sort()) digest.add(row);
      out[table] = { rows: digest.rows, sha256: digest.hex() };
      table = null;
    } else if (table !== null) rows.push(line);
  }
  return out;
}

const targets: ('pglite' | 'postgres')[] = testDatabaseUrl ? ['pglite', 'postgres'] : ['pglite'];

describe('a backup of a running company', () => {
  it('is one moment of the store, taken while tasks are being created', async () => {
    for (let n = 0; n < 20; n++) {
      const response = await createTask(n);
      expect(response.statusCode, response.body).toBe(201);
    }
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        if ((await createTask(1000 + written)).statusCode === 201) written += 1;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const path = await backupTo('during.gz');
    writing = false;
    await writer;
    expect(written).toBeGreaterThan(0);

    const backup = await readBackup(path);
    const tasks = backup.tables.find((table) => table.table === 'tasks')!;
    expect(tasks.rows.length).toBeGreaterThanOrEqual(20);
    // Every task the backup holds has its creation on the audit trail of the same moment.
    const events = backup.tables.find((table) => table.table === 'task_events')!;
    const created = new Set(events.rows.filter((row) => row.action === 'create').map((row) => row.task_id));
    for (const task of tasks.rows) expect(created.has(task.id)).toBe(true);

    for (const kind of targets) {
      const target = await freshStore(kind);
      const summary = await restoreStore(target, backup);
      expect(summary.rows).toBe(backup.tables.reduce((sum, table) => sum + table.rows.length, 0));
      const restored = await tableChecksums(target.db);
      expect(restored.tasks?.rows).toBe(tasks.rows.length);
    }
  });

  it('restores into either store with every table equal, and sequences past the rows', async () => {
    const path = await backupTo('quiet.gz');
    const source = fileChecksums(path);
    expect(Object.keys(source).length).toBeGreaterThan(30);
    const backup = await readBackup(path);
    expect(backup.header).toMatchObject({
      format: 'gaffer-backup',
      store: t.platform.database.kind,
      migrations: migrationTags().length,
      last_migration: migrationTags().at(-1),
    });
    for (const kind of targets) {
      const target = await freshStore(kind);
      const summary = await restoreStore(target, backup);
      expect(summary.migratedForward).toBe(0);
      expect(await tableChecksums(target.db)).toEqual(source);
      // A sequence-numbered table takes new rows after the restored ones.
      const [next] = await queryRows<{ id: string }>(
        target.db,
        sql`select nextval(pg_get_serial_sequence('task_events', 'id'))::text as id`,
      );
      const ids = backup.tables.find((x) => x.table === 'task_events')!.rows.map((r) => Number(r.id));
      expect(Number(next!.id)).toBeGreaterThan(Math.max(0, ...ids));
    }
  });

  it('restores a snapshot of the previous schema and migrates it forward', async () => {
    const currentPath = await backupTo('current.gz');
    const current = await readBackup(currentPath);
    // The same company as a Gaffer one migration older would have written it.
    const older = await freshStore('pglite');
    await migrateTo(older, migrationTags().length - 1);
    const oldSchema = new Map((await readCatalog(older.db)).map((table) => [table.name, table.columns]));
    const lines = [
      JSON.stringify({
        ...current.header,
        migrations: migrationTags().length - 1,
        last_migration: migrationTags().at(-2),
      }),
    ];
    const kept = current.tables.filter((table) => oldSchema.has(table.table));
    expect(kept.length).toBeLessThanOrEqual(current.tables.length);
    let total = 0;
    for (const table of kept) {
      const columns = table.columns.filter((column) => oldSchema.get(table.table)!.includes(column));
      lines.push(JSON.stringify({ table: table.table, columns }));
      const hash = createHash('sha256');
      for (const row of table.rows) {
        const line = JSON.stringify(Object.fromEntries(columns.map((column) => [column, row[column]])));
        hash.update(line).update('\n');
        lines.push(line);
      }
      total += table.rows.length;
      lines.push(
        JSON.stringify({ end_table: table.table, rows: table.rows.length, sha256: hash.digest('hex') }),
      );
    }
    lines.push(JSON.stringify({ end: true, tables: kept.length, rows: total }));
    const path = join(dir, 'older.gz');
    writeFileSync(path, gzipSync(`${lines.join('\n')}\n`));

    const target = await freshStore('pglite');
    const summary = await restoreStore(target, await readBackup(path));
    expect(summary.migratedForward).toBe(1);
    expect(await appliedMigrations(target.db)).toBe(migrationTags().length);
    const restored = await tableChecksums(target.db);
    expect(restored.tasks).toEqual(fileChecksums(currentPath).tasks);
  });

  it('refuses a store with rows unless forced, and then replaces what it held', async () => {
    const againPath = await backupTo('again.gz');
    const backup = await readBackup(againPath);
    const target = await freshStore('pglite');
    await restoreStore(target, backup);
    await expect(restoreStore(target, backup)).rejects.toBeInstanceOf(StoreNotEmptyError);
    await expect(restoreStore(target, backup)).rejects.toThrow(/not empty \(.*agents: \d+/);
    const summary = await restoreStore(target, backup, { force: true });
    expect(summary.rows).toBeGreaterThan(0);
    expect(await tableChecksums(target.db)).toEqual(fileChecksums(againPath));
  });

  it('refuses a cut-short, altered or foreign file before writing anything', async () => {
    const path = await backupTo('whole.gz');
    const text = gunzipSync(readFileSync(path)).toString('utf8');
    const cut = join(dir, 'cut.gz');
    writeFileSync(cut, gzipSync(text.slice(0, Math.floor(text.length / 2))));
    const truncatedGzip = join(dir, 'truncated-gzip.gz');
    writeFileSync(truncatedGzip, readFileSync(path).subarray(0, 200));
    const altered = join(dir, 'altered.gz');
    writeFileSync(altered, gzipSync(text.replace('"slug":"be-dev-1"', '"slug":"be-dev-9"')));
    const foreign = join(dir, 'foreign.gz');
    writeFileSync(foreign, gzipSync('{"hello":"world"}\n'));
    const plain = join(dir, 'plain.json');
    writeFileSync(plain, text);

    await expect(readBackup(cut)).rejects.toThrow(/cut short|not a JSON object/);
    await expect(readBackup(truncatedGzip)).rejects.toBeInstanceOf(BackupFileError);
    await expect(readBackup(altered)).rejects.toThrow(/do not match their checksum/);
    await expect(readBackup(foreign)).rejects.toThrow(/not a Gaffer backup/);
    await expect(readBackup(plain)).rejects.toThrow(/cannot be read as a gzip backup/);
  });
});

describe('a backup whose reader goes away', () => {
  it('ends at once instead of holding the store, and the store answers again', async () => {
    const reader = new Writable({
      highWaterMark: 1,
      write(_chunk, _encoding, done) {
        setTimeout(() => this.destroy(), 0);
        done();
      },
    });
    await expect(dumpStore(t.platform.database, reader, new Date())).rejects.toThrow();
    expect((await createTask(9999)).statusCode).toBe(201);
  });
});

describe('scheduled backups', () => {
  it('writes a checked backup each pass into the data directory, and prunes the ones past retention', async () => {
    const get = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/system/backups', headers: t.ceoHeaders })).json() as {
        interval_minutes: number | null;
        retention_days: number;
        dir: string;
        backups: { name: string; bytes: number; taken_at: string }[];
      };
    const before = await get();
    expect(before).toMatchObject({
      interval_minutes: 60,
      retention_days: 30,
      dir: join(t.platform.config.dataDir, 'backups'),
    });
    expect((await t.scheduler.runNow(BACKUP_LOOP)).status).toBe('succeeded');
    const after = await get();
    expect(after.backups).toHaveLength(before.backups.length + 1);
    const [newest] = after.backups;
    expect(newest!.bytes).toBeGreaterThan(1000);
    const backup = await readBackup(join(after.dir, newest!.name));
    expect(backup.tables.find((table) => table.table === 'tasks')?.rows.length).toBeGreaterThan(0);

    // One older than the retention goes when the next is written; "back up now" is the same pass.
    const stale = 'gaffer-backup-2020-01-01T00-00-00-000Z.jsonl.gz';
    writeFileSync(join(after.dir, stale), readFileSync(join(after.dir, newest!.name)));
    expect((await get()).backups.map((b) => b.name)).toContain(stale);
    const now = await t.app.inject({ method: 'POST', url: '/api/system/backups', headers: t.ceoHeaders });
    expect(now.statusCode, now.body).toBe(201);
    const listed = (await get()).backups.map((b) => b.name);
    expect(listed).not.toContain(stale);
    expect(listed[0]).toBe(now.json().name);
    const agent = await t.app.inject({
      method: 'POST',
      url: '/api/system/backups',
      headers: t.headersFor('be-dev-1', 'developer', 'backend'),
    });
    expect(agent.statusCode).toBe(403);
  });
});
