/**
 * The cache module's outside face: the `Cache` and `Locks` interfaces, and `openStores`, which
 * picks the implementations. With a Redis URL both live on Redis (shared by every replica);
 * without one the cache is in-process and locks are Postgres leases in the main database.
 */
import type { Database } from '../db/client.js';
import { PostgresLocks } from './locks-postgres.js';
import { RedisLocks } from './locks-redis.js';
import { MemoryCache } from './memory.js';
import { openRedisCache } from './redis.js';
import type { Cache, Locks } from './types.js';

export type { Cache, Lease, Locks } from './types.js';

export interface StoresOptions {
  redisUrl?: string | undefined;
  /** Prefix for every Redis key and channel (ignored without Redis). */
  keyPrefix?: string;
  database: Database;
}

/** The caller closes `cache` (which also ends the Redis connection the Redis locks use). */
export async function openStores(options: StoresOptions): Promise<{ cache: Cache; locks: Locks }> {
  if (options.redisUrl) {
    const cache = await openRedisCache({ url: options.redisUrl, keyPrefix: options.keyPrefix ?? '' });
    return { cache, locks: new RedisLocks(cache.client, cache.keyPrefix) };
  }
  return { cache: new MemoryCache(), locks: new PostgresLocks(options.database.db) };
}
