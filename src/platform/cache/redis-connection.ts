/**
 * Redis connections that fail fast and heal on their own. A command sent while Redis is unreachable
 * rejects at once (no offline queue) or after `commandTimeoutMs` (a connection that hangs), never
 * waits forever; a command in flight when the connection drops is failed, not replayed (an INCR
 * must not count twice). In the background the client keeps reconnecting, so when Redis is back
 * everything — including the /ready probe's ping — works again. Connection errors are recorded
 * for the next failure message instead of being emitted unhandled.
 */
import { Redis, type RedisOptions } from 'ioredis';

export interface RedisConnectionOptions {
  /** Bound on opening a TCP (or TLS) connection (default 5 s). */
  connectTimeoutMs?: number;
  /** Bound on any command, PING included (default 2 s). */
  commandTimeoutMs?: number;
}

const MAX_RECONNECT_DELAY_MS = 2_000;

export class RedisConnection {
  readonly client: Redis;
  #lastError: Error | undefined;

  constructor(url: string, options: RedisConnectionOptions = {}, overrides: RedisOptions = {}) {
    this.client = new Redis(url, {
      connectTimeout: options.connectTimeoutMs ?? 5_000,
      commandTimeout: options.commandTimeoutMs ?? 2_000,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
      ...overrides,
    });
    this.client.on('error', (error: Error) => {
      this.#lastError = error;
    });
    this.client.on('ready', () => {
      this.#lastError = undefined;
    });
  }

  get ready(): boolean {
    return this.client.status === 'ready';
  }

  /** Why commands fail right now, for error messages (e.g. the /ready payload). */
  unavailableReason(): string {
    const cause = this.#lastError?.message;
    return `redis is not connected (${this.client.status})${cause ? `: ${cause}` : ''}`;
  }

  /**
   * Settles once the first connection attempt is decided: resolves when ready, rejects on an error
   * or after `timeoutMs`. The client keeps reconnecting either way.
   */
  firstAttempt(timeoutMs: number): Promise<void> {
    if (this.ready) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const settle = (error?: Error) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        this.client.off('error', onError);
        if (error) reject(error);
        else resolve();
      };
      const onReady = () => settle();
      const onError = (error: Error) => settle(error);
      const timer = setTimeout(() => settle(new Error(this.unavailableReason())), timeoutMs);
      this.client.once('ready', onReady);
      this.client.once('error', onError);
    });
  }

  /** QUIT when connected (pending replies arrive first), else drop the socket and stop reconnecting. */
  async close(): Promise<void> {
    if (this.client.status === 'end') return;
    if (this.ready) {
      try {
        await this.client.quit();
        return;
      } catch {
        // fall through: the connection is unusable anyway
      }
    }
    this.client.disconnect(false);
  }
}
