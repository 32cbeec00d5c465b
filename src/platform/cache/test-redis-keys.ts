/** Test helper: removes every Redis key under a cache's prefix, so test runs leave Redis clean. */
import type { RedisCache } from './redis.js';

export async function deleteKeysUnderPrefix(cache: RedisCache): Promise<void> {
  if (!cache.keyPrefix || !cache.connection.ready) return;
  let cursor = '0';
  do {
    const [next, keys] = await cache.client.scan(cursor, 'MATCH', `${cache.keyPrefix}*`, 'COUNT', 500);
    if (keys.length > 0) await cache.client.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
