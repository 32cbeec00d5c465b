import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestDatabase, testRedisUrl } from '../../../test/support/stores.js';
import { MemoryCache } from '../cache/memory.js';
import { openRedisCache } from '../cache/redis.js';
import type { Cache } from '../cache/types.js';
import { queryRows } from '../db/client.js';
import { inTransaction } from './after-commit.js';
import { EventBus } from './event-bus.js';
import type { BusEvent } from './types.js';

declare module './types.js' {
  interface EventMap {
    TEST_PING: { n: number };
    TEST_OTHER: { note: string };
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startBus(cache: Cache): Promise<EventBus> {
  const bus = new EventBus({ cache, now: () => new Date('2026-03-01T10:00:00Z') });
  await bus.start();
  cleanups.push(() => bus.stop());
  return bus;
}

function collect(bus: EventBus, type: 'TEST_PING' | '*') {
  const seen: BusEvent[] = [];
  bus.subscribe(type as 'TEST_PING', (event) => {
    seen.push(event);
  });
  return seen;
}

const settle = async (predicate: () => boolean, timeoutMs = 3000) => {
  const deadline = Date.now() + timeoutMs;
  while (!predicate() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
};

describe('event bus (in-process cache)', () => {
  it('delivers typed events with id, timestamp and correlation id to type and wildcard subscribers', async () => {
    const cache = new MemoryCache();
    cleanups.push(() => cache.close());
    const bus = await startBus(cache);
    const pings = collect(bus, 'TEST_PING');
    const everything = collect(bus, '*');

    await bus.publish('TEST_PING', { n: 1 }, { correlationId: 'req-7' });
    await bus.publish('TEST_OTHER', { note: 'x' });
    await settle(() => everything.length === 2);

    expect(pings).toEqual([
      {
        id: expect.any(String),
        type: 'TEST_PING',
        data: { n: 1 },
        timestamp: '2026-03-01T10:00:00.000Z',
        correlation_id: 'req-7',
      },
    ]);
    expect(everything.map((e) => e.type)).toEqual(['TEST_PING', 'TEST_OTHER']);
  });

  it('keeps delivering to the others when one subscriber throws, and stops after unsubscribe', async () => {
    const cache = new MemoryCache();
    cleanups.push(() => cache.close());
    const errors: unknown[] = [];
    const bus = new EventBus({ cache, onHandlerError: (error) => errors.push(error) });
    await bus.start();
    cleanups.push(() => bus.stop());
    bus.subscribe('TEST_PING', () => {
      throw new Error('subscriber bug');
    });
    const seen: number[] = [];
    const unsubscribe = bus.subscribe('TEST_PING', (event) => {
      seen.push(event.data.n);
    });

    await bus.publish('TEST_PING', { n: 1 });
    await settle(() => seen.length === 1 && errors.length === 1);
    unsubscribe();
    await bus.publish('TEST_PING', { n: 2 });
    await settle(() => errors.length === 2);

    expect(seen).toEqual([1]);
    expect((errors[0] as Error).message).toBe('subscriber bug');
  });
});

describe.skipIf(!testRedisUrl)('event bus across replicas (Redis)', () => {
  it('an event published on one replica reaches the subscribers of every replica exactly once', async () => {
    const keyPrefix = `gaffer-test:${randomBytes(6).toString('hex')}:`;
    const caches = await Promise.all([1, 2].map(() => openRedisCache({ url: testRedisUrl!, keyPrefix })));
    cleanups.push(async () => {
      for (const cache of caches) await cache.close();
    });
    const [one, two] = await Promise.all(caches.map((cache) => startBus(cache)));
    const onOne = collect(one!, 'TEST_PING');
    const onTwo = collect(two!, 'TEST_PING');

    await one!.publish('TEST_PING', { n: 42 });
    await settle(() => onOne.length >= 1 && onTwo.length >= 1);
    await new Promise((r) => setTimeout(r, 100)); // room for a duplicate to show up

    expect(onOne.map((e) => e.data)).toEqual([{ n: 42 }]);
    expect(onTwo.map((e) => e.data)).toEqual([{ n: 42 }]);
    expect(onTwo[0]!.id).toBe(onOne[0]!.id);
  });
});

describe('publishing after commit', () => {
  it('delivers events only once the transaction has committed, and none for a rollback', async () => {
    const database = await openTestDatabase();
    cleanups.push(() => database.close());
    const cache = new MemoryCache();
    cleanups.push(() => cache.close());
    const bus = await startBus(cache);
    const rowsSeenByHandler: number[] = [];
    bus.subscribe('TEST_PING', async (event) => {
      const rows = await queryRows<{ key: string }>(
        database.db,
        sql`select key from settings where key = ${`bus-${event.data.n}`}`,
      );
      rowsSeenByHandler.push(rows.length);
    });

    await inTransaction(database.db, bus, async (tx, events) => {
      await tx.execute(sql`insert into settings (key, value) values ('bus-1', '1'::jsonb)`);
      events.add('TEST_PING', { n: 1 });
    });
    await expect(
      inTransaction(database.db, bus, async (tx, events) => {
        await tx.execute(sql`insert into settings (key, value) values ('bus-2', '2'::jsonb)`);
        events.add('TEST_PING', { n: 2 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await settle(() => rowsSeenByHandler.length >= 1);
    await new Promise((r) => setTimeout(r, 100));

    expect(rowsSeenByHandler).toEqual([1]); // one delivery, and the committed row was already visible
    const rolledBack = await queryRows(database.db, sql`select key from settings where key = 'bus-2'`);
    expect(rolledBack).toEqual([]);
  });
});
