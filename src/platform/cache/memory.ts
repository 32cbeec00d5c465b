/**
 * The in-process cache (mode `embedded`), used when no Redis is configured: a Map whose entries may
 * expire, and pub/sub between the subscribers of this one process. It serves a single replica only.
 * Expired entries read as absent at once and are purged lazily on access and by a periodic sweep,
 * so keys nobody reads again do not pile up.
 */
import { type HandlerErrorReporter, type MessageHandler, SubscriptionRegistry } from './subscriptions.js';
import { incrementAmount, ttlMilliseconds } from './ttl.js';
import type { Cache } from './types.js';

export interface MemoryCacheOptions {
  /** How often expired entries are purged (default 30 s). */
  sweepIntervalMs?: number;
  /** Told about a subscriber handler that threw; the other handlers run regardless. */
  onHandlerError?: HandlerErrorReporter;
}

interface Entry {
  value: string;
  /** Deadline on the monotonic clock (`performance.now()`); undefined means never. */
  expiresAt: number | undefined;
}

export class MemoryCache implements Cache {
  readonly mode = 'embedded' as const;
  readonly #entries = new Map<string, Entry>();
  readonly #subscriptions: SubscriptionRegistry;
  readonly #sweepTimer: NodeJS.Timeout;
  #closed = false;

  constructor(options: MemoryCacheOptions = {}) {
    this.#subscriptions = new SubscriptionRegistry(options.onHandlerError);
    this.#sweepTimer = setInterval(() => this.#sweepExpired(), options.sweepIntervalMs ?? 30_000);
    this.#sweepTimer.unref();
  }

  /** Entries held in memory, expired ones not yet purged included (for tests and metrics). */
  get storedEntryCount(): number {
    return this.#entries.size;
  }

  async get(key: string): Promise<string | null> {
    this.#assertOpen();
    return this.#live(key)?.value ?? null;
  }

  async set(key: string, value: string, options: { ttlMs?: number } = {}): Promise<void> {
    this.#assertOpen();
    const expiresAt = options.ttlMs === undefined ? undefined : deadline(options.ttlMs);
    this.#entries.set(key, { value, expiresAt });
  }

  async del(key: string): Promise<void> {
    this.#assertOpen();
    this.#entries.delete(key);
  }

  async incr(key: string, options: { by?: number; ttlMs?: number } = {}): Promise<number> {
    this.#assertOpen();
    const by = incrementAmount(options.by);
    const entry = this.#live(key);
    if (!entry) {
      const expiresAt = options.ttlMs === undefined ? undefined : deadline(options.ttlMs);
      this.#entries.set(key, { value: String(by), expiresAt });
      return by;
    }
    const current = Number(entry.value);
    if (!/^-?\d+$/.test(entry.value) || !Number.isSafeInteger(current + by)) {
      throw new Error(`value of ${key} is not an integer or is out of range`);
    }
    entry.value = String(current + by);
    return current + by;
  }

  async publish(channel: string, message: string): Promise<void> {
    this.#assertOpen();
    const listeners = this.#subscriptions.listeners(channel);
    if (listeners.length === 0) return;
    setImmediate(() => this.#subscriptions.deliver(listeners, message));
  }

  async subscribe(channel: string, handler: MessageHandler): Promise<() => Promise<void>> {
    this.#assertOpen();
    const subscription = this.#subscriptions.add(channel, handler);
    return async () => {
      this.#subscriptions.remove(subscription);
    };
  }

  async ping(): Promise<void> {
    this.#assertOpen();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#sweepTimer);
    this.#subscriptions.clear();
    this.#entries.clear();
  }

  /** The entry under `key` unless it expired (an expired one is purged on the way). */
  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && isExpired(entry, performance.now())) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #sweepExpired(): void {
    const now = performance.now();
    for (const [key, entry] of this.#entries) {
      if (isExpired(entry, now)) this.#entries.delete(key);
    }
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('cache is closed');
  }
}

function deadline(ttlMs: number): number {
  return performance.now() + ttlMilliseconds(ttlMs);
}

function isExpired(entry: Entry, now: number): boolean {
  return entry.expiresAt !== undefined && entry.expiresAt <= now;
}
