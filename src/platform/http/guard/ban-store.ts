/**
 * Where bans live. With Redis every replica reads and writes the same bans (a key per address with
 * its expiry, plus a sorted set that lists them); without Redis they live in this process (a single
 * replica, like the in-process cache), and a restart clears them.
 */
import type { Cache } from '../../cache/index.js';
import type { RedisCache } from '../../cache/redis.js';
import { RedisBanStore } from './ban-store-redis.js';

export interface Ban {
  address: string;
  reason: string;
  banned_at: string;
  expires_at: string;
}

export interface BanStore {
  readonly kind: 'redis' | 'memory';
  /** The ban in force on `address`, or null; the in-process store answers at once (no promise). */
  find(address: string, now: Date): Ban | null | Promise<Ban | null>;
  add(ban: Ban): Promise<void>;
  /** Bans in force, soonest expiry first. */
  list(now: Date): Promise<Ban[]>;
  /** Lifts the ban on `address`; false when there was none. */
  lift(address: string, now: Date): Promise<boolean>;
}

export class MemoryBanStore implements BanStore {
  readonly kind = 'memory' as const;
  readonly #bans = new Map<string, Ban>();

  find(address: string, now: Date): Ban | null {
    const ban = this.#bans.get(address);
    if (!ban) return null;
    if (Date.parse(ban.expires_at) <= now.getTime()) {
      this.#bans.delete(address);
      return null;
    }
    return ban;
  }

  async add(ban: Ban): Promise<void> {
    this.#bans.set(ban.address, ban);
  }

  async list(now: Date): Promise<Ban[]> {
    const live: Ban[] = [];
    for (const ban of this.#bans.values()) if (this.find(ban.address, now)) live.push(ban);
    return live.sort((a, b) => a.expires_at.localeCompare(b.expires_at));
  }

  async lift(address: string, now: Date): Promise<boolean> {
    const existed = this.find(address, now) !== null;
    this.#bans.delete(address);
    return existed;
  }
}

/** The ban store that matches the cache: shared on Redis, in-process otherwise. */
export function banStoreFor(cache: Cache): BanStore {
  const redis = redisOf(cache);
  return redis ? new RedisBanStore(redis) : new MemoryBanStore();
}

/** The Redis connection and key prefix behind a Redis cache; null for the in-process cache. */
export function redisOf(cache: Cache): Pick<RedisCache, 'client' | 'keyPrefix'> | null {
  if (cache.mode !== 'redis' || !('client' in cache) || !('keyPrefix' in cache)) return null;
  return cache as unknown as Pick<RedisCache, 'client' | 'keyPrefix'>;
}
