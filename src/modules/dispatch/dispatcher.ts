/**
 * The dispatcher: the `dispatch.tick` scheduler loop (held by the `dispatch` pause scope) that
 * runs a dispatch pass on its interval and whenever it is woken — by a task transition, an agent
 * run ending, or the scope resuming. Wakes coalesce: at most one run-now is in flight; a wake that
 * arrives during a pass asks for exactly one more, run once the pass (and its lease) is over and at
 * least WAKE_SPACING_MS after the last woken pass began — a stream of task changes (a burst of
 * creates) runs a pass four times a second, not back to back; a wake after a quiet moment runs at
 * once. A wake that keeps finding another replica's pass under way is dropped after a moment: every
 * replica hears the same events, so that replica asks for its own next pass. Also keeps this
 * replica's bookkeeping: the last pass, the counts, the agents the CEO stopped (left alone for a
 * while) and the agents whose spawn failed (backed off).
 */
import type { Clock } from '../../platform/clock.js';
import type { Hold, PassOutcome, Scheduler } from '../../platform/scheduler/index.js';
import { type PauseScope, pausableLoop } from '../maintenance/index.js';
import { dispatchPass, type PassDeps, type PassSummary } from './pass.js';

export const DISPATCH_LOOP = 'dispatch.tick';
/**
 * The pause scopes that hold the dispatcher, declared once: the loop's hold and tags, the spawn
 * refusal and the kill of running agents on a kill pause all follow from this list.
 */
export const DISPATCH_PAUSE_SCOPES: readonly PauseScope[] = ['dispatch'];
/** The least time between the starts of two woken passes. */
export const WAKE_SPACING_MS = 250;
/** How often, and how far apart, a wake retries a run-now that found the loop busy. */
const BUSY_RETRIES = 40;
const BUSY_RETRY_MS = 25;
/** The longest a failing agent is backed off. */
const MAX_BACKOFF_MS = 15 * 60_000;
/** The first back-off after a run failed as it started (cli-failures.ts); it doubles each time in a row. */
const START_FAILURE_BACKOFF_MS = 30_000;

export interface DispatcherDeps {
  scheduler: Scheduler;
  clock: Clock;
  /** The maintenance pause: null when none of `scopes` is paused. */
  holdFor(scopes: readonly PauseScope[]): Promise<Hold | null>;
  tickIntervalSeconds: number;
  manualStopHoldSeconds: number;
  /** The pass's dependencies, less what the dispatcher supplies itself. */
  pass: Omit<PassDeps, 'isUnavailable' | 'spawnFailed' | 'cliStartFailed' | 'spawnSucceeded'>;
}

export interface DispatcherState {
  wakes: number;
  passes: number;
  lastPass: PassSummary | null;
  held: Hold | null;
  heldAgents: { agentId: string; until: Date; why: 'stopped_by_ceo' | 'spawn_failed' }[];
}

export class Dispatcher {
  #wakes = 0;
  #passes = 0;
  #lastPass: PassSummary | null = null;
  #wanted = false;
  #pumping: Promise<void> | null = null;
  /** When the last woken pass was asked for (performance.now()). */
  #lastWokenAt = Number.NEGATIVE_INFINITY;
  #closed = false;
  #current: Promise<unknown> | null = null;
  readonly #stoppedByCeo = new Map<string, Date>();
  readonly #backoff = new Map<string, { until: Date; failures: number }>();
  /** Runs in a row that failed as they started, by agent. */
  readonly #startFailures = new Map<string, number>();

  constructor(private readonly deps: DispatcherDeps) {}

  /** Registers the loop (its first pass one interval after start; wakes run sooner). */
  register(): void {
    this.deps.scheduler.register(
      pausableLoop(
        {
          name: DISPATCH_LOOP,
          intervalMs: this.deps.tickIntervalSeconds * 1000,
          pauseScopes: DISPATCH_PAUSE_SCOPES,
          run: (signal) => this.pass(signal),
        },
        (scopes) => this.deps.holdFor(scopes),
      ),
    );
  }

  /** Null while none of the dispatcher's pause scopes is paused, else the pause holding it. */
  hold(): Promise<Hold | null> {
    return this.deps.holdFor(DISPATCH_PAUSE_SCOPES);
  }

  /** Asks for a pass soon; coalesced with the passes already asked for. */
  wake(): void {
    if (this.#closed) return;
    this.#wakes += 1;
    this.#wanted = true;
    if (!this.#pumping) this.#pumping = this.#pump();
  }

  async #pump(): Promise<void> {
    try {
      while (this.#wanted && !this.#closed) {
        const wait = this.#lastWokenAt + WAKE_SPACING_MS - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (this.#closed) break;
        this.#lastWokenAt = performance.now();
        await this.#runNowWhenFree();
      }
    } finally {
      this.#pumping = null;
    }
  }

  /** Wakes so far on this replica. */
  get wakeCount(): number {
    return this.#wakes;
  }

  /** Resolves once no wake is being served and no pass runs on this replica. */
  async idle(): Promise<void> {
    for (;;) {
      const busy = this.#pumping ?? this.#current;
      if (!busy) return;
      await busy.catch(() => undefined);
    }
  }

  /**
   * A run-now; while the loop is busy, tried again shortly — after this replica's own pass ends
   * (its lease is released just after), or for a moment when another replica's pass holds it.
   */
  async #runNowWhenFree(): Promise<PassOutcome> {
    let outcome: PassOutcome = { status: 'busy' };
    for (let attempt = 0; attempt <= BUSY_RETRIES && !this.#closed; attempt++) {
      if (attempt > 0) {
        await this.#current?.catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
      }
      this.#wanted = false;
      outcome = await this.deps.scheduler.runNow(DISPATCH_LOOP);
      if (outcome.status !== 'busy') return outcome;
    }
    return outcome;
  }

  /** One pass: the loop's `run`. */
  async pass(signal: AbortSignal): Promise<void> {
    const running = dispatchPass(
      {
        ...this.deps.pass,
        isUnavailable: (agentId) => this.isUnavailable(agentId),
        spawnFailed: (agentId) => this.#spawnFailed(agentId),
        cliStartFailed: (agentId) => this.runFailedOnStart(agentId),
        spawnSucceeded: (agentId) => this.#backoff.delete(agentId),
      },
      signal,
    );
    this.#current = running;
    try {
      this.#lastPass = await running;
    } finally {
      this.#passes += 1;
      this.#current = null;
    }
  }

  /** Resolves once the pass in flight on this replica (if any) has ended. */
  async settled(): Promise<void> {
    await this.#current?.catch(() => undefined);
  }

  /** The CEO stopped the agent: leave it alone for the hold period (or until spawned by hand). */
  holdStoppedAgent(agentId: string): void {
    const until = new Date(this.deps.clock.now().getTime() + this.deps.manualStopHoldSeconds * 1000);
    this.#stoppedByCeo.set(agentId, until);
  }

  releaseAgent(agentId: string): void {
    this.#stoppedByCeo.delete(agentId);
    this.#backoff.delete(agentId);
  }

  isUnavailable(agentId: string): boolean {
    const now = this.deps.clock.now();
    const held = this.#stoppedByCeo.get(agentId);
    if (held && held > now) return true;
    const backoff = this.#backoff.get(agentId);
    return !!backoff && backoff.until > now;
  }

  /**
   * A run of the agent failed as it started, or its spawn threw because its CLI cannot be started:
   * its next spawn waits, twice as long each time in a row.
   */
  runFailedOnStart(agentId: string): void {
    const failures = (this.#startFailures.get(agentId) ?? 0) + 1;
    this.#startFailures.set(agentId, failures);
    this.#holdOff(
      agentId,
      failures,
      Math.max(START_FAILURE_BACKOFF_MS, this.deps.tickIntervalSeconds * 1000),
    );
  }

  /**
   * What the agent failed on is no longer what it runs (an experiment arm's CLI it was given went
   * back to the usual one): its next spawn need not wait, and its failures on start count from zero.
   */
  liftStartBackoff(agentId: string): void {
    this.#startFailures.delete(agentId);
    this.#backoff.delete(agentId);
  }

  /** A run of the agent got going: failures on start count from zero again. */
  runGotGoing(agentId: string): void {
    this.#startFailures.delete(agentId);
  }

  #spawnFailed(agentId: string): void {
    const failures = (this.#backoff.get(agentId)?.failures ?? 0) + 1;
    this.#holdOff(agentId, failures, this.deps.tickIntervalSeconds * 1000);
  }

  #holdOff(agentId: string, failures: number, baseMs: number): void {
    const delay = Math.min(baseMs * 2 ** (failures - 1), MAX_BACKOFF_MS);
    this.#backoff.set(agentId, { until: new Date(this.deps.clock.now().getTime() + delay), failures });
  }

  async state(): Promise<DispatcherState> {
    const now = this.deps.clock.now();
    const heldAgents: DispatcherState['heldAgents'] = [];
    for (const [agentId, until] of this.#stoppedByCeo) {
      if (until > now) heldAgents.push({ agentId, until, why: 'stopped_by_ceo' });
    }
    for (const [agentId, { until }] of this.#backoff) {
      if (until > now) heldAgents.push({ agentId, until, why: 'spawn_failed' });
    }
    return {
      wakes: this.#wakes,
      passes: this.#passes,
      lastPass: this.#lastPass,
      held: await this.hold().catch((error: Error) => ({ reason: error.message, interrupt: false })),
      heldAgents,
    };
  }

  close(): void {
    this.#closed = true;
  }
}
