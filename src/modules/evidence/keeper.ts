/**
 * Keeps the outcome rows as the work happens: a task's row is folded again after anything that
 * changes its record — a transition or edit (TASK_CHANGED), a run that ended (AGENT_STOPPED,
 * AGENT_ERROR; its usage lines are in the ledger by then). Refreshes are gathered for a moment and
 * done in one batch; a fold is a function of the committed record, so every replica may do it and
 * the rows stay exact (store.ts keeps the fold that saw most).
 */
import type { EventBus } from '../../platform/bus/index.js';
import type { Db } from '../../platform/db/client.js';
import { refreshOutcomes } from './store.js';

/** How long changes are gathered before a batch is folded. */
export const KEEPER_DELAY_MS = 500;

export interface OutcomeKeeper {
  /** Folds the tasks waiting now, and resolves once every batch started so far is stored. */
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export function keepOutcomes(
  db: Db,
  bus: EventBus,
  warn: (error: unknown) => void,
  /** Told the tasks of each batch once their rows are stored (the experiments look at their stops). */
  afterFold: (taskIds: readonly string[]) => Promise<void> = async () => undefined,
  delayMs = KEEPER_DELAY_MS,
): OutcomeKeeper {
  const waiting = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const ids = [...waiting];
    waiting.clear();
    if (ids.length > 0) {
      running = running.then(() =>
        refreshOutcomes(db, ids)
          .then(() => afterFold(ids))
          .then(() => undefined, warn),
      );
    }
    return running;
  };
  const note = (taskId: string | null | undefined) => {
    if (!taskId) return;
    waiting.add(taskId);
    timer ??= setTimeout(() => void flush(), delayMs);
  };
  const unsubscribe = [
    bus.subscribe('TASK_CHANGED', (event) => note(event.data.task_id)),
    bus.subscribe('AGENT_STOPPED', (event) => note(event.data.task_id)),
    bus.subscribe('AGENT_ERROR', (event) => note(event.data.task_id)),
  ];
  return {
    flush,
    async stop() {
      for (const off of unsubscribe) off();
      await flush();
    },
  };
}
