/** A named read of the run history: the ended runs on a task that started in a window. */
import { and, asc, gte, isNotNull, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { agentRuns } from './schema.js';

export interface EndedTaskRun {
  id: string;
  agentId: string;
  taskId: string;
  startedAt: Date;
  endedAt: Date;
  outcome: string | null;
}

/** Runs on a task that started in `[since, until)` and have ended, oldest first. */
export async function endedTaskRuns(db: Db, since: Date, until: Date): Promise<EndedTaskRun[]> {
  const rows = await db
    .select({
      id: agentRuns.id,
      agentId: agentRuns.agentId,
      taskId: agentRuns.taskId,
      startedAt: agentRuns.startedAt,
      endedAt: agentRuns.endedAt,
      outcome: agentRuns.outcome,
    })
    .from(agentRuns)
    .where(
      and(
        isNotNull(agentRuns.taskId),
        isNotNull(agentRuns.endedAt),
        gte(agentRuns.startedAt, since),
        lt(agentRuns.startedAt, until),
      ),
    )
    .orderBy(asc(agentRuns.startedAt));
  return rows.map((row) => ({ ...row, taskId: row.taskId!, endedAt: row.endedAt! }));
}
