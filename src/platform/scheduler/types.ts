/**
 * What the scheduler runs: named interval loops for background work. Each pass takes a lease so one
 * replica runs it at a time (and a shared tick record so it runs once per interval across replicas),
 * receives an AbortSignal, records its last success, swallows its own errors, and asks its `hold`
 * (for instance a maintenance-pause scope) before it starts. The platform knows nothing of pause
 * scopes: a loop carries opaque `tags`, and whoever owns a scope calls `interrupt(tag)`.
 */

/** Why a loop must not start a pass now. */
export interface Hold {
  /** Said in logs, in the loop's status and in a refused run-now (e.g. `maintenance pause on engines`). */
  readonly reason: string;
  /** True: in-flight passes are aborted as well (a kill), not only new ones held (a drain). */
  readonly interrupt: boolean;
}

export interface LoopDefinition {
  /** Unique and stable: the lease and the shared run record are keyed by it (`notifications.sweep`). */
  readonly name: string;
  readonly intervalMs: number;
  /** Delay before the first pass; default one interval after start. */
  readonly firstRunAfterMs?: number;
  /** Labels `interrupt(tag)` matches, e.g. the pause scopes the loop belongs to. */
  readonly tags?: readonly string[];
  /** Consulted before every pass and, while a pass runs, at every lease refresh. Null = run. */
  readonly hold?: () => Promise<Hold | null>;
  /** One pass. Must stop promptly (and clean up) when `signal` aborts. */
  readonly run: (signal: AbortSignal) => Promise<void>;
}

/** How one attempted pass ended. */
export type PassOutcome =
  | { readonly status: 'succeeded' }
  | { readonly status: 'failed'; readonly error: string }
  | { readonly status: 'aborted'; readonly reason: string }
  /** Another replica (or this one) holds the loop's lease, or already ran this interval's tick. */
  | { readonly status: 'busy' }
  | { readonly status: 'held'; readonly reason: string };

/** A loop as `/api/orchestrator/state` shows it; times come from the shared run record. */
export interface LoopStatus {
  readonly name: string;
  readonly intervalSeconds: number;
  readonly tags: readonly string[];
  /** A pass is running on this replica now. */
  readonly running: boolean;
  readonly lastStartedAt: Date | null;
  readonly lastSuccessAt: Date | null;
  readonly lastFailureAt: Date | null;
  readonly lastError: string | null;
  readonly passes: number;
  readonly failures: number;
}

export interface Scheduler {
  /** Adds a loop; it starts with `start()` (or at once if the scheduler already runs). */
  register(loop: LoopDefinition): void;
  /**
   * One pass now, outside the interval: consults the hold, takes the lease (busy when another pass
   * of the loop is in flight anywhere), runs and records it. Resolves when the pass ends.
   */
  runNow(name: string): Promise<PassOutcome>;
  /** Aborts the in-flight passes of this replica whose loop carries `tag`; returns how many. */
  interrupt(tag: string, reason: string): number;
  status(): Promise<LoopStatus[]>;
  start(): void;
  /** Stops the timers, aborts in-flight passes and waits for them to end. */
  stop(): Promise<void>;
}
