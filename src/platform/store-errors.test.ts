/**
 * The store-outage classifier on real errors from the real drivers: node-postgres (through Drizzle
 * and not) against a closed port, a server that hangs up and one that never answers, an ended pool;
 * a closed PGlite; ioredis with no server; and, with GAFFER_TEST_DATABASE_URL, a backend the server
 * terminates (57P01). Errors that are not outages (a constraint violation, a refused HTTP call, a
 * Redis reply error) must not be taken for one, and no safe message ever carries SQL.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { CLOSED_PORT } from '../../test/support/closed-port.js';
import { isCacheUnreachable, onRedis } from './cache/errors.js';
import { RedisLocks } from './cache/locks-redis.js';
import { openRedisCache } from './cache/redis.js';
import { openDatabase } from './db/client.js';
import { isDatabaseUnreachable } from './db/errors.js';
import { StoreUnreachableError, safeFailureMessage, unreachableStore } from './store-errors.js';

const testDatabaseUrl = process.env.GAFFER_TEST_DATABASE_URL || undefined;
const testRedisUrl = process.env.GAFFER_TEST_REDIS_URL || undefined;

const servers: Server[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A loopback server that does `onSocket` with every connection. */
async function fakeServer(onSocket: (socket: Socket) => void): Promise<number> {
  const server = createServer((socket) => {
    sockets.push(socket);
    onSocket(socket);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

const caught = async (work: () => Promise<unknown>): Promise<unknown> => {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
};

const url = (port: number) => `postgres://gaffer@127.0.0.1:${port}/gaffer`;

describe('the database is unreachable', () => {
  it('a refused connection, through Drizzle and as a transaction begins', async () => {
    const database = await openDatabase({ url: url(CLOSED_PORT), migrate: false });
    try {
      const query = await caught(() => database.db.execute(sql`select 1`));
      expect((query as object).constructor.name).toBe('DrizzleQueryError');
      expect(unreachableStore(query)).toBe('database');
      // Drizzle does not wrap the pool's connect; the database handle tags it.
      const transaction = await caught(() => database.db.transaction(async () => {}));
      expect(transaction).toBeInstanceOf(StoreUnreachableError);
      expect(unreachableStore(transaction)).toBe('database');
      for (const error of [query, transaction]) {
        expect(safeFailureMessage(error)).toBe('the database is unreachable');
      }
    } finally {
      await database.close();
    }
  });

  it('a server that hangs up ("Connection terminated") and one that never answers (pool timeout)', async () => {
    const hangsUp = await fakeServer((socket) => socket.destroy());
    const hangs = await fakeServer(() => {});
    for (const port of [hangsUp, hangs]) {
      const pool = new pg.Pool({ connectionString: url(port), connectionTimeoutMillis: 300 });
      pool.on('error', () => {});
      const raw = await caught(() => pool.query('select 1'));
      const wrapped = await caught(() => drizzlePg({ client: pool }).execute(sql`select 1`));
      await pool.end();
      expect(isDatabaseUnreachable(raw)).toBe(true);
      expect(unreachableStore(wrapped)).toBe('database');
    }
  });

  it('an ended pool and a closed PGlite', async () => {
    const pool = new pg.Pool({ connectionString: url(CLOSED_PORT) });
    await pool.end();
    const ended = await caught(() => drizzlePg({ client: pool }).execute(sql`select 1`));
    expect(unreachableStore(ended)).toBe('database');

    const client = await PGlite.create();
    await client.close();
    const closed = await caught(() => drizzlePglite({ client }).execute(sql`select 1`));
    expect(unreachableStore(closed)).toBe('database');
    expect(safeFailureMessage(closed)).not.toMatch(/select|PGlite|Failed query/i);
  });

  it.skipIf(!testDatabaseUrl)('a backend the server terminates (SQLSTATE 57P01)', async () => {
    const victim = new pg.Client({ connectionString: testDatabaseUrl });
    victim.on('error', () => {});
    await victim.connect();
    const { rows } = await victim.query<{ pid: number }>('select pg_backend_pid() as pid');
    const admin = new pg.Client({ connectionString: testDatabaseUrl });
    await admin.connect();
    await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
    await admin.end();
    const error = await caught(() => victim.query('select 1'));
    await victim.end().catch(() => {});
    expect(unreachableStore(error)).toBe('database');
  });
});

describe('failures that are not an outage', () => {
  it('a constraint violation is no outage, and its safe message carries no SQL', async () => {
    const client = await PGlite.create();
    try {
      const db = drizzlePglite({ client });
      await db.execute(sql`create table t (id int primary key)`);
      await db.execute(sql`insert into t values (1)`);
      const duplicate = await caught(() => db.execute(sql`insert into t values (1)`));
      expect(unreachableStore(duplicate)).toBeNull();
      expect(safeFailureMessage(duplicate)).toBe('a database operation failed');
    } finally {
      await client.close();
    }
  });

  it('a refused HTTP call is not taken for a database outage', async () => {
    const refused = await caught(() => fetch(`http://127.0.0.1:${CLOSED_PORT}/`));
    expect(refused).toMatchObject({ cause: { code: 'ECONNREFUSED' } });
    expect(unreachableStore(refused)).toBeNull();
    expect(unreachableStore(new Error('something else'))).toBeNull();
  });

  it.skipIf(!testRedisUrl)('a Redis reply error (WRONGTYPE) is no outage', async () => {
    const client = new Redis(testRedisUrl!, { maxRetriesPerRequest: 0 });
    const key = `gaffer-test:store-errors:${process.pid}`;
    try {
      await client.set(key, 'x', 'PX', 10_000);
      const error = await caught(() => onRedis(() => client.lpush(key, 'y')));
      expect(isCacheUnreachable(error)).toBe(false);
      expect(unreachableStore(error)).toBeNull();
    } finally {
      await client.del(key);
      client.disconnect();
    }
  });
});

describe('the cache is unreachable', () => {
  it('ioredis with no server: offline-queue refusal and MaxRetriesPerRequestError', async () => {
    const noQueue = new Redis(CLOSED_PORT, '127.0.0.1', {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    const queued = new Redis(CLOSED_PORT, '127.0.0.1', { maxRetriesPerRequest: 0 });
    for (const client of [noQueue, queued]) client.on('error', () => {});
    try {
      const refused = await caught(() => noQueue.get('k'));
      const retries = await caught(() => queued.get('k'));
      expect(retries).toMatchObject({ name: 'MaxRetriesPerRequestError' });
      for (const error of [refused, retries]) {
        expect(isCacheUnreachable(error)).toBe(true);
        // Raw driver errors are wrapped at the cache's edge; only then do they name the store.
        const wrapped = await caught(() =>
          onRedis(async () => {
            throw error;
          }),
        );
        expect(unreachableStore(wrapped)).toBe('cache');
        expect(safeFailureMessage(wrapped)).toBe('the cache is unreachable');
      }
    } finally {
      noQueue.disconnect();
      queued.disconnect();
    }
  });

  it('the Redis cache and its locks fail as StoreUnreachableError("cache")', async () => {
    const cache = await openRedisCache({
      url: `redis://127.0.0.1:${CLOSED_PORT}`,
      connectTimeoutMs: 300,
    });
    try {
      const locks = new RedisLocks(cache.client);
      const calls = [
        () => cache.get('k'),
        () => cache.set('k', 'v'),
        () => cache.incr('k'),
        () => cache.publish('c', 'm'),
        () => cache.ping(),
        () => locks.acquire('release', 1_000),
      ];
      for (const call of calls) expect(unreachableStore(await caught(call))).toBe('cache');
    } finally {
      await cache.close();
    }
    const afterClose = await caught(() => cache.get('k'));
    expect(unreachableStore(afterClose)).toBe('cache');
  });
});
