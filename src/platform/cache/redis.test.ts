/**
 * What only the Redis cache does: isolation by key prefix, fan-out between instances (replicas),
 * and failing fast, then healing, when Redis is unreachable. The outage is simulated with a TCP
 * relay in front of the real Redis that the test stops and starts again.
 */
import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLOSED_PORT } from '../../../test/support/closed-port.js';
import { StoreUnreachableError } from '../store-errors.js';
import { openRedisCache, type RedisCache, type RedisCacheOptions } from './redis.js';
import { deleteKeysUnderPrefix } from './test-redis-keys.js';

const redisUrl = process.env.GAFFER_TEST_REDIS_URL || undefined;
const newPrefix = () => `gaffer-test:${randomBytes(6).toString('hex')}:`;

const opened: RedisCache[] = [];
async function open(options: Partial<RedisCacheOptions> & { url: string }): Promise<RedisCache> {
  const cache = await openRedisCache(options);
  opened.push(cache);
  return cache;
}

afterEach(async () => {
  await Promise.all(
    opened.splice(0).map(async (cache) => {
      await deleteKeysUnderPrefix(cache).catch(() => {});
      await cache.close();
    }),
  );
});

describe('redis cache when Redis is unreachable', () => {
  it('opens anyway, then rejects ping and commands quickly, with no unhandled error', async () => {
    const started = performance.now();
    const cache = await open({ url: `redis://127.0.0.1:${CLOSED_PORT}`, keyPrefix: newPrefix() });
    const failure = await cache.ping().catch((error: unknown) => error);
    expect(failure).toMatchObject({ name: 'StoreUnreachableError', store: 'cache' });
    expect((failure as Error).cause).toMatchObject({
      message: expect.stringMatching(/redis is not connected/),
    });
    // Every call fails the same recognisable way, so HTTP answers 503 store_unavailable.
    for (const call of [cache.get('k'), cache.incr('k'), cache.subscribe('news', () => {})]) {
      await expect(call).rejects.toBeInstanceOf(StoreUnreachableError);
    }
    expect(performance.now() - started).toBeLessThan(3_000);
    await cache.close();
  });

  it('does not hang on a server that accepts connections but never answers', async () => {
    const accepted = new Set<Socket>();
    const silent = createServer((socket) => {
      accepted.add(socket);
      socket.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const started = performance.now();
      const cache = await open({
        url: `redis://127.0.0.1:${port}`,
        connectTimeoutMs: 300,
        commandTimeoutMs: 300,
      });
      await expect(cache.ping()).rejects.toThrow();
      await expect(cache.get('k')).rejects.toThrow();
      expect(performance.now() - started).toBeLessThan(3_000);
      await cache.close();
    } finally {
      for (const socket of accepted) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe.skipIf(!redisUrl)('redis cache shared by several instances', () => {
  it('stores keys under its prefix only', async () => {
    const prefix = newPrefix();
    const cache = await open({ url: redisUrl!, keyPrefix: prefix });
    await cache.set('k', 'v');
    await cache.incr('n', { by: 3 });
    expect(await cache.client.get(`${prefix}k`)).toBe('v');
    expect(await cache.client.get(`${prefix}n`)).toBe('3');
  });

  it('keeps caches with different prefixes apart, keys and channels alike', async () => {
    const one = await open({ url: redisUrl!, keyPrefix: newPrefix() });
    const two = await open({ url: redisUrl!, keyPrefix: newPrefix() });
    await one.set('k', 'one');
    expect(await two.get('k')).toBeNull();
    expect(await one.incr('n')).toBe(1);
    expect(await two.incr('n')).toBe(1);
    const heardByTwo: string[] = [];
    const heardByOne: string[] = [];
    await two.subscribe('news', (message) => heardByTwo.push(message));
    await one.subscribe('news', (message) => heardByOne.push(message));
    await one.publish('news', 'for one');
    await vi.waitFor(() => expect(heardByOne).toEqual(['for one']));
    await two.publish('news', 'for two');
    await vi.waitFor(() => expect(heardByTwo).toEqual(['for two']));
  });

  it('delivers a message published on one instance to subscribers of another', async () => {
    const prefix = newPrefix();
    const publisher = await open({ url: redisUrl!, keyPrefix: prefix });
    const subscriber = await open({ url: redisUrl!, keyPrefix: prefix });
    const received: string[] = [];
    await subscriber.subscribe('fan-out', (message) => received.push(message));
    await publisher.publish('fan-out', 'hello replicas');
    await vi.waitFor(() => expect(received).toEqual(['hello replicas']));
    expect(await subscriber.incr('shared')).toBe(1);
    expect(await publisher.incr('shared')).toBe(2);
  });
});

describe.skipIf(!redisUrl)('redis cache through an outage', () => {
  it('goes unready while Redis is away and recovers, subscriptions included', async () => {
    const target = new URL(redisUrl!);
    const relay = new TcpRelay(target.hostname, Number(target.port || 6379));
    const port = await relay.start(0);
    const prefix = newPrefix();
    const viaRelay = await open({ url: `redis://127.0.0.1:${port}`, keyPrefix: prefix });
    const direct = await open({ url: redisUrl!, keyPrefix: prefix });
    const received: string[] = [];
    await viaRelay.subscribe('news', (message) => received.push(message));
    await viaRelay.ping();

    await relay.stop();
    await vi.waitFor(() => expect(viaRelay.ping()).rejects.toThrow(), { timeout: 3_000, interval: 50 });
    await expect(viaRelay.set('k', 'v')).rejects.toThrow();

    await relay.start(port);
    await vi.waitFor(() => viaRelay.ping(), { timeout: 10_000, interval: 100 });
    await viaRelay.set('k', 'v');
    expect(await direct.get('k')).toBe('v');
    await vi.waitFor(
      async () => {
        await direct.publish('news', 'after the outage');
        expect(received).toContain('after the outage');
      },
      { timeout: 5_000, interval: 100 },
    );
    await relay.stop();
  });
});

/** Forwards TCP connections to Redis; `stop` cuts every connection, as a Redis restart would. */
class TcpRelay {
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  async start(listenPort: number): Promise<number> {
    const server = createServer((client) => {
      const upstream = connect(this.port, this.host);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}
