/**
 * The counters of one running cycle: what its sweep examined, opened, skipped by cap and failed
 * on, kept within the bounds of the cycle record. Handed to the sweep as its CycleContext.
 */
import { boundedMessage, CYCLE_BOUNDS, type CycleContext } from './program.js';
import type { CycleTrigger } from './schema.js';

export interface CycleCounts {
  itemsExamined: number;
  tasksOpened: number;
  openedTaskIds: string[];
  skippedByCap: number;
  errors: number;
  errorMessages: string[];
}

const wholeCount = (count: number | undefined, what: string): number => {
  const n = count ?? 1;
  if (!Number.isInteger(n) || n < 0) throw new Error(`${what} needs a whole, non-negative count, got ${n}`);
  return n;
};

export class CycleRecorder {
  readonly counts: CycleCounts = {
    itemsExamined: 0,
    tasksOpened: 0,
    openedTaskIds: [],
    skippedByCap: 0,
    errors: 0,
    errorMessages: [],
  };

  readonly context: CycleContext;

  constructor(cycleId: string, trigger: CycleTrigger, signal: AbortSignal) {
    this.context = {
      signal,
      cycleId,
      trigger,
      examined: (count) => {
        this.counts.itemsExamined += wholeCount(count, 'examined');
      },
      opened: (taskId) => {
        this.counts.tasksOpened += 1;
        if (this.counts.openedTaskIds.length < CYCLE_BOUNDS.openedTaskIds)
          this.counts.openedTaskIds.push(taskId);
      },
      skippedByCap: (count) => {
        this.counts.skippedByCap += wholeCount(count, 'skippedByCap');
      },
      error: (message) => this.error(message),
    };
  }

  error(message: string): void {
    this.counts.errors += 1;
    if (this.counts.errorMessages.length < CYCLE_BOUNDS.errorMessages) {
      this.counts.errorMessages.push(boundedMessage(message));
    }
  }
}
