/**
 * Reading a task's record and writing its outcome row. Set-based: one statement per kind of record
 * for a whole batch of tasks (the keeper refreshes one, a rebuild hundreds at a time), then one
 * upsert. A row is replaced only by a fold that has seen at least as much of the record (its
 * watermark), so two replicas refreshing the same task at once never leave the older fold behind.
 */
import { asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../platform/db/client.js';
import { taskFindings } from '../findings/schema.js';
import { agentRuns } from '../runtime/schema.js';
import { taskEvents, tasks } from '../tasks/schema.js';
import { usageRecords } from '../usage/schema.js';
import { type OutcomeInputs, outcomeOf, type TaskOutcome } from './outcome.js';
import { taskOutcomes } from './schema.js';

/** Each task's root (itself for a root task), up the parent chain. */
async function rootsOf(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await queryRows<{ id: string; root: string }>(
    db,
    sql`
    with recursive up(id, at, parent) as (
      select t.id, t.id, t.parent_task_id from ${tasks} t
      where t.id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
      union all
      select up.id, p.id, p.parent_task_id from up join ${tasks} p on p.id = up.parent
    )
    select id, at as root from up where parent is null`,
  );
  return new Map(rows.map((row) => [row.id, row.root]));
}

/** The record of each task in `ids` that exists. */
export async function loadRecords(db: Db, ids: readonly string[]): Promise<OutcomeInputs[]> {
  if (ids.length === 0) return [];
  const [taskRows, roots, events, runs, findings, usage] = await Promise.all([
    db
      .select({
        id: tasks.id,
        parentTaskId: tasks.parentTaskId,
        projectId: tasks.projectId,
        team: tasks.team,
        taskType: tasks.taskType,
        status: tasks.status,
        assignedTo: tasks.assignedTo,
        createdAt: tasks.createdAt,
      })
      .from(tasks)
      .where(inArray(tasks.id, [...ids])),
    rootsOf(db, ids),
    db
      .select({
        taskId: taskEvents.taskId,
        id: taskEvents.id,
        actorId: taskEvents.actorId,
        actorRole: taskEvents.actorRole,
        action: taskEvents.action,
        fromStatus: taskEvents.fromStatus,
        toStatus: taskEvents.toStatus,
        at: taskEvents.createdAt,
      })
      .from(taskEvents)
      .where(inArray(taskEvents.taskId, [...ids]))
      .orderBy(asc(taskEvents.id)),
    db
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
      .orderBy(asc(agentRuns.startedAt), asc(agentRuns.id)),
    db
      .select({ taskId: taskFindings.taskId, severity: taskFindings.severity, status: taskFindings.status })
      .from(taskFindings)
      .where(inArray(taskFindings.taskId, [...ids])),
    db
      .select({
        taskId: usageRecords.taskId,
        inputTokens: sql<number>`coalesce(sum(${usageRecords.inputTokens}), 0)::float8`,
        outputTokens: sql<number>`coalesce(sum(${usageRecords.outputTokens}), 0)::float8`,
        costUsd: sql<number>`coalesce(sum(${usageRecords.costUsd}), 0)::float8`,
        rows: sql<number>`count(*)::int`,
      })
      .from(usageRecords)
      .where(inArray(usageRecords.taskId, [...ids]))
      .groupBy(usageRecords.taskId),
  ]);
  const byTask = <T extends { taskId: string | null }>(rows: readonly T[]) => {
    const map = new Map<string, T[]>();
    for (const row of rows) if (row.taskId) map.set(row.taskId, [...(map.get(row.taskId) ?? []), row]);
    return map;
  };
  const eventsOf = byTask(events);
  const runsOf = byTask(runs);
  const findingsOf = byTask(findings);
  const usageOf = new Map(usage.map((row) => [row.taskId, row]));
  return taskRows.map((task) => ({
    task: { ...task, rootTaskId: roots.get(task.id) ?? task.id },
    events: eventsOf.get(task.id) ?? [],
    runs: runsOf.get(task.id) ?? [],
    findings: findingsOf.get(task.id) ?? [],
    usage: usageOf.get(task.id) ?? { inputTokens: 0, outputTokens: 0, costUsd: 0, rows: 0 },
  }));
}

/** The row as stored. */
function rowOf(outcome: TaskOutcome) {
  const { findings, ...rest } = outcome;
  return {
    ...rest,
    findingsBlocker: findings.blocker,
    findingsMajor: findings.major,
    findingsMinor: findings.minor,
    findingsNit: findings.nit,
    updatedAt: new Date(),
  };
}

/** Folds and stores the outcome of each task in `ids` (a task gone has no row to keep). */
export async function refreshOutcomes(db: Db, ids: readonly string[]): Promise<number> {
  const records = await loadRecords(db, [...new Set(ids)]);
  if (records.length === 0) return 0;
  const rows = records.map((record) => rowOf(outcomeOf(record)));
  const columns = getTableColumns(taskOutcomes);
  await db
    .insert(taskOutcomes)
    .values(rows)
    .onConflictDoUpdate({
      target: taskOutcomes.taskId,
      set: Object.fromEntries(
        Object.entries(columns)
          .filter(([key]) => key !== 'taskId')
          .map(([key, column]) => [key, sql.raw(`excluded.${column.name}`)]),
      ),
      setWhere: sql`${taskOutcomes.watermark} <= excluded.watermark`,
    });
  return rows.length;
}

/** The stored outcome of a task, or null. */
export async function storedOutcome(db: Db, taskId: string) {
  const [row] = await db.select().from(taskOutcomes).where(eq(taskOutcomes.taskId, taskId));
  return row ?? null;
}
