import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openRedisCache, type RedisCache } from '../../cache/redis.js';
import { deleteKeysUnderPrefix } from '../../cache/test-redis-keys.js';
import { type Ban, type BanStore, MemoryBanStore } from './ban-store.js';
import { RedisBanStore } from './ban-store-redis.js';

const redisUrl = process.env.GAFFER_TEST_REDIS_URL || undefined;
const caches: RedisCache[] = [];
afterAll(async () => {
  for (const cache of caches) {
    await deleteKeysUnderPrefix(cache);
    await cache.close();
  }
});

const ban = (address: string, now: Date, seconds: number): Ban => ({
  address,
  reason: '5 blocked requests within 300 s (last: sql_injection)',
  banned_at: now.toISOString(),
  expires_at: new Date(now.getTime() + seconds * 1000).toISOString(),
});

async function redisStore(prefix: string): Promise<RedisBanStore> {
  const cache = await openRedisCache({ url: redisUrl!, keyPrefix: prefix });
  caches.push(cache);
  return new RedisBanStore(cache);
}

const kinds: [string, () => Promise<BanStore>][] = [['memory', async () => new MemoryBanStore()]];
if (redisUrl) kinds.push(['redis', () => redisStore(`gaffer-test:${randomBytes(6).toString('hex')}:`)]);

describe.each(kinds)('the %s ban store', (_kind, open) => {
  it('finds, lists and lifts a ban', async () => {
    const store = await open();
    const now = new Date();
    await store.add(ban('203.0.113.7', now, 600));
    await store.add(ban('2001:db8::7', now, 60));
    expect((await store.find('203.0.113.7', now))?.reason).toMatch(/sql_injection/);
    expect(await store.find('203.0.113.8', now)).toBeNull();
    expect((await store.list(now)).map((b) => b.address)).toEqual(['2001:db8::7', '203.0.113.7']);
    expect(await store.lift('203.0.113.7', now)).toBe(true);
    expect(await store.lift('203.0.113.7', now)).toBe(false);
    expect(await store.find('203.0.113.7', now)).toBeNull();
    expect((await store.list(now)).map((b) => b.address)).toEqual(['2001:db8::7']);
  });
});

describe('ban expiry', () => {
  it('drops a ban from memory once it has expired', async () => {
    const store = new MemoryBanStore();
    const now = new Date();
    await store.add(ban('203.0.113.9', now, 10));
    const later = new Date(now.getTime() + 11_000);
    expect(await store.find('203.0.113.9', later)).toBeNull();
    expect(await store.list(later)).toEqual([]);
  });

  it.skipIf(!redisUrl)('does not keep a ban that has already ended', async () => {
    const store = await redisStore(`gaffer-test:${randomBytes(6).toString('hex')}:`);
    const past = new Date(Date.now() - 10_000);
    // A ban that ended a second ago is neither found nor listed.
    await store.add(ban('203.0.113.10', past, 9));
    expect(await store.find('203.0.113.10')).toBeNull();
    expect(await store.list(new Date())).toEqual([]);
  });

  it.skipIf(!redisUrl)('is shared by two connections on one Redis (two replicas)', async () => {
    const prefix = `gaffer-test:${randomBytes(6).toString('hex')}:`;
    const [a, b] = [await redisStore(prefix), await redisStore(prefix)];
    const now = new Date();
    await a.add(ban('203.0.113.11', now, 600));
    expect((await b.find('203.0.113.11'))?.address).toBe('203.0.113.11');
    expect(await b.lift('203.0.113.11')).toBe(true);
    expect(await a.find('203.0.113.11')).toBeNull();
  });
});
