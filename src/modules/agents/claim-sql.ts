/**
 * The roster's side of a task claim, as pieces of the tasks module's own statements: the claim and
 * an audited task write update the claimant's row in the same statement (a CTE), and the claim
 * facts left-join the claimant — one statement each, as measured in bench/claims.ts. The tasks
 * module supplies the task id, the time and the condition; the agents columns are named only here.
 */
import { type AnyColumn, eq, type SQL, sql } from 'drizzle-orm';
import { agents } from './schema.js';

const when = (condition: SQL | undefined): SQL => (condition ? sql` and ${condition}` : sql``);

/** `agentId` is active on `taskId` (when `condition` holds, e.g. `exists (select 1 from claimed)`). */
export function agentTakesTask(agentId: string, taskId: string, now: Date, condition?: SQL): SQL {
  return sql`update ${agents} set status = 'active', current_task_id = ${taskId}, updated_at = ${now.toISOString()}::timestamptz
      where id = ${agentId}${when(condition)}`;
}

/**
 * `agentId` goes idle, no longer on `taskId` — unless it has moved on to another task meanwhile
 * (and only when `condition` holds, if given).
 */
export function agentLeavesTask(agentId: string, taskId: string, now: Date, condition?: SQL): SQL {
  return sql`update ${agents} set status = 'idle', current_task_id = null, updated_at = ${now.toISOString()}::timestamptz
      where id = ${agentId} and current_task_id = ${taskId}${when(condition)}`;
}

/**
 * The agent a claim is held by, for the caller's select: left-join `table` on `on`, select
 * `columns` (null when no agent holds it).
 */
export function claimantJoin(agentId: AnyColumn | SQL) {
  return { table: agents, on: eq(agents.id, agentId), columns: { slug: agents.slug, role: agents.role } };
}
