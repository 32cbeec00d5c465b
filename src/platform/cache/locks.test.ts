/**
 * The behaviour every `Locks` must have, run against each implementation available here: Postgres
 * leases on in-memory PGlite always, on a fresh PostgreSQL database when GAFFER_TEST_DATABASE_URL
 * is set, and Redis when GAFFER_TEST_REDIS_URL is set. Each suite gets two `Locks` objects that
 * stand for two replicas (two Redis connections, two PostgreSQL pools; PGlite allows one handle,
 * so there they share it). Stores open once per suite; each test starts with no lease held.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestStores, openTestDatabase } from '../../../test/support/stores.js';
import { openDatabase } from '../db/client.js';
import { PostgresLocks } from './locks-postgres.js';
import { RedisLocks } from './locks-redis.js';
import { openRedisCache } from './redis.js';
import { leases } from './schema.js';
import { deleteKeysUnderPrefix } from './test-redis-keys.js';
import type { Lease, Locks } from './types.js';

const redisUrl = process.env.GAFFER_TEST_REDIS_URL || undefined;
const databaseUrl = process.env.GAFFER_TEST_DATABASE_URL || undefined;

interface Replicas {
  readonly first: Locks;
  readonly second: Locks;
}

interface LocksImplementation {
  name: string;
  available: boolean;
  /** False where the database runs in this process, so its clock is the application's. */
  ownClock: boolean;
  /** Opens the stores once per suite; `replicas` then gives each test a clean slate. */
  open(): Promise<{ replicas(): Promise<Replicas>; close(): Promise<void> }>;
}

const implementations: LocksImplementation[] = [
  {
    name: 'postgres leases on PGlite',
    available: true,
    ownClock: false,
    async open() {
      const database = await openTestDatabase({ embedded: true });
      return {
        async replicas() {
          await database.db.delete(leases);
          return { first: new PostgresLocks(database.db), second: new PostgresLocks(database.db) };
        },
        close: () => database.close(),
      };
    },
  },
  {
    name: 'postgres leases on PostgreSQL',
    available: databaseUrl !== undefined,
    ownClock: true,
    async open() {
      const stores = await createTestStores();
      const one = await openDatabase({ url: stores.databaseUrl, poolSize: 10 });
      const two = await openDatabase({ url: stores.databaseUrl, poolSize: 10, migrate: false });
      return {
        async replicas() {
          await one.db.delete(leases);
          return { first: new PostgresLocks(one.db), second: new PostgresLocks(two.db) };
        },
        async close() {
          await Promise.all([one.close(), two.close()]);
          await stores.dispose();
        },
      };
    },
  },
  {
    name: 'redis',
    available: redisUrl !== undefined,
    ownClock: true,
    async open() {
      const keyPrefix = `gaffer-test:${randomBytes(6).toString('hex')}:`;
      const one = await openRedisCache({ url: redisUrl!, keyPrefix });
      const two = await openRedisCache({ url: redisUrl!, keyPrefix });
      let test = 0;
      return {
        async replicas() {
          const testPrefix = `${keyPrefix}${++test}:`;
          return {
            first: new RedisLocks(one.client, testPrefix),
            second: new RedisLocks(two.client, testPrefix),
          };
        },
        async close() {
          await deleteKeysUnderPrefix(one);
          await Promise.all([one.close(), two.close()]);
        },
      };
    },
  },
];

for (const implementation of implementations) {
  describe.skipIf(!implementation.available)(`${implementation.name} locks`, () => {
    let stores: Awaited<ReturnType<LocksImplementation['open']>> | undefined;
    const open = () => stores!.replicas();

    beforeAll(async () => {
      stores = await implementation.open();
    });

    afterAll(async () => {
      await stores?.close();
    });

    afterEach(() => {
      vi.useRealTimers();
    });

    it('grants a free lock and refuses it to everyone else while it is held', async () => {
      const { first, second } = await open();
      const lease = await first.acquire('sweep', 10_000);
      expect(lease).toMatchObject({ name: 'sweep', fencingToken: expect.any(Number) });
      expect(lease!.owner).toEqual(expect.any(String));
      expect(lease!.fencingToken).toBeGreaterThan(0);
      expect(await first.acquire('sweep', 10_000)).toBeNull();
      expect(await second.acquire('sweep', 10_000)).toBeNull();
      expect(await second.acquire('another', 10_000)).not.toBeNull();
    });

    it('lets exactly one of 20 concurrent acquirers win', async () => {
      const { first, second } = await open();
      const attempts = Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? first : second).acquire('release-approve', 10_000),
      );
      const winners = (await Promise.all(attempts)).filter((lease) => lease !== null);
      expect(winners).toHaveLength(1);
    });

    it('hands out fencing tokens that strictly increase with every acquisition', async () => {
      const { first, second } = await open();
      const tokens: number[] = [];
      for (let round = 0; round < 6; round++) {
        const locks = round % 2 === 0 ? first : second;
        const lease = await locks.acquire('fenced', 10_000);
        expect(lease).not.toBeNull();
        tokens.push(lease!.fencingToken);
        expect(await locks.release(lease!)).toBe(true);
      }
      const expired = await first.acquire('fenced', 50);
      await sleep(150);
      const taken = await second.acquire('fenced', 10_000);
      tokens.push(expired!.fencingToken, taken!.fencingToken);
      for (let index = 1; index < tokens.length; index++) {
        expect(tokens[index]).toBeGreaterThan(tokens[index - 1]!);
      }
    });

    it('lets another owner take a lease that expired, and the old holder loses it', async () => {
      const { first, second } = await open();
      const old = await first.acquire('sweep', 100);
      expect(old).not.toBeNull();
      await sleep(250);
      const taken = await second.acquire('sweep', 10_000);
      expect(taken).not.toBeNull();
      expect(taken!.owner).not.toBe(old!.owner);
      expect(taken!.fencingToken).toBeGreaterThan(old!.fencingToken);
      expect(await first.refresh(old!, 10_000)).toBe(false);
      expect(await first.release(old!)).toBe(false);
      expect(await first.acquire('sweep', 10_000)).toBeNull();
    });

    it('extends a lease when its owner refreshes it', async () => {
      const { first, second } = await open();
      // Long enough that a loaded machine refreshes it before it lapses (Redis keeps real time).
      const lease = await first.acquire('sweep', 1_000);
      expect(await first.refresh(lease!, 10_000)).toBe(true);
      await sleep(1_300);
      expect(await second.acquire('sweep', 10_000)).toBeNull();
      expect(await second.refresh(lease!, 10_000)).toBe(true);
    });

    it('refuses to refresh a lease that ran out, was released, or is not the holder', async () => {
      const { first, second } = await open();
      const lapsed = await first.acquire('lapsed', 50);
      await sleep(150);
      expect(await first.refresh(lapsed!, 10_000)).toBe(false);

      const released = await first.acquire('released', 10_000);
      await first.release(released!);
      expect(await first.refresh(released!, 10_000)).toBe(false);

      const held = await first.acquire('held', 10_000);
      const impostor: Lease = { ...held!, owner: 'someone-else' };
      const staleToken: Lease = { ...held!, fencingToken: held!.fencingToken - 1 };
      expect(await second.refresh(impostor, 10_000)).toBe(false);
      expect(await second.refresh(staleToken, 10_000)).toBe(false);
    });

    it('releases only for the lease that holds the lock', async () => {
      const { first, second } = await open();
      const lease = await first.acquire('sweep', 10_000);
      expect(await second.release({ ...lease!, owner: 'someone-else' })).toBe(false);
      expect(await second.release({ ...lease!, fencingToken: lease!.fencingToken + 1 })).toBe(false);
      expect(await second.acquire('sweep', 10_000)).toBeNull();
      expect(await first.release(lease!)).toBe(true);
      expect(await first.release(lease!)).toBe(false);
      const next = await second.acquire('sweep', 10_000);
      expect(next).not.toBeNull();
      expect(await first.release(lease!)).toBe(false);
      expect(await second.acquire('sweep', 10_000)).toBeNull();
    });

    it.skipIf(!implementation.ownClock)(
      'judges expiry by the store clock, not a skewed app clock',
      async () => {
        const { first, second } = await open();
        const lease = await first.acquire('skewed', 10_000);
        vi.useFakeTimers({ toFake: ['Date'] });
        vi.setSystemTime(Date.now() + 24 * 60 * 60 * 1000);
        expect(await second.acquire('skewed', 10_000)).toBeNull();
        expect(await first.refresh(lease!, 10_000)).toBe(true);
      },
    );

    it('refuses a ttl that is not a positive number', async () => {
      const { first } = await open();
      await expect(first.acquire('sweep', 0)).rejects.toThrow(RangeError);
      await expect(first.acquire('sweep', Number.NaN)).rejects.toThrow(RangeError);
    });
  });
}
