/**
 * The board-program runner: a registry of programs, each driven by a scheduler loop
 * (`board-program.<key>`, tagged and held by the `board_programs` and `engines` pause scopes), and
 * each pass recorded as a cycle row. A disabled program's pass ends at once; an aborted sweep (kill
 * pause, lost lease, shutdown) closes its cycle `aborted`; a sweep that throws closes it `failed`
 * and the loop goes on. Run-now drives one pass through the scheduler and answers with its cycle.
 */
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { AppError, conflict, notFound } from '../../platform/http/errors.js';
import { messageOf } from '../../platform/message-of.js';
import type { Hold, Scheduler } from '../../platform/scheduler/types.js';
import { type PauseScope, pausableLoop } from '../maintenance/index.js';
import { CycleRecorder } from './cycle-recorder.js';
import {
  type CycleRow,
  closeAbandonedCycles,
  closeCycle,
  lastCycles,
  listCycles,
  openCycle,
  readCycle,
} from './cycle-store.js';
import { type BoardProgram, checkProgram, HOLDING_SCOPES, loopName } from './program.js';
import type { CycleTrigger } from './schema.js';

export interface RunnerDeps {
  db: Db;
  clock: Clock;
  scheduler: Pick<Scheduler, 'register' | 'runNow'>;
  /** The maintenance pause: null when none of `scopes` is paused. */
  holdFor(scopes: readonly PauseScope[]): Promise<Hold | null>;
}

/** A program as the list shows it: its definition, whether it is on, its last cycle and any pause holding it. */
export interface ProgramStatus {
  program: BoardProgram;
  enabled: boolean;
  lastCycle: CycleRow | null;
  heldBy: string | null;
}

/** A run-now waiting for its pass: the pass claims it and says which cycle it opened. */
interface RunNowClaim {
  cycleId: string | null;
}

export class BoardProgramRunner {
  private readonly programs = new Map<string, BoardProgram>();
  private readonly runNowClaims = new Map<string, RunNowClaim>();

  constructor(private readonly deps: RunnerDeps) {}

  /** Adds a program and its scheduler loop. Throws on a malformed definition or a key taken. */
  register(program: BoardProgram): void {
    checkProgram(program);
    if (this.programs.has(program.key))
      throw new Error(`board program "${program.key}" is already registered`);
    this.programs.set(program.key, program);
    this.deps.scheduler.register(
      pausableLoop(
        {
          name: loopName(program.key),
          intervalMs: program.intervalSeconds * 1000,
          ...(program.firstRunAfterSeconds === undefined
            ? {}
            : { firstRunAfterMs: program.firstRunAfterSeconds * 1000 }),
          pauseScopes: HOLDING_SCOPES,
          run: (signal) => this.pass(program, signal),
        },
        this.deps.holdFor,
      ),
    );
  }

  /** The registered programs, in registration order. */
  list(): BoardProgram[] {
    return [...this.programs.values()];
  }

  /** 404 for a key no program has. */
  program(key: string): BoardProgram {
    const program = this.programs.get(key);
    if (!program) throw notFound(`there is no board program "${key}"`);
    return program;
  }

  hold(): Promise<Hold | null> {
    return this.deps.holdFor(HOLDING_SCOPES);
  }

  async statuses(): Promise<ProgramStatus[]> {
    const programs = this.list();
    const [last, hold] = await Promise.all([
      lastCycles(
        this.deps.db,
        programs.map((program) => program.key),
      ),
      this.hold(),
    ]);
    return programs.map((program) => ({
      program,
      enabled: program.enabled(),
      lastCycle: last.get(program.key) ?? null,
      heldBy: hold?.reason ?? null,
    }));
  }

  async cycles(key: string, limit: number): Promise<CycleRow[]> {
    this.program(key);
    return listCycles(this.deps.db, key, limit);
  }

  /**
   * One cycle now, through the scheduler (so the lease keeps it one at a time across replicas).
   * 404 unknown key; 409 `program_disabled`, `maintenance_paused` (naming the pause) or
   * `cycle_in_flight`. Resolves with the closed cycle, whatever its outcome.
   */
  async runNow(key: string): Promise<CycleRow> {
    const program = this.program(key);
    if (!program.enabled()) throw disabled(key);
    const hold = await this.hold();
    if (hold) throw paused(key, hold.reason);
    const claim: RunNowClaim = { cycleId: null };
    this.runNowClaims.set(key, claim);
    let outcome: Awaited<ReturnType<Scheduler['runNow']>>;
    try {
      outcome = await this.deps.scheduler.runNow(loopName(key));
    } finally {
      if (this.runNowClaims.get(key) === claim) this.runNowClaims.delete(key);
    }
    if (outcome.status === 'held') throw paused(key, outcome.reason);
    if (outcome.status === 'busy') {
      throw conflict('cycle_in_flight', `board program "${key}" already has a cycle in flight`);
    }
    const cycle = claim.cycleId ? await readCycle(this.deps.db, claim.cycleId) : undefined;
    if (cycle) return cycle;
    if (outcome.status === 'failed') {
      throw new AppError(
        503,
        'unavailable',
        `the cycle of board program "${key}" could not start: ${outcome.error}`,
      );
    }
    throw disabled(key); // the pass found the program switched off and opened nothing
  }

  /** One scheduler pass of `program`: a cycle, unless the program is disabled. */
  private async pass(program: BoardProgram, signal: AbortSignal): Promise<void> {
    const { db, clock } = this.deps;
    const claim = this.runNowClaims.get(program.key);
    if (claim) this.runNowClaims.delete(program.key);
    const trigger: CycleTrigger = claim ? 'run_now' : 'interval';
    // This pass holds the program's lease, so any cycle still marked running was left by a stopped process.
    await closeAbandonedCycles(db, program.key, clock.now());
    if (!program.enabled()) return;
    const cycle = await openCycle(db, { programKey: program.key, trigger, openedAt: clock.now() });
    if (claim) claim.cycleId = cycle.id;
    const recorder = new CycleRecorder(cycle.id, trigger, signal);
    let thrown: { error: unknown } | null = null;
    try {
      await program.sweep(recorder.context);
    } catch (error) {
      thrown = { error };
    }
    const aborted = signal.aborted;
    if (thrown && !aborted) recorder.error(messageOf(thrown.error));
    await closeCycle(db, cycle.id, {
      closedAt: clock.now(),
      outcome: aborted ? 'aborted' : thrown ? 'failed' : 'completed',
      detail: aborted ? messageOf(signal.reason) : thrown ? messageOf(thrown.error) : null,
      counts: recorder.counts,
    });
    // The scheduler records the failure (or the abort) and goes on with the next interval.
    if (thrown) throw thrown.error;
  }
}

const disabled = (key: string) =>
  conflict('program_disabled', `board program "${key}" is disabled; it runs no cycles until it is enabled`);

const paused = (key: string, reason: string) =>
  conflict(
    'maintenance_paused',
    `board program "${key}" is held: ${reason}. Resume the scope (DELETE /api/maintenance-pause/{scope}) ` +
      'or wait for the pause to expire.',
    { hold: reason },
  );
