/**
 * Logs a store outage once, not once per call: the first failure warns, later failures stay quiet
 * until a call succeeds again, which is logged as the recovery. For best-effort users of a store
 * (the gateway's circuit breaker, event publication) that carry on without it.
 */
export interface OutageLogger {
  warn(data: object, message: string): void;
  info(data: object, message: string): void;
}

import { type StoreName, unreachableStore } from './store-errors.js';

const silent: OutageLogger = { warn() {}, info() {} };

export class OutageLog {
  #down = false;
  #log: OutageLogger;

  /** `what` names the user and what it does without the store, for the log lines. */
  constructor(
    private readonly what: string,
    log: OutageLogger = silent,
  ) {
    this.#log = log;
  }

  /** For a user built before the app's logger exists (the bus, opened with the stores). */
  useLogger(log: OutageLogger): void {
    this.#log = log;
  }

  get down(): boolean {
    return this.#down;
  }

  failed(error: unknown): void {
    if (this.#down) return;
    this.#down = true;
    this.#log.warn({ err: error }, `${this.what}: the store is unreachable; carrying on without it`);
  }

  succeeded(): void {
    if (!this.#down) return;
    this.#down = false;
    this.#log.info({}, `${this.what}: the store is reachable again`);
  }

  /**
   * Runs a step on `store`; while that store is unreachable, the outage is logged (once) and the
   * answer is `fallback`. Any other failure is rethrown.
   */
  async failOpen<T>(step: () => Promise<T>, fallback: T, store: StoreName = 'cache'): Promise<T> {
    try {
      const result = await step();
      this.succeeded();
      return result;
    } catch (error) {
      if (unreachableStore(error) !== store) throw error;
      this.failed(error);
      return fallback;
    }
  }
}
