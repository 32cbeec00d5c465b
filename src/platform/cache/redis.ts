/**
 * The Redis cache (mode `redis`), shared by every replica: one connection for commands and, from
 * the first subscribe on, a second one in subscriber mode. Every key and channel carries
 * `keyPrefix`, so several deployments (or tests) can share one Redis without seeing each other.
 * Redis holds nothing that cannot be rebuilt; when it is down, calls reject quickly and the
 * connections heal in the background (see redis-connection.ts).
 */
import type { Redis } from 'ioredis';
import { StoreUnreachableError } from '../store-errors.js';
import { onRedis } from './errors.js';
import { RedisConnection, type RedisConnectionOptions } from './redis-connection.js';
import { redisScript } from './redis-script.js';
import { type HandlerErrorReporter, type MessageHandler, SubscriptionRegistry } from './subscriptions.js';
import { incrementAmount, ttlMilliseconds } from './ttl.js';
import type { Cache } from './types.js';

export interface RedisCacheOptions extends RedisConnectionOptions {
  url: string;
  /** Prepended to every key and channel (default none). */
  keyPrefix?: string;
  /** Told about a subscriber handler that threw; the other handlers run regardless. */
  onHandlerError?: HandlerErrorReporter;
}

/** INCRBY, plus a PEXPIRE only when this very call created the key (ARGV[2] empty: no ttl). */
const incrementScript = redisScript(`
local created = redis.call('EXISTS', KEYS[1]) == 0
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if created and ARGV[2] ~= '' then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return value
`);

/** Opens the cache, waiting (boundedly) for the first connection; an unreachable Redis is not fatal. */
export async function openRedisCache(options: RedisCacheOptions): Promise<RedisCache> {
  const cache = new RedisCache(options);
  await cache.connection.firstAttempt(options.connectTimeoutMs ?? 5_000).catch(() => {});
  return cache;
}

export class RedisCache implements Cache {
  readonly mode = 'redis' as const;
  readonly keyPrefix: string;
  /** The command connection; the Redis locks share it. */
  readonly connection: RedisConnection;
  readonly #options: RedisCacheOptions;
  readonly #subscriptions: SubscriptionRegistry;
  /** Per channel: the SUBSCRIBE that made it live on Redis, which later subscribers also await. */
  readonly #channelsLive = new Map<string, Promise<void>>();
  #subscriber: RedisConnection | undefined;
  /** Settles when the subscriber connection's first attempt is decided. */
  #subscriberOpened: Promise<void> | undefined;
  #closed = false;

  constructor(options: RedisCacheOptions) {
    this.#options = options;
    this.keyPrefix = options.keyPrefix ?? '';
    this.connection = new RedisConnection(options.url, options);
    this.#subscriptions = new SubscriptionRegistry(options.onHandlerError);
  }

  get client(): Redis {
    return this.connection.client;
  }

  async get(key: string): Promise<string | null> {
    this.#assertOpen();
    return onRedis(() => this.client.get(this.keyPrefix + key));
  }

  async set(key: string, value: string, options: { ttlMs?: number } = {}): Promise<void> {
    this.#assertOpen();
    const ttl = options.ttlMs === undefined ? undefined : ttlMilliseconds(options.ttlMs);
    await onRedis(() =>
      ttl === undefined
        ? this.client.set(this.keyPrefix + key, value)
        : this.client.set(this.keyPrefix + key, value, 'PX', ttl),
    );
  }

  async del(key: string): Promise<void> {
    this.#assertOpen();
    await onRedis(() => this.client.del(this.keyPrefix + key));
  }

  async incr(key: string, options: { by?: number; ttlMs?: number } = {}): Promise<number> {
    this.#assertOpen();
    const by = incrementAmount(options.by);
    const ttl = options.ttlMs === undefined ? '' : ttlMilliseconds(options.ttlMs);
    return Number(await onRedis(() => incrementScript.run(this.client, [this.keyPrefix + key], [by, ttl])));
  }

  async publish(channel: string, message: string): Promise<void> {
    this.#assertOpen();
    await onRedis(() => this.client.publish(this.keyPrefix + channel, message));
  }

  async subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>> {
    this.#assertOpen();
    const subscription = this.#subscriptions.add(channel, handler);
    let live = this.#channelsLive.get(channel);
    if (!live) {
      live = this.#subscribeOnRedis(channel);
      this.#channelsLive.set(channel, live);
    }
    try {
      await live;
    } catch (error) {
      if (this.#channelsLive.get(channel) === live) this.#channelsLive.delete(channel);
      this.#subscriptions.remove(subscription);
      throw error;
    }
    return async () => {
      if (!this.#subscriptions.remove(subscription)) return;
      this.#channelsLive.delete(channel);
      // Issued before any later SUBSCRIBE of the same channel, so the two cannot swap on the wire.
      // If Redis is down it fails, and the channel is not subscribed again on reconnect (see #resubscribe).
      await this.#subscriber?.client.unsubscribe(this.keyPrefix + channel).catch(() => {});
    };
  }

  async ping(): Promise<void> {
    this.#assertOpen();
    if (!this.connection.ready) {
      throw new StoreUnreachableError('cache', { cause: new Error(this.connection.unavailableReason()) });
    }
    await onRedis(() => this.client.ping());
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#subscriptions.clear();
    this.#channelsLive.clear();
    await Promise.all([this.connection.close(), this.#subscriber?.close()]);
  }

  async #subscribeOnRedis(channel: string): Promise<void> {
    const subscriber = this.#subscriberConnection();
    await this.#subscriberOpened;
    if (!subscriber.ready) {
      throw new StoreUnreachableError('cache', { cause: new Error(subscriber.unavailableReason()) });
    }
    await onRedis(() => subscriber.client.subscribe(this.keyPrefix + channel));
  }

  /** The subscriber connection, opened on first use; later calls share it. */
  #subscriberConnection(): RedisConnection {
    if (this.#subscriber) return this.#subscriber;
    const subscriber = new RedisConnection(this.#options.url, this.#options, { autoResubscribe: false });
    subscriber.client.on('message', (channel: string, message: string) => this.#onMessage(channel, message));
    subscriber.client.on('ready', () => this.#resubscribe(subscriber));
    this.#subscriber = subscriber;
    this.#subscriberOpened = subscriber.firstAttempt(this.#options.connectTimeoutMs ?? 5_000).catch(() => {});
    return subscriber;
  }

  /**
   * After a reconnect, subscribes again to exactly the channels that have handlers now (not to
   * whatever was subscribed before the outage, which may since have been unsubscribed).
   */
  #resubscribe(subscriber: RedisConnection): void {
    const channels = this.#subscriptions.channels().map((channel) => this.keyPrefix + channel);
    if (channels.length > 0) subscriber.client.subscribe(...channels).catch(() => {});
  }

  #onMessage(prefixedChannel: string, message: string): void {
    if (!prefixedChannel.startsWith(this.keyPrefix)) return;
    const channel = prefixedChannel.slice(this.keyPrefix.length);
    this.#subscriptions.deliver(this.#subscriptions.listeners(channel), message);
  }

  #assertOpen(): void {
    if (this.#closed) throw new StoreUnreachableError('cache', { cause: new Error('cache is closed') });
  }
}
