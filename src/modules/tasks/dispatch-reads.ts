/**
 * Named reads of tasks for the dispatcher, so that it never queries the tasks table itself: the
 * candidates of a pass (with the facts routing needs, in one statement that left-joins the caller's
 * own per-task table), the tasks each agent holds under the single-active rule, a task's progress
 * marks (the respawn breaker), the claims of given agents (the kill switch), the stale claims and
 * the claim heartbeats (the reaper), the budgeted tasks and a project's tasks in given states (the
 * budget sweep), and one task's row (the spawner). Each takes the caller's handle.
 */
import { and, asc, type Column, eq, inArray, isNotNull, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/client.js';
import { SINGLE_ACTIVE_BUSY_STATES, type TaskStatus, TERMINAL_STATES } from '../lifecycle/index.js';
import { tasks } from './schema.js';

/**
 * SQL for the id of a task's newest audit row (task_events) not written by the system (null when
 * none), in a query over "tasks" (named in full: drizzle leaves columns unqualified in one-table selects).
 */
export const lastProgressEventId = sql<number | null>`(
  select max(e.id) from task_events e where e.task_id = "tasks"."id" and e.actor_role <> 'system'
)`.mapWith((value) => (value === null ? null : Number(value)));

/** A task's progress marks now: its newest non-system audit row and its heartbeat. */
export async function progressMarksOf(db: Db, taskId: string) {
  const [row] = await db
    .select({ lastEventId: lastProgressEventId, lastHeartbeatAt: tasks.lastHeartbeatAt })
    .from(tasks)
    .where(eq(tasks.id, taskId))
    .limit(1);
  return row ?? { lastEventId: null, lastHeartbeatAt: null };
}

/**
 * SQL that holds when the task in `taskIdColumn` is open and has no progress newer than the audit
 * row id in `seenEventIdColumn`: a condition for the caller's own statement (one statement).
 */
export function openWithoutProgressSince(taskIdColumn: Column, seenEventIdColumn: Column): SQL {
  return sql`exists (
    select 1 from ${tasks} where ${tasks.id} = ${taskIdColumn}
      and ${notInArray(tasks.status, [...TERMINAL_STATES])}
      and coalesce(${lastProgressEventId}, 0) <= coalesce(${seenEventIdColumn}, 0)
  )`;
}

const terminal = sql.raw(TERMINAL_STATES.map((status) => `'${status}'`).join(', '));
const count = (query: SQL) => query.mapWith(Number);

/** What a candidate carries: the routing facts (open dependencies, the sibling-sequence bar, subtasks) and the progress marks. */
const candidateFields = {
  id: tasks.id,
  title: tasks.title,
  status: tasks.status,
  team: tasks.team,
  taskType: tasks.taskType,
  complexity: tasks.complexity,
  priority: tasks.priority,
  assignedTo: tasks.assignedTo,
  activeClaimantId: tasks.activeClaimantId,
  parentTaskId: tasks.parentTaskId,
  projectId: tasks.projectId,
  markers: tasks.markers,
  lastHeartbeatAt: tasks.lastHeartbeatAt,
  lastEventId: lastProgressEventId,
  openDependencies: count(sql`(
    select count(*) from tasks d
    where d.id = any("tasks"."dependency_ids") and d.status not in (${terminal})
  )`),
  sequenceHeld: sql<boolean>`(
    "tasks"."parent_task_id" is not null and "tasks"."sequence" > 0 and exists (
      select 1 from tasks s
      where s.parent_task_id = "tasks"."parent_task_id" and s.id <> "tasks"."id"
        and s.sequence < "tasks"."sequence" and s.status not in (${terminal})
    )
  )`.mapWith(Boolean),
  subtasks: count(sql`(select count(*) from tasks c where c.parent_task_id = "tasks"."id")`),
  openSubtasks: count(sql`(
    select count(*) from tasks c where c.parent_task_id = "tasks"."id" and c.status not in (${terminal})
  )`),
};

/**
 * The not-held tasks in `statuses`, most urgent first (priority, sequence, age), at most `limit`,
 * each left-joined with the caller's per-task table (`joined.table` on `joined.on`, its columns as
 * `joined.fields`): one statement, whatever the caller keeps beside a task.
 */
export function dispatchCandidates<TFields extends SelectedFields>(
  db: Db,
  query: {
    statuses: readonly TaskStatus[];
    limit: number;
    joined: { table: PgTable; on: (taskId: Column) => SQL; fields: TFields };
  },
) {
  return db
    .select({ ...candidateFields, ...query.joined.fields })
    .from(tasks)
    .leftJoin(query.joined.table, query.joined.on(tasks.id))
    .where(and(inArray(tasks.status, [...query.statuses]), eq(tasks.held, false)))
    .orderBy(asc(tasks.priority), asc(tasks.sequence), asc(tasks.createdAt))
    .limit(query.limit);
}

/**
 * Per agent, the tasks it holds as the single-active rule counts them: owned in a busy state, or
 * claimed (any open status).
 */
export async function heldTasksByAgent(db: Db): Promise<Map<string, Set<string>>> {
  const rows = await db
    .select({
      id: tasks.id,
      assignedTo: tasks.assignedTo,
      claimant: tasks.activeClaimantId,
      status: tasks.status,
    })
    .from(tasks)
    .where(
      or(
        and(isNotNull(tasks.assignedTo), inArray(tasks.status, [...SINGLE_ACTIVE_BUSY_STATES])),
        and(isNotNull(tasks.activeClaimantId), notInArray(tasks.status, [...TERMINAL_STATES])),
      ),
    );
  const held = new Map<string, Set<string>>();
  const add = (agentId: string, taskId: string) => {
    const set = held.get(agentId) ?? new Set<string>();
    set.add(taskId);
    held.set(agentId, set);
  };
  for (const row of rows) {
    if (row.assignedTo && (SINGLE_ACTIVE_BUSY_STATES as readonly string[]).includes(row.status)) {
      add(row.assignedTo, row.id);
    }
    if (row.claimant) add(row.claimant, row.id);
  }
  return held;
}

/** Ids of the tasks in `statuses` whose active claimant is one of `agentIds`. */
export function tasksClaimedBy(db: Db, agentIds: readonly string[], statuses: readonly TaskStatus[]) {
  return db
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(inArray(tasks.status, [...statuses]), inArray(tasks.activeClaimantId, [...agentIds])));
}

/** A claim's last sign of life: its heartbeat, else its claim time, else the task's last update. */
const claimHeartbeat = sql<string>`coalesce(${tasks.lastHeartbeatAt}, ${tasks.claimedAt}, ${tasks.updatedAt})`;

/** The tasks in `statuses` whose claim showed no sign of life since `cutoff`, with who holds them. */
export function staleClaims(db: Db, statuses: readonly TaskStatus[], cutoff: Date) {
  return db
    .select({
      id: tasks.id,
      title: tasks.title,
      claimant: sql<string | null>`coalesce(${tasks.activeClaimantId}, ${tasks.assignedTo})`,
      heartbeat: claimHeartbeat,
    })
    .from(tasks)
    .where(
      and(
        inArray(tasks.status, [...statuses]),
        sql`${claimHeartbeat} < ${cutoff.toISOString()}::timestamptz`,
      ),
    );
}

/** Per task of `taskIds`: its active claimant and claim heartbeat (else its claim time). */
export async function claimHeartbeats(
  db: Db,
  taskIds: readonly string[],
): Promise<Map<string, { claimant: string | null; heartbeat: Date | null }>> {
  if (taskIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: tasks.id,
      claimant: tasks.activeClaimantId,
      lastHeartbeatAt: tasks.lastHeartbeatAt,
      claimedAt: tasks.claimedAt,
    })
    .from(tasks)
    .where(inArray(tasks.id, [...taskIds]));
  return new Map(
    rows.map((row) => [row.id, { claimant: row.claimant, heartbeat: row.lastHeartbeatAt ?? row.claimedAt }]),
  );
}

/** What blocking a task needs to know: its status and owner (the pre-block snapshot) and its claimant. */
const blockFields = {
  id: tasks.id,
  title: tasks.title,
  status: tasks.status,
  assignedTo: tasks.assignedTo,
  activeClaimantId: tasks.activeClaimantId,
};

/** The tasks in `statuses` that have a budget of their own, with it. */
export function budgetedTasksIn(db: Db, statuses: readonly TaskStatus[]) {
  return db
    .select({ ...blockFields, budget: tasks.budgetUsd })
    .from(tasks)
    .where(and(isNotNull(tasks.budgetUsd), inArray(tasks.status, [...statuses])));
}

/** The project's tasks in `statuses`. */
export function projectTasksIn(db: Db, projectId: string, statuses: readonly TaskStatus[]) {
  return db
    .select(blockFields)
    .from(tasks)
    .where(and(eq(tasks.projectId, projectId), inArray(tasks.status, [...statuses])));
}

/** The task's row; null when there is none. */
export async function taskRow(db: Db, taskId: string) {
  const [row] = await db.select().from(tasks).where(eq(tasks.id, taskId)).limit(1);
  return row ?? null;
}
