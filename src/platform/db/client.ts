/**
 * One database handle for the whole process: PGlite (real Postgres in WASM) persisted under the
 * data directory by default, or a node-postgres pool when GAFFER_DATABASE_URL is set. Both speak
 * the same SQL through the same Drizzle query builder and share one set of migrations.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { StoreUnreachableError } from '../store-errors.js';
import { lockDataDir } from './data-dir-lock.js';
import { isConnectionFailureCode, isDatabaseUnreachable, StoreReadOnlyError } from './errors.js';
import { applyMigrations } from './migrate.js';
import { buildPgliteTemplate, copyPgliteTemplate } from './pglite-template.js';
import { shareTurns } from './pglite-turns.js';

// biome-ignore lint/suspicious/noExplicitAny: both drivers' result kinds meet here
export type Db = PgDatabase<PgQueryResultHKT, Record<string, any>>;

/** Rows of a raw SQL query; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

const dialect = new PgDialect();
const statementNames = new Map<string, string>();

/**
 * Rows of a raw SQL query run as a named prepared statement: each connection parses and plans it
 * once, later runs only bind and execute it (on PostgreSQL; PGlite runs it as `queryRows` does).
 * For hot statements whose text takes only a few shapes, the values being parameters: the name is
 * `prefix` and a digest of the text, so each shape is prepared once per connection.
 */
export async function queryPrepared<T>(db: Db, prefix: string, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  let name = statementNames.get(built.sql);
  if (name === undefined) {
    name = `${prefix}_${createHash('sha1').update(built.sql).digest('hex').slice(0, 12)}`;
    statementNames.set(built.sql, name);
  }
  const result = (await db._.session.prepareQuery(built, undefined, name, false).execute()) as { rows: T[] };
  return result.rows;
}

/**
 * A statement built once per database handle (a prepared statement, say: Drizzle prepares it on a
 * connection at its first use there): `perDatabase(build)(db)` answers the same one every time.
 */
export function perDatabase<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let value = built.get(db);
    if (value === undefined) {
      value = build(db);
      built.set(db, value);
    }
    return value;
  };
}

/** What a ping asks: whether a transaction begun now could write. */
const READ_ONLY_QUERY = "select current_setting('transaction_read_only') as read_only";

export interface Database {
  readonly db: Db;
  readonly kind: 'pglite' | 'postgres';
  /**
   * Resolves when a trivial query round-trips and the store takes writes; rejects with
   * StoreReadOnlyError when it answers but is read-only (an embedded store paused for its move to
   * PostgreSQL, or a PostgreSQL standby).
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL URL; absent means embedded PGlite. */
  url?: string | undefined;
  /** PGlite directory; absent (with no url) means an in-memory database, for tests. */
  dataDir?: string | undefined;
  poolSize?: number;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean;
  /**
   * A new PGlite data directory starts as a copy of this build's migrated template when there is
   * one (default true; only when migrating: a store opened as it is stays as it is).
   */
  template?: boolean;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.url
    ? openPostgres(options.url, options.poolSize ?? 20)
    : await openPglite(options.dataDir, options.migrate !== false && options.template !== false);
  if (options.migrate !== false) {
    try {
      await applyMigrations(database);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

/** Makes this build's PGlite template (`npm run build` does, and the integration tests' setup). */
export const preparePgliteTemplate = (root?: string): Promise<string> =>
  buildPgliteTemplate(async (dataDir) => (await openDatabase({ dataDir, template: false })).close(), root);

async function openPglite(dataDir: string | undefined, fromTemplate: boolean): Promise<Database> {
  let location: string | undefined;
  let unlock = () => {};
  if (dataDir) {
    location = join(dataDir, 'pglite');
    mkdirSync(location, { recursive: true });
    unlock = lockDataDir(location);
  }
  let client: PGlite;
  try {
    if (location && fromTemplate) await copyPgliteTemplate(location);
    // pgvector is loaded, not created: retrieval creates the extension when it first needs it.
    const options = { extensions: { vector } };
    client = location ? await PGlite.create(location, options) : await PGlite.create(options);
  } catch (error) {
    unlock();
    throw error;
  }
  shareTurns(client);
  const db = drizzlePglite({ client }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async ping() {
      const { rows } = await client.query<{ read_only: string }>(READ_ONLY_QUERY);
      if (rows[0]?.read_only === 'on') throw new StoreReadOnlyError();
    },
    async close() {
      if (!client.closed) await client.close();
      unlock();
    },
  };
}

function openPostgres(url: string, poolSize: number): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 10_000 });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  tagConnectFailures(pool);
  const db = drizzlePg({ client: pool }) as unknown as Db;
  let closed = false;
  return {
    db,
    kind: 'postgres',
    async ping() {
      const [row] = await queryRows<{ read_only: string }>(db, sql.raw(READ_ONLY_QUERY));
      if (row?.read_only === 'on') throw new StoreReadOnlyError();
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/**
 * Failures to get a connection from the pool (a transaction's first step, which Drizzle does not
 * wrap) become `StoreUnreachableError('database')`, so a socket error there is not taken for some
 * other service's and is answered as a database outage.
 */
function tagConnectFailures(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (
    callback?: ConnectCallback,
  ) => Promise<pg.PoolClient> | undefined;
  const tag = (error: Error) =>
    isConnectionFailureCode((error as { code?: unknown }).code) || isDatabaseUnreachable(error)
      ? new StoreUnreachableError('database', { cause: error })
      : error;
  (pool as { connect: unknown }).connect = (callback?: ConnectCallback) => {
    if (callback) return connect((error, client, done) => callback(error ? tag(error) : error, client, done));
    return (connect() as Promise<pg.PoolClient>).catch((error: Error) => {
      throw tag(error);
    });
  };
}

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;
