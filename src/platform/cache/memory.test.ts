/** What only the in-process cache does: purge expired entries that nobody reads again. */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryCache } from './memory.js';

describe('memory cache housekeeping', () => {
  let cache: MemoryCache | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await cache?.close();
  });
  // The clock is the subject: the sweep's timer and the monotonic clock expiry is read on are faked,
  // so a slow moment of the machine cannot sweep before the test looks.
  const fakeClock = () =>
    vi.useFakeTimers({
      toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'performance'],
    });

  it('sweeps expired entries out of memory without anyone reading them', async () => {
    fakeClock();
    cache = new MemoryCache({ sweepIntervalMs: 40 });
    for (let index = 0; index < 50; index++) await cache.set(`short-${index}`, 'v', { ttlMs: 20 });
    await cache.set('kept', 'v');
    expect(cache.storedEntryCount).toBe(51);
    vi.advanceTimersByTime(30); // expired, but not swept yet
    expect(cache.storedEntryCount).toBe(51);
    vi.advanceTimersByTime(10);
    expect(cache.storedEntryCount).toBe(1);
  });

  it('purges an expired entry when it is read', async () => {
    fakeClock();
    cache = new MemoryCache({ sweepIntervalMs: 60_000 });
    await cache.set('short', 'v', { ttlMs: 20 });
    vi.advanceTimersByTime(60);
    expect(cache.storedEntryCount).toBe(1);
    expect(await cache.get('short')).toBeNull();
    expect(cache.storedEntryCount).toBe(0);
  });

  it('drops subscribers on close, even for a message already published', async () => {
    cache = new MemoryCache();
    const received: string[] = [];
    await cache.subscribe('news', (message) => received.push(message));
    await cache.publish('news', 'late');
    await cache.close();
    await sleep(20);
    expect(received).toEqual([]);
  });
});
