/**
 * `gaffer backup <file>` and `gaffer restore <file> [--force]`.
 *
 * backup: asks the running server (GET /api/system/backup, as the CEO with a 60-second token) — the
 * embedded store is the server's alone — or, with no server answering, opens the configured store
 * itself; then reads the file back and checks it whole.
 *
 * restore: checks the file whole first (nothing is written from a damaged file), refuses while a
 * server answers on the configured address, then fills the configured store (refusing one with rows
 * unless --force) and prints what it restored. The auth secret is not in a backup: keep it beside.
 *
 * store move --to URL: copies the configured (embedded) store into an empty PostgreSQL database — a
 * backup restored there, every table's rows and checksum compared — and prints the variables to set
 * next. With the server running, the server does it (POST /api/system/store/move): it pauses its
 * writes for the copy and keeps them paused until it is restarted on the new store.
 */
import { createWriteStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.js';
import {
  BackupFileError,
  dumpStore,
  MoveMismatchError,
  type MoveSummary,
  MoveTargetError,
  moveStore,
  POSTGRES_URL,
  readBackup,
  redactUrl,
  restoreStore,
  StoreNotEmptyError,
} from '../platform/db/backup/index.js';
import { openDatabase } from '../platform/db/client.js';
import { baseUrl, CEO_IDENTITY, expiringToken, loadOrCreateSecret } from '../platform/http/auth/index.js';

const SECRET_NOTE =
  'The auth secret (GAFFER_AUTH_SECRET, or auth-secret in the data directory) is not in the backup: keep a copy of ' +
  'it beside the file — every token and panel session is signed with it.';

export async function serverAnswers(base: string): Promise<boolean> {
  return fetch(`${base}/health`, { signal: AbortSignal.timeout(3000) }).then(
    () => true,
    () => false,
  );
}

const openStore = (config: Config) =>
  openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, poolSize: 2, migrate: false });

export async function runBackup(config: Config, file: string): Promise<number> {
  const base = baseUrl({ ...config, publicUrl: undefined });
  if (await serverAnswers(base)) {
    const token = expiringToken(loadOrCreateSecret(config), CEO_IDENTITY, 60);
    const response = await fetch(`${base}/api/system/backup`, { headers: { 'x-agent-token': token } });
    if (!response.ok || !response.body) {
      console.error(
        `gaffer backup: the server at ${base} answered ${response.status}: ${await response.text()}`,
      );
      return 1;
    }
    await pipeline(Readable.fromWeb(response.body as never), createWriteStream(file));
    console.log(`Taken by the Gaffer at ${base}.`);
  } else {
    const database = await openStore(config);
    try {
      await dumpStore(database, createWriteStream(file), new Date());
    } finally {
      await database.close();
    }
    console.log(
      `No Gaffer answers at ${base}: taken from the ${config.databaseUrl ? 'PostgreSQL' : 'embedded'} store directly.`,
    );
  }
  try {
    const backup = await readBackup(file);
    const rows = backup.tables.reduce((sum, table) => sum + table.rows.length, 0);
    const size = (statSync(file).size / 1024).toFixed(0);
    console.log(
      `Backup written to ${file}: ${backup.tables.length} tables, ${rows} rows, ${size} KiB, schema ${backup.header.last_migration} — read back and checked.`,
    );
    console.log(SECRET_NOTE);
    return 0;
  } catch (error) {
    console.error(`gaffer backup: the file written does not read back: ${(error as Error).message}`);
    return 1;
  }
}

export async function runRestore(config: Config, file: string, force: boolean): Promise<number> {
  let backup: Awaited<ReturnType<typeof readBackup>>;
  try {
    backup = await readBackup(file);
  } catch (error) {
    if (!(error instanceof BackupFileError) && (error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw error;
    console.error(`gaffer restore: ${file}: ${(error as Error).message}. Nothing was written.`);
    return 1;
  }
  const base = baseUrl({ ...config, publicUrl: undefined });
  if (await serverAnswers(base)) {
    console.error(
      `gaffer restore: a Gaffer answers at ${base}: stop it first (a restore replaces its store).`,
    );
    return 1;
  }
  if (force) console.warn('WARNING: --force replaces everything the store holds with the backup.');
  const database = await openStore(config);
  try {
    const summary = await restoreStore(database, backup, { force });
    for (const { table, rows } of summary.tables.filter((t) => t.rows > 0))
      console.log(`  ${table}: ${rows}`);
    console.log(
      `Restored ${summary.rows} rows in ${summary.tables.length} tables from ${file} (taken ${backup.header.created_at} ` +
        `on ${backup.header.store}, schema ${backup.header.last_migration})` +
        (summary.migratedForward > 0 ? `, then ${summary.migratedForward} newer migrations applied.` : '.'),
    );
    console.log(SECRET_NOTE);
    return 0;
  } catch (error) {
    if (error instanceof StoreNotEmptyError || error instanceof BackupFileError) {
      console.error(`gaffer restore: ${error.message}. Nothing was written.`);
      return 1;
    }
    throw error;
  } finally {
    await database.close();
  }
}

export async function runStoreMove(config: Config, to: string): Promise<number> {
  if (!POSTGRES_URL.test(to)) {
    console.error('gaffer store move: --to takes a PostgreSQL URL (postgres://user@host:5432/database).');
    return 2;
  }
  const base = baseUrl({ ...config, publicUrl: undefined });
  const running = await serverAnswers(base);
  const started = Date.now();
  let moved: MoveSummary & { paused_seconds?: number };
  if (running) {
    const token = expiringToken(loadOrCreateSecret(config), CEO_IDENTITY, 600);
    const response = await fetch(`${base}/api/system/store/move`, {
      method: 'POST',
      headers: { 'x-agent-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ to }),
    });
    const answer = (await response.json()) as typeof moved & { error?: { message: string } };
    if (!response.ok) {
      console.error(
        `gaffer store move: the Gaffer at ${base} answered ${response.status}: ${answer.error?.message}`,
      );
      return 1;
    }
    moved = answer;
  } else {
    const source = await openStore(config);
    try {
      moved = await moveStore(source, to, new Date());
    } catch (error) {
      if (
        !(
          error instanceof StoreNotEmptyError ||
          error instanceof MoveMismatchError ||
          error instanceof MoveTargetError
        )
      )
        throw error;
      const cause = error instanceof MoveTargetError ? `: ${(error.cause as Error)?.message}` : '';
      console.error(
        `gaffer store move: the target ${error.message}${cause}. The embedded store is left as it was.`,
      );
      return 1;
    } finally {
      await source.close();
    }
  }
  console.log(
    `Moved ${moved.rows} rows in ${moved.tables} tables to ${redactUrl(to)} in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
      'every table has the same rows and checksum on both sides.',
  );
  if (moved.paused_seconds !== undefined) {
    console.log(
      `The Gaffer at ${base} paused its writes for the copy (${moved.paused_seconds} s so far) and keeps them paused ` +
        '(writes answer 503 store_read_only; reads go on): stop it and start it on the new store.',
    );
  }
  console.log(
    `Set next, keeping GAFFER_AUTH_SECRET (or ${join(config.dataDir, 'auth-secret')}) so tokens and sessions stay valid:\n` +
      `  GAFFER_DATABASE_URL=${redactUrl(to)}\n  GAFFER_REDIS_URL=redis://…   (for more than one replica)\n` +
      'then gaffer start. The embedded store is left as it was.',
  );
  return 0;
}
