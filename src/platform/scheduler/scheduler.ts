/**
 * The scheduler: runs every registered loop one interval after start (unless told otherwise) and
 * then once per interval, one replica at a time. A pass:
 *   1. asks the loop's `hold` (a failing hold check counts as a hold: fail closed);
 *   2. takes the loop's lease (`scheduler:<name>`) — busy when another pass runs anywhere;
 *   3. claims the interval's tick in the shared run record — busy when another replica already
 *      ran this interval (run-now skips this step);
 *   4. runs with an AbortSignal while a watchdog refreshes the lease and re-asks the hold, aborting
 *      the pass when the lease is lost or the hold interrupts;
 *   5. records success or failure; errors are logged and swallowed, the loop goes on.
 */
import type { Locks } from '../cache/types.js';
import type { Db } from '../db/client.js';
import { messageOf } from '../message-of.js';
import { claimTick, markStarted, readRunRecords, recordFailure, recordSuccess } from './run-record.js';
import type { Hold, LoopDefinition, LoopStatus, PassOutcome, Scheduler } from './types.js';

/** The log calls the scheduler makes (pino's shape). */
export interface SchedulerLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface SchedulerOptions {
  db: Db;
  locks: Locks;
  log: SchedulerLog;
  /** Lease time-to-live; the watchdog refreshes it (and re-asks the hold) every third of it. */
  leaseTtlMs?: number;
}

interface InFlight {
  readonly tags: readonly string[];
  readonly controller: AbortController;
  readonly done: Promise<PassOutcome>;
}

const DEFAULT_LEASE_TTL_MS = 30_000;

export function createScheduler(options: SchedulerOptions): Scheduler {
  return new IntervalScheduler(options);
}

class IntervalScheduler implements Scheduler {
  readonly #loops = new Map<string, LoopDefinition>();
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #inFlight = new Map<string, InFlight>();
  readonly #leaseTtlMs: number;
  #running = false;

  constructor(private readonly options: SchedulerOptions) {
    this.#leaseTtlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  }

  register(loop: LoopDefinition): void {
    if (this.#loops.has(loop.name)) throw new Error(`scheduler loop "${loop.name}" is already registered`);
    if (!(loop.intervalMs > 0)) throw new Error(`scheduler loop "${loop.name}" needs a positive interval`);
    this.#loops.set(loop.name, loop);
    if (this.#running) this.#schedule(loop, loop.firstRunAfterMs ?? loop.intervalMs);
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    for (const loop of this.#loops.values()) this.#schedule(loop, loop.firstRunAfterMs ?? loop.intervalMs);
  }

  async stop(): Promise<void> {
    this.#running = false;
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    const passes = [...this.#inFlight.values()];
    for (const pass of passes) pass.controller.abort(new Error('the scheduler is stopping'));
    await Promise.allSettled(passes.map((pass) => pass.done));
  }

  runNow(name: string): Promise<PassOutcome> {
    const loop = this.#loops.get(name);
    if (!loop) throw new Error(`no scheduler loop "${name}"`);
    return this.#pass(loop, false);
  }

  interrupt(tag: string, reason: string): number {
    let aborted = 0;
    for (const pass of this.#inFlight.values()) {
      if (!pass.tags.includes(tag) || pass.controller.signal.aborted) continue;
      pass.controller.abort(new Error(reason));
      aborted += 1;
    }
    return aborted;
  }

  async status(): Promise<LoopStatus[]> {
    const records = await readRunRecords(this.options.db, [...this.#loops.keys()]);
    return [...this.#loops.values()].map((loop) => {
      const record = records.get(loop.name);
      return {
        name: loop.name,
        intervalSeconds: loop.intervalMs / 1000,
        tags: loop.tags ?? [],
        running: this.#inFlight.has(loop.name),
        lastStartedAt: record?.lastStartedAt ?? null,
        lastSuccessAt: record?.lastSuccessAt ?? null,
        lastFailureAt: record?.lastFailureAt ?? null,
        lastError: record?.lastError ?? null,
        passes: record?.passes ?? 0,
        failures: record?.failures ?? 0,
      };
    });
  }

  #schedule(loop: LoopDefinition, delayMs: number): void {
    const timer = setTimeout(() => {
      this.#timers.delete(loop.name);
      void this.#pass(loop, true).finally(() => {
        if (this.#running) this.#schedule(loop, loop.intervalMs);
      });
    }, delayMs);
    timer.unref();
    this.#timers.set(loop.name, timer);
  }

  /** Never rejects: every way a pass can end is an outcome. */
  async #pass(loop: LoopDefinition, onTick: boolean): Promise<PassOutcome> {
    if (this.#inFlight.has(loop.name) || (onTick && !this.#running)) return { status: 'busy' };
    try {
      const hold = await this.#holdOf(loop);
      if (hold) return { status: 'held', reason: hold.reason };
      const lease = await this.options.locks.acquire(`scheduler:${loop.name}`, this.#leaseTtlMs);
      if (!lease) return { status: 'busy' };
      try {
        if (onTick && !(await claimTick(this.options.db, loop.name, loop.intervalMs)))
          return { status: 'busy' };
        if (!onTick) await markStarted(this.options.db, loop.name);
        // stop() came while this tick was still taking its lease: it must not run after stop().
        if (onTick && !this.#running) return { status: 'busy' };
        return await this.#runGuarded(loop, lease);
      } finally {
        await this.options.locks.release(lease).catch(() => false);
      }
    } catch (error) {
      // The hold, the lease or the run record failed (a store is down): the pass did not run.
      this.options.log.error({ err: error, loop: loop.name }, 'scheduler pass could not start');
      return { status: 'failed', error: messageOf(error) };
    }
  }

  async #runGuarded(loop: LoopDefinition, lease: Parameters<Locks['refresh']>[0]): Promise<PassOutcome> {
    const controller = new AbortController();
    const watchdog = setInterval(() => {
      void this.#watch(loop, lease, controller);
    }, this.#leaseTtlMs / 3);
    watchdog.unref();
    const done = this.#execute(loop, controller.signal).finally(() => {
      clearInterval(watchdog);
      this.#inFlight.delete(loop.name);
    });
    this.#inFlight.set(loop.name, { tags: loop.tags ?? [], controller, done });
    return done;
  }

  async #watch(loop: LoopDefinition, lease: Parameters<Locks['refresh']>[0], controller: AbortController) {
    if (controller.signal.aborted) return;
    const kept = await this.options.locks.refresh(lease, this.#leaseTtlMs).catch(() => false);
    if (!kept) {
      controller.abort(new Error('the lease of this pass was lost'));
      return;
    }
    const hold = await this.#holdOf(loop);
    if (hold?.interrupt) controller.abort(new Error(hold.reason));
  }

  async #execute(loop: LoopDefinition, signal: AbortSignal): Promise<PassOutcome> {
    const { db, log } = this.options;
    try {
      await loop.run(signal);
      if (signal.aborted) return await this.#aborted(loop, signal);
      await recordSuccess(db, loop.name);
      return { status: 'succeeded' };
    } catch (error) {
      if (signal.aborted) return await this.#aborted(loop, signal);
      log.error({ err: error, loop: loop.name }, 'scheduler pass failed');
      await recordFailure(db, loop.name, messageOf(error)).catch(() => undefined);
      return { status: 'failed', error: messageOf(error) };
    }
  }

  async #aborted(loop: LoopDefinition, signal: AbortSignal): Promise<PassOutcome> {
    const reason = messageOf(signal.reason);
    this.options.log.warn({ loop: loop.name, reason }, 'scheduler pass aborted');
    await recordFailure(this.options.db, loop.name, `aborted: ${reason}`).catch(() => undefined);
    return { status: 'aborted', reason };
  }

  /** The loop's hold; a hold check that throws holds the loop (fail closed) without interrupting. */
  async #holdOf(loop: LoopDefinition): Promise<Hold | null> {
    if (!loop.hold) return null;
    try {
      return await loop.hold();
    } catch (error) {
      return { reason: `the hold check failed: ${messageOf(error)}`, interrupt: false };
    }
  }
}
