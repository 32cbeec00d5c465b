/**
 * One run's limits while it lives: the argv that starts it inside its cgroup, the watch that
 * notices a cap reached (the kernel's event counters, polled; a timer for wall time), and the
 * release that kills what is left and removes the cgroup. The cgroup versions differ only in their
 * files (cgroup-v1.ts, cgroup-v2.ts: a `CgroupBackend`); the rlimit fallback has no cgroup at all.
 */
import {
  breachDetail,
  type RunLimitBreach,
  type RunLimitName,
  type RunLimits,
  type RunLimitsMechanism,
} from './run-limit-caps.js';

/** How often the kernel's counters are read while a run lives. */
const POLL_MS = 250;
/** Longest a release keeps killing, and then keeps trying to remove the directories. */
const KILL_LIMIT_MS = 5_000;
const REMOVE_LIMIT_MS = 3_000;

/** A run's cgroup(s), as one cgroup version made them. */
export interface CgroupBackend {
  readonly mechanism: 'cgroup1' | 'cgroup2';
  /** The `cgroup.procs` files a process writes itself into to enter the run (one per v1 hierarchy). */
  readonly procsFiles: readonly string[];
  /** Which cap the kernel counted as hit, if any (a fork refused, an OOM kill). */
  hit(): 'processes' | 'memory' | null;
  /** SIGKILLs everything the run's cgroup holds, until it holds nothing (or a time limit). */
  killAll(limitMs: number): Promise<void>;
  /** Removes the run's directories; false when one would not go. */
  remove(limitMs: number): Promise<boolean>;
}

export interface WatchOptions {
  /**
   * After the wall time ran out, how long the run has to stop in its own time (the caller's graceful
   * stop, from `onBreach`) before the handle kills what its cgroup still holds. A process or memory
   * cap reached kills at once: the run cannot go on past it.
   */
  wallGraceMs?: number;
}

export interface RunLimitsHandle {
  readonly mechanism: RunLimitsMechanism;
  readonly limits: RunLimits;
  /** The argv that starts `argv` already inside the run's limits. */
  launcher(argv: readonly string[]): string[];
  /**
   * Starts watching (call once, when the run has started; the wall time counts from here).
   * `onBreach` hears the first cap reached, once; the handle then kills the run's cgroup itself
   * (under rlimits it cannot: stopping the run is the caller's).
   */
  watch(onBreach: (breach: RunLimitBreach) => void, options?: WatchOptions): void;
  /** The first cap reached, reading the counters once more (an OOM that killed the leader). */
  breach(): RunLimitBreach | null;
  /** Kills whatever is left and removes the cgroup; never throws. Idempotent. */
  release(): Promise<void>;
}

/** The argv of a script moving itself into every `cgroup.procs` in `procsFiles`, then exec'ing `argv`. */
export function enterCgroupArgv(procsFiles: readonly string[], argv: readonly string[]): string[] {
  if (argv.length === 0) throw new Error('no program to run');
  return ['/bin/sh', '-c', ENTER_SCRIPT, 'gaffer-run-limits', ...procsFiles, '--', ...argv];
}

/**
 * Moves the shell itself before it becomes the program, so nothing of the run ever runs outside
 * (a process moved after its start could fork first). The files come as positional arguments,
 * never inside the script; a move that fails ends it with 125 before anything runs.
 */
const ENTER_SCRIPT = [
  'while [ "$1" != -- ]; do',
  ` echo $$ > "$1" || { echo "gaffer: could not enter the run's cgroup ($1)" >&2; exit 125; }`,
  ' shift',
  'done',
  'shift',
  // The shell exported a PWD of its own: the program gets the environment it was given, nothing more.
  'unset PWD',
  'exec "$@"',
].join('\n');

/** setTimeout overflows past 2^31-1 ms (24.8 days): a longer wait is re-armed until its deadline. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function timerAt(deadline: number, fire: () => void): { cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = deadline - Date.now();
    timer = left > MAX_TIMER_MS ? setTimeout(arm, MAX_TIMER_MS) : setTimeout(fire, Math.max(0, left));
    // the server lives on its own; a test process need not wait for an hour's timer
    timer.unref();
  };
  arm();
  return { cancel: () => clearTimeout(timer) };
}

/** The watch and the first breach, common to every mechanism. */
abstract class WatchedRun implements RunLimitsHandle {
  abstract readonly mechanism: RunLimitsMechanism;
  private seen: RunLimitBreach | null = null;
  private listener: ((breach: RunLimitBreach) => void) | null = null;
  private wallGraceMs = 0;
  private poll: NodeJS.Timeout | null = null;
  private wall: { cancel(): void } | null = null;
  private pendingKill: { cancel(): void } | null = null;
  private releasing: Promise<void> | null = null;

  constructor(readonly limits: RunLimits) {}

  abstract launcher(argv: readonly string[]): string[];
  protected abstract hit(): 'processes' | 'memory' | null;
  protected abstract killAll(): Promise<void>;
  protected abstract remove(): Promise<void>;

  watch(onBreach: (breach: RunLimitBreach) => void, options: WatchOptions = {}): void {
    if (this.listener || this.releasing) return;
    this.listener = onBreach;
    this.wallGraceMs = Math.max(0, options.wallGraceMs ?? 0);
    if (this.seen) {
      // read by breach() before the watch began: the run is past its cap all the same
      this.respond(this.seen, true);
      return;
    }
    this.wall = timerAt(Date.now() + this.limits.wallSeconds * 1000, () => this.record('wall_time', true));
    this.poll = setInterval(() => this.check(true), POLL_MS).unref();
  }

  breach(): RunLimitBreach | null {
    if (!this.seen && !this.releasing) this.check(false);
    return this.seen;
  }

  release(): Promise<void> {
    this.releasing ??= (async () => {
      this.stopWatching();
      this.pendingKill?.cancel();
      try {
        if (!this.seen) this.check(false);
        await this.killAll();
        await this.remove();
      } catch {
        // never throws: what could not be removed is left for the stale-parent sweep
      }
    })();
    return this.releasing;
  }

  private check(kill: boolean): void {
    let hit: 'processes' | 'memory' | null = null;
    try {
      hit = this.hit();
    } catch {
      // a counter that cannot be read is no breach
    }
    if (hit) this.record(hit, kill);
  }

  private record(limit: RunLimitName, kill: boolean): void {
    if (this.seen) return;
    this.seen = { limit, detail: breachDetail(limit, this.limits) };
    this.respond(this.seen, kill);
  }

  /** Tells the listener, then kills the run (at once, or after the wall-time grace). */
  private respond(breach: RunLimitBreach, kill: boolean): void {
    this.stopWatching();
    this.notify(breach);
    if (!kill || this.releasing) return;
    const grace = breach.limit === 'wall_time' ? this.wallGraceMs : 0;
    this.pendingKill = timerAt(Date.now() + grace, () => {
      this.killAll().catch(() => undefined);
    });
  }

  private notify(breach: RunLimitBreach): void {
    try {
      this.listener?.(breach);
    } catch {
      // the listener's failure must not keep the run alive past its cap
    }
  }

  private stopWatching(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    this.wall?.cancel();
    this.wall = null;
  }
}

/** A run in a cgroup of its own. */
export class CgroupRun extends WatchedRun {
  readonly mechanism: 'cgroup1' | 'cgroup2';

  constructor(
    private readonly backend: CgroupBackend,
    limits: RunLimits,
  ) {
    super(limits);
    this.mechanism = backend.mechanism;
  }

  launcher(argv: readonly string[]): string[] {
    return enterCgroupArgv(this.backend.procsFiles, argv);
  }

  protected hit() {
    return this.backend.hit();
  }

  protected killAll() {
    return this.backend.killAll(KILL_LIMIT_MS);
  }

  protected async remove() {
    await this.backend.remove(REMOVE_LIMIT_MS);
  }
}

/**
 * A run under rlimits only (no cgroup could be made): `prlimit` starts it, and only the wall time
 * is watched; with no `prlimit` on the PATH the argv is left as it is.
 */
export class RlimitRun extends WatchedRun {
  readonly mechanism = 'rlimits' as const;

  constructor(
    limits: RunLimits,
    private readonly wrap: (argv: readonly string[]) => string[],
  ) {
    super(limits);
  }

  launcher(argv: readonly string[]): string[] {
    if (argv.length === 0) throw new Error('no program to run');
    return this.wrap(argv);
  }

  protected hit() {
    return null;
  }

  protected async killAll() {}

  protected async remove() {}
}
