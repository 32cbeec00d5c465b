/** An index pass on demand (after a doc write): waits for the pass in flight, then runs one of its own. */
import type { Logger } from '../../platform/logger.js';
import type { Scheduler } from '../../platform/scheduler/index.js';

export const INDEX_LOOP = 'optimal.index';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs an index pass now; never rejects (a failed pass is logged). */
export async function indexNow(scheduler: Scheduler, log: Logger): Promise<void> {
  // A pass in flight may have pulled before the change: wait for it, then run one of our own.
  for (let attempt = 0; attempt < 600; attempt++) {
    const outcome = await scheduler.runNow(INDEX_LOOP);
    if (outcome.status !== 'busy') {
      if (outcome.status === 'failed') log.warn({ error: outcome.error }, 'optimal: index pass failed');
      return;
    }
    await sleep(100);
  }
}
