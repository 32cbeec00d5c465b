/**
 * Distributed locks on Redis (kind `redis`). The lock is the key `lock:<name>` holding
 * `<owner>:<fencing token>` with a PX expiry; the token comes from the counter `lock-fence:<name>`.
 * Acquisition (INCR the counter, then SET NX PX) runs as one Lua script, so a refused attempt
 * spends no token and nothing can slip in between. Refresh and release compare the stored value
 * before touching the key, so only the current holder can extend or free it.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { onRedis } from './errors.js';
import { redisScript } from './redis-script.js';
import { ttlMilliseconds } from './ttl.js';
import type { Lease, Locks } from './types.js';

/**
 * KEYS: lock, fence counter. ARGV: owner, ttl ms. Returns the fencing token, or nil when held.
 * The counter never goes below the Redis server's clock in milliseconds: Redis may lose its data
 * on a restart, and a counter starting again at 1 would hand out tokens lower than ones already
 * recorded elsewhere. With the floor, tokens keep growing across such a loss.
 */
const acquireScript = redisScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  return false
end
local fence = redis.call('INCR', KEYS[2])
local time = redis.call('TIME')
local floor = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if fence < floor then
  fence = floor
  redis.call('SET', KEYS[2], string.format('%.0f', fence))
end
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. string.format('%.0f', fence), 'PX', ARGV[2])
return fence
`);

/** KEYS: lock. ARGV: expected value, ttl ms. 1 when extended, 0 when the value differs or is gone. */
const refreshScript = redisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`);

/** KEYS: lock. ARGV: expected value. 1 when deleted, 0 when the value differs or is gone. */
const releaseScript = redisScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`);

export class RedisLocks implements Locks {
  readonly kind = 'redis' as const;
  readonly #client: Redis;
  readonly #keyPrefix: string;

  /** `client` is shared (the cache's command connection); closing it is the cache's job. */
  constructor(client: Redis, keyPrefix = '') {
    this.#client = client;
    this.#keyPrefix = keyPrefix;
  }

  async acquire(name: string, ttlMs: number): Promise<Lease | null> {
    const owner = randomUUID();
    const keys = [this.#lockKey(name), `${this.#keyPrefix}lock-fence:${name}`];
    const fence = await onRedis(() => acquireScript.run(this.#client, keys, [owner, ttlMilliseconds(ttlMs)]));
    if (fence === null) return null;
    return { name, owner, fencingToken: Number(fence) };
  }

  async refresh(lease: Lease, ttlMs: number): Promise<boolean> {
    const args = [lockValue(lease), ttlMilliseconds(ttlMs)];
    return (
      Number(await onRedis(() => refreshScript.run(this.#client, [this.#lockKey(lease.name)], args))) === 1
    );
  }

  async release(lease: Lease): Promise<boolean> {
    return (
      Number(
        await onRedis(() => releaseScript.run(this.#client, [this.#lockKey(lease.name)], [lockValue(lease)])),
      ) === 1
    );
  }

  #lockKey(name: string): string {
    return `${this.#keyPrefix}lock:${name}`;
  }
}

function lockValue(lease: Lease): string {
  return `${lease.owner}:${lease.fencingToken}`;
}
