/**
 * Named reads of the run history: the ended runs on a task that started in a window; every run on
 * a batch of tasks (the evidence read model), in the order they started.
 */
import { and, asc, gte, inArray, isNotNull, lt } from 'drizzle-orm';
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

export interface TaskRun {
  taskId: string | null;
  agentId: string;
  provider: string;
  model: string | null;
  outcome: string | null;
  startedAt: Date;
  endedAt: Date | null;
  limitHit: string | null;
}

/** Every run on the tasks of `ids`, in the order they started. */
export async function runsOnTasks(db: Db, ids: readonly string[]): Promise<TaskRun[]> {
  if (ids.length === 0) return [];
  return db
    .select({
      taskId: agentRuns.taskId,
      agentId: agentRuns.agentId,
      provider: agentRuns.provider,
      model: agentRuns.model,
      outcome: agentRuns.outcome,
      startedAt: agentRuns.startedAt,
      endedAt: agentRuns.endedAt,
      limitHit: agentRuns.limitHit,
    })
    .from(agentRuns)
    .where(inArray(agentRuns.taskId, [...ids]))
    .orderBy(asc(agentRuns.startedAt), asc(agentRuns.id));
}
