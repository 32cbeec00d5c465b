/**
 * Moves a store into an empty PostgreSQL database: a backup of it (one transaction's view, held in
 * memory gzipped — smaller than the rows the restore holds anyway — so that a move killed at any
 * point leaves no copy of the company on disk) restored there in one transaction, then every table's
 * row count and checksum compared on both sides. `gaffer store move` runs it on a stopped store; a
 * running embedded server runs it on its own store (POST /api/system/store/move) with its writes
 * paused for the copy.
 */
import { Readable, Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../client.js';
import { dumpStore, tableChecksums } from './dump.js';
import { readBackup } from './format.js';
import { restoreStore, StoreNotEmptyError } from './restore.js';

export interface MoveSummary {
  rows: number;
  tables: number;
}

/** The copy is not what the source holds (it is left in the target for a look; move again into an empty one). */
export class MoveMismatchError extends Error {
  constructor(readonly tables: string[]) {
    super(`these tables differ after the copy: ${tables.join(', ')}`);
    this.name = 'MoveMismatchError';
  }
}

/** The target failed while being filled (its driver error is the cause); nothing of it is kept. */
export class MoveTargetError extends Error {
  constructor(cause: unknown) {
    super('the target database failed during the copy', { cause });
    this.name = 'MoveTargetError';
  }
}

/** What a move's target looks like: a PostgreSQL URL. */
export const POSTGRES_URL = /^postgres(ql)?:\/\//;

/** The URL without its password. */
export const redactUrl = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

export async function moveStore(source: Database, to: string, now: Date): Promise<MoveSummary> {
  const gzipped: Buffer[] = [];
  const memory = new Writable({
    write(chunk: Buffer, _encoding, done) {
      gzipped.push(chunk);
      done();
    },
  });
  await dumpStore(source, memory, now);
  const backup = await readBackup(Readable.from(Buffer.concat(gzipped)));
  let target: Database | undefined;
  try {
    target = await openDatabase({ url: to, poolSize: 2, migrate: false });
    const summary = await restoreStore(target, backup).catch((error: unknown) => {
      throw error instanceof StoreNotEmptyError ? error : new MoveTargetError(error);
    });
    const [before, after] = await Promise.all([tableChecksums(source.db), tableChecksums(target.db)]);
    const differing = Object.keys(before).filter(
      (table) => JSON.stringify(before[table]) !== JSON.stringify(after[table]),
    );
    if (differing.length > 0) throw new MoveMismatchError(differing);
    return { rows: summary.rows, tables: summary.tables.length };
  } finally {
    await target?.close();
  }
}

/**
 * Makes every transaction after this one read-only (the embedded store has one connection, so this
 * is every writer in the process: routes, loops, agents' runs); a write then fails with SQLSTATE
 * 25006, answered as 503 `store_read_only`. Answers the undo.
 */
export async function pauseWrites(database: Database): Promise<() => Promise<void>> {
  if (database.kind !== 'pglite') throw new Error('only the embedded store pauses its writes this way');
  await database.db.execute(sql`set default_transaction_read_only = on`);
  return async () => {
    await database.db.execute(sql`set default_transaction_read_only = off`);
  };
}
