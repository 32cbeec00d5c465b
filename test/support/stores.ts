/**
 * Real stores for tests, made from migrated templates (store-templates.ts): PGlite in a temp
 * directory by default; a fresh PostgreSQL database per test when GAFFER_TEST_DATABASE_URL is set;
 * Redis (with a key prefix of its own) when GAFFER_TEST_REDIS_URL is set, else the in-process cache.
 * `platform()` may be called again after closing the previous one: that is an app restart on the
 * same data.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { type Config, configWith } from '../../src/config.js';
import { startEventBus } from '../../src/platform/bus/index.js';
import { openStores } from '../../src/platform/cache/index.js';
import { type Clock, systemClock } from '../../src/platform/clock.js';
import type { Platform } from '../../src/platform/context.js';
import { type Database, openDatabase } from '../../src/platform/db/client.js';
import { silentLogger } from '../../src/platform/logger.js';
import { createMigratedDatabase } from './store-templates.js';

export const testDatabaseUrl = process.env.GAFFER_TEST_DATABASE_URL || undefined;
export const testRedisUrl = process.env.GAFFER_TEST_REDIS_URL || undefined;

export interface TestPlatform extends Platform {
  close(): Promise<void>;
}

export interface TestStores {
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly keyPrefix: string;
  /** Opens the platform on these stores (again, after a close, to simulate a restart). */
  platform(options?: { config?: Partial<Config>; clock?: Clock }): Promise<TestPlatform>;
  /** Removes the temp directory and drops the PostgreSQL database. */
  dispose(): Promise<void>;
}

/**
 * With GAFFER_TEST_STORE_LOG set, each test file that opens stores is named in that file, so CI can
 * check that its PostgreSQL + Redis pass leaves none out (see test-groups.ts).
 */
function noteStoreUse(): void {
  const log = process.env.GAFFER_TEST_STORE_LOG;
  const file = expect.getState().testPath;
  if (log && file) appendFileSync(log, `${file}\n`);
}

/** `empty`: no migrated template; the first open creates and migrates the database itself. */
export async function createTestStores({ empty = false }: { empty?: boolean } = {}): Promise<TestStores> {
  noteStoreUse();
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-test-'));
  const suffix = randomBytes(6).toString('hex');
  const keyPrefix = `gaffer-test:${suffix}:`;
  let databaseUrl: string | undefined;
  let databaseName: string | undefined;
  if (testDatabaseUrl) {
    databaseName = `gaffer_test_${suffix}`;
    if (empty) await adminQuery(`create database ${databaseName}`);
    else await createMigratedDatabase(testDatabaseUrl, databaseName);
    const url = new URL(testDatabaseUrl);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
  }
  const open: TestPlatform[] = [];
  return {
    dataDir,
    databaseUrl,
    redisUrl: testRedisUrl,
    keyPrefix,
    async platform(options = {}) {
      const config = configWith({
        dataDir,
        databaseUrl,
        redisUrl: testRedisUrl,
        databasePoolSize: 5,
        logLevel: 'silent',
        // Suites drive tasks by hand; the dispatch suites switch the dispatcher on.
        dispatchEnabled: false,
        ...options.config,
      });
      const database = await openDatabase({
        url: config.databaseUrl,
        dataDir: config.dataDir,
        poolSize: config.databasePoolSize,
        // A new embedded store starts from the build's migrated template, unless asked empty.
        template: !empty,
      });
      const { cache, locks } = await openStores({ redisUrl: config.redisUrl, keyPrefix, database });
      const clock = options.clock ?? systemClock;
      const bus = await startEventBus(cache, { now: () => clock.now() });
      let closed = false;
      const platform: TestPlatform = {
        config,
        database,
        cache,
        locks,
        bus,
        clock,
        secret: 'test-secret-0123456789abcdef0123456789abcdef',
        // Services built straight on the stores log nothing; buildApp hands modules the app's logger.
        log: silentLogger,
        async close() {
          if (closed) return;
          closed = true;
          await bus.stop();
          await cache.close();
          await database.close();
        },
      };
      open.push(platform);
      return platform;
    },
    async dispose() {
      await Promise.all(open.map((p) => p.close()));
      if (databaseName) await adminQuery(`drop database if exists ${databaseName} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs one statement on the test PostgreSQL server's admin database (creating databases, roles). */
export async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: testDatabaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Just a database, for tests of one module: a fresh PostgreSQL database when
 * GAFFER_TEST_DATABASE_URL is set (unless `embedded` is asked for), else PGlite from the template.
 * `close()` removes it again.
 */
export async function openTestDatabase(options: { embedded?: boolean } = {}): Promise<Database> {
  noteStoreUse();
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-test-db-'));
  const stores = options.embedded ? undefined : testDatabaseUrl ? await createTestStores() : undefined;
  const database = await openDatabase({ url: stores?.databaseUrl, dataDir, poolSize: 5 });
  return {
    ...database,
    async close() {
      await database.close();
      await stores?.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
