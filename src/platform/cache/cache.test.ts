/**
 * The behaviour every `Cache` must have, run against each implementation available here: the
 * in-process cache always, Redis when GAFFER_TEST_REDIS_URL is set (each test under a key prefix
 * of its own, so runs never collide).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryCache } from './memory.js';
import { openRedisCache, RedisCache } from './redis.js';
import type { HandlerErrorReporter } from './subscriptions.js';
import { deleteKeysUnderPrefix } from './test-redis-keys.js';
import type { Cache } from './types.js';

const redisUrl = process.env.GAFFER_TEST_REDIS_URL || undefined;

interface CacheImplementation {
  name: string;
  available: boolean;
  open(onHandlerError?: HandlerErrorReporter): Promise<Cache>;
}

const implementations: CacheImplementation[] = [
  { name: 'memory', available: true, open: async (onHandlerError) => new MemoryCache({ onHandlerError }) },
  {
    name: 'redis',
    available: redisUrl !== undefined,
    open: (onHandlerError) =>
      openRedisCache({
        url: redisUrl!,
        keyPrefix: `gaffer-test:${randomBytes(6).toString('hex')}:`,
        onHandlerError,
      }),
  },
];

for (const implementation of implementations) {
  describe.skipIf(!implementation.available)(`${implementation.name} cache`, () => {
    const opened: Cache[] = [];
    const open = async (onHandlerError?: HandlerErrorReporter) => {
      const cache = await implementation.open(onHandlerError);
      opened.push(cache);
      return cache;
    };

    afterEach(async () => {
      await Promise.all(
        opened.splice(0).map(async (cache) => {
          if (cache instanceof RedisCache) await deleteKeysUnderPrefix(cache).catch(() => {});
          await cache.close();
        }),
      );
    });

    it('reports its mode', async () => {
      const cache = await open();
      expect(cache.mode).toBe(implementation.name === 'redis' ? 'redis' : 'embedded');
    });

    it('gets, sets, overwrites and deletes', async () => {
      const cache = await open();
      expect(await cache.get('k')).toBeNull();
      await cache.set('k', 'one');
      expect(await cache.get('k')).toBe('one');
      await cache.set('k', 'two');
      expect(await cache.get('k')).toBe('two');
      await cache.del('k');
      expect(await cache.get('k')).toBeNull();
      await cache.del('never-set');
    });

    it('forgets a value once its ttl has passed', async () => {
      const cache = await open();
      // Long enough that a loaded machine reads it back before it lapses (Redis keeps real time).
      await cache.set('short', 'v', { ttlMs: 1_000 });
      await cache.set('long', 'v', { ttlMs: 60_000 });
      expect(await cache.get('short')).toBe('v');
      await sleep(1_300);
      expect(await cache.get('short')).toBeNull();
      expect(await cache.get('long')).toBe('v');
    });

    it('drops the ttl when a key is set again without one', async () => {
      const cache = await open();
      await cache.set('k', 'first', { ttlMs: 100 });
      await cache.set('k', 'second');
      await sleep(250);
      expect(await cache.get('k')).toBe('second');
    });

    it('refuses a ttl that is not a positive number', async () => {
      const cache = await open();
      await expect(cache.set('k', 'v', { ttlMs: 0 })).rejects.toThrow(RangeError);
      await expect(cache.incr('k', { ttlMs: -5 })).rejects.toThrow(RangeError);
      await expect(cache.incr('k', { by: 1.5 })).rejects.toThrow(RangeError);
    });

    it('increments by one by default, or by any integer', async () => {
      const cache = await open();
      expect(await cache.incr('n')).toBe(1);
      expect(await cache.incr('n')).toBe(2);
      expect(await cache.incr('n', { by: 10 })).toBe(12);
      expect(await cache.incr('n', { by: -20 })).toBe(-8);
      expect(await cache.get('n')).toBe('-8');
      await cache.set('m', '41');
      expect(await cache.incr('m')).toBe(42);
    });

    it('increments atomically under 100 concurrent calls', async () => {
      const cache = await open();
      const results = await Promise.all(
        Array.from({ length: 100 }, () => cache.incr('hits', { ttlMs: 60_000 })),
      );
      expect(new Set(results).size).toBe(100);
      expect(Math.max(...results)).toBe(100);
      expect(await cache.get('hits')).toBe('100');
    });

    it('applies the increment ttl only when the key is created', async () => {
      const cache = await open();
      expect(await cache.incr('window', { ttlMs: 1_000 })).toBe(1);
      expect(await cache.incr('window', { ttlMs: 60_000 })).toBe(2);
      await cache.set('forever', '5');
      expect(await cache.incr('forever', { ttlMs: 100 })).toBe(6);
      await sleep(1_300);
      expect(await cache.get('window')).toBeNull();
      expect(await cache.get('forever')).toBe('6');
      expect(await cache.incr('window', { ttlMs: 60_000 })).toBe(1);
    });

    it('refuses to increment a value that is not an integer', async () => {
      const cache = await open();
      await cache.set('word', 'hello');
      await expect(cache.incr('word')).rejects.toThrow();
      expect(await cache.get('word')).toBe('hello');
    });

    it('delivers published messages to every subscriber of the channel, in order', async () => {
      const cache = await open();
      const first: string[] = [];
      const second: string[] = [];
      const elsewhere: string[] = [];
      await cache.subscribe('news', (message) => first.push(message));
      await cache.subscribe('news', (message) => second.push(message));
      await cache.subscribe('other', (message) => elsewhere.push(message));
      await cache.publish('news', 'a');
      await cache.publish('news', 'b');
      await vi.waitFor(() => expect(second).toEqual(['a', 'b']));
      expect(first).toEqual(['a', 'b']);
      expect(elsewhere).toEqual([]);
    });

    it('calls handlers only after publish has returned', async () => {
      const cache = await open();
      const received: string[] = [];
      await cache.subscribe('news', (message) => received.push(message));
      const publishing = cache.publish('news', 'a');
      expect(received).toEqual([]);
      await publishing;
      await vi.waitFor(() => expect(received).toEqual(['a']));
    });

    it('stops delivering to a handler once it unsubscribed, and only to that one', async () => {
      const cache = await open();
      const gone: string[] = [];
      const staying: string[] = [];
      const unsubscribe = await cache.subscribe('news', (message) => gone.push(message));
      await cache.subscribe('news', (message) => staying.push(message));
      await cache.publish('news', 'before');
      await vi.waitFor(() => expect(gone).toEqual(['before']));
      await unsubscribe();
      await unsubscribe();
      await cache.publish('news', 'after');
      await vi.waitFor(() => expect(staying).toEqual(['before', 'after']));
      expect(gone).toEqual(['before']);
    });

    it('does not deliver on a channel whose last subscriber left', async () => {
      const cache = await open();
      const gone: string[] = [];
      const marker: string[] = [];
      const unsubscribe = await cache.subscribe('news', (message) => gone.push(message));
      await cache.subscribe('marker', (message) => marker.push(message));
      await unsubscribe();
      await cache.publish('news', 'lost');
      await cache.publish('marker', 'done');
      await vi.waitFor(() => expect(marker).toEqual(['done']));
      expect(gone).toEqual([]);
      const again: string[] = [];
      await cache.subscribe('news', (message) => again.push(message));
      await cache.publish('news', 'back');
      await vi.waitFor(() => expect(again).toEqual(['back']));
    });

    it('treats the same handler subscribed twice as two subscriptions', async () => {
      const cache = await open();
      const received: string[] = [];
      const handler = (message: string) => received.push(message);
      const unsubscribeFirst = await cache.subscribe('news', handler);
      await cache.subscribe('news', handler);
      await unsubscribeFirst();
      await cache.publish('news', 'x');
      await vi.waitFor(() => expect(received).toEqual(['x']));
    });

    it('keeps delivering to other handlers when one throws, and reports the error', async () => {
      const reported: unknown[] = [];
      const cache = await open((error, channel) => reported.push([(error as Error).message, channel]));
      const received: string[] = [];
      await cache.subscribe('news', () => {
        throw new Error('handler broke');
      });
      await cache.subscribe('news', (message) => received.push(message));
      await cache.publish('news', 'one');
      await cache.publish('news', 'two');
      await vi.waitFor(() => expect(received).toEqual(['one', 'two']));
      expect(reported).toEqual([
        ['handler broke', 'news'],
        ['handler broke', 'news'],
      ]);
    });

    it('answers ping while open and refuses everything once closed', async () => {
      const cache = await open();
      await cache.ping();
      await cache.close();
      await cache.close();
      await expect(cache.ping()).rejects.toThrow();
      await expect(cache.get('k')).rejects.toThrow();
      await expect(cache.publish('news', 'x')).rejects.toThrow();
    });
  });
}
