/**
 * What a board program is: an interval-driven sweep (the three autonomous engines each register
 * one) that the runner drives through the scheduler and records as cycles. Also the bounds a
 * cycle's record keeps, and the check a program definition must pass to be registered.
 */
import type { Role } from '../../platform/http/auth/index.js';
import type { PauseScope } from '../maintenance/index.js';
import type { CycleTrigger } from './schema.js';

/** What one cycle's sweep is handed: its abort signal and the counters of its record. */
export interface CycleContext {
  /** Aborted by a kill pause, a lost lease or shutdown: stop promptly and clean up. */
  readonly signal: AbortSignal;
  readonly cycleId: string;
  readonly trigger: CycleTrigger;
  /** `count` more items (projects, repositories) looked at. */
  examined(count?: number): void;
  /** A task was opened. */
  opened(taskId: string): void;
  /** `count` more items a cap held back. */
  skippedByCap(count?: number): void;
  /** An item could not be handled; the sweep goes on. */
  error(message: string): void;
}

export interface BoardProgram {
  /** Stable and unique: lower case, digits, `_` and `-`, at most 40 characters (`ci_watch`). */
  readonly key: string;
  readonly title: string;
  readonly description: string;
  /** The role the program acts as. */
  readonly role: Role;
  readonly trigger: 'interval';
  /** Time between cycles; the first runs one interval after start unless `firstRunAfterSeconds` says. */
  readonly intervalSeconds: number;
  readonly firstRunAfterSeconds?: number;
  /** `org`: one sweep over the company; `project`: a sweep over the opted-in projects. */
  readonly scope: 'org' | 'project';
  /** False: the program polls nothing; its passes end at once without opening a cycle. */
  enabled(): boolean;
  sweep(cycle: CycleContext): Promise<void>;
}

/**
 * The pause scopes that hold every board program, declared once: a sweep runs only while neither is
 * paused, and a kill pause of either interrupts it (the loop's hold and tags come from this list).
 */
export const HOLDING_SCOPES: readonly PauseScope[] = ['board_programs', 'engines'];

export const CYCLE_BOUNDS = {
  /** Error messages kept per cycle (the count goes on). */
  errorMessages: 20,
  /** Characters kept of each message. */
  messageLength: 500,
  /** Opened task ids kept per cycle (the count goes on). */
  openedTaskIds: 100,
} as const;

const KEY = /^[a-z][a-z0-9_-]{0,39}$/;

/** The scheduler loop that drives a program. */
export const loopName = (key: string): string => `board-program.${key}`;

/** Throws on a definition the runner cannot drive (a programming error, found at registration). */
export function checkProgram(program: BoardProgram): void {
  const fail = (why: string) => {
    throw new Error(`board program "${program.key}": ${why}`);
  };
  if (!KEY.test(program.key))
    fail('the key must be lower case letters, digits, _ or -, at most 40 characters');
  if (!program.title.trim()) fail('needs a title');
  if (!program.description.trim()) fail('needs a description');
  if (program.trigger !== 'interval') fail('the only trigger is "interval"');
  if (!(program.intervalSeconds > 0)) fail('needs a positive intervalSeconds');
  if (program.firstRunAfterSeconds !== undefined && !(program.firstRunAfterSeconds >= 0)) {
    fail('firstRunAfterSeconds cannot be negative');
  }
}

/** A message as a cycle record keeps it. */
export function boundedMessage(message: string): string {
  const trimmed = message.trim() || 'unknown error';
  return trimmed.length > CYCLE_BOUNDS.messageLength
    ? `${trimmed.slice(0, CYCLE_BOUNDS.messageLength - 1)}…`
    : trimmed;
}
