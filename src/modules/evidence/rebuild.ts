/**
 * `gaffer evidence rebuild` (and POST /api/workforce/outcomes/rebuild): folds every task's outcome
 * again from the record alone — the audit trail, the runs, the findings and the ledger — a batch
 * of tasks at a time. The rows it writes are the ones the keeper kept (the same fold of the same
 * record), which is what the rebuild proves when it is compared with them.
 */
import type { Db } from '../../platform/db/client.js';
import { taskIdsAfter } from '../tasks/index.js';
import { refreshOutcomes } from './store.js';

export const REBUILD_BATCH = 500;

/** Folds every task again; answers how many rows were written. */
export async function rebuildOutcomes(db: Db, batch = REBUILD_BATCH): Promise<number> {
  let after = '00000000-0000-0000-0000-000000000000';
  let written = 0;
  for (;;) {
    const ids = await taskIdsAfter(db, after, batch);
    if (ids.length === 0) return written;
    written += await refreshOutcomes(db, ids);
    after = ids.at(-1)!;
  }
}
