/** Bans on Redis, shared by every replica: `guard:ban:<address>` (JSON, expiring) and the `guard:bans` index. */
import type { RedisCache } from '../../cache/redis.js';
import type { Ban, BanStore } from './ban-store.js';

export class RedisBanStore implements BanStore {
  readonly kind = 'redis' as const;
  readonly #cache: Pick<RedisCache, 'client' | 'keyPrefix'>;

  constructor(cache: Pick<RedisCache, 'client' | 'keyPrefix'>) {
    this.#cache = cache;
  }

  get #index() {
    return `${this.#cache.keyPrefix}guard:bans`;
  }

  #key(address: string) {
    return `${this.#cache.keyPrefix}guard:ban:${address}`;
  }

  async find(address: string): Promise<Ban | null> {
    const raw = await this.#cache.client.get(this.#key(address));
    return raw ? (JSON.parse(raw) as Ban) : null;
  }

  async add(ban: Ban): Promise<void> {
    const expiresMs = Date.parse(ban.expires_at);
    const ttlMs = expiresMs - Date.now();
    if (ttlMs <= 0) return;
    await this.#cache.client
      .multi()
      .set(this.#key(ban.address), JSON.stringify(ban), 'PX', ttlMs)
      .zadd(this.#index, expiresMs, ban.address)
      .exec();
  }

  async list(now: Date): Promise<Ban[]> {
    const client = this.#cache.client;
    await client.zremrangebyscore(this.#index, '-inf', now.getTime());
    const addresses = await client.zrange(this.#index, 0, -1);
    if (addresses.length === 0) return [];
    const values = await client.mget(...addresses.map((address) => this.#key(address)));
    return values.filter((raw): raw is string => raw !== null).map((raw) => JSON.parse(raw) as Ban);
  }

  async lift(address: string): Promise<boolean> {
    const [[, deleted] = [null, 0]] = (await this.#cache.client
      .multi()
      .del(this.#key(address))
      .zrem(this.#index, address)
      .exec()) ?? [[null, 0]];
    return Number(deleted) > 0;
  }
}
