/**
 * Reading a task's record and writing its outcome row. Set-based: one statement per kind of record
 * for a whole batch of tasks (the keeper refreshes one, a rebuild hundreds at a time), then one
 * upsert. A row is replaced only by a fold that has seen at least as much of the record (its
 * watermark), so two replicas refreshing the same task at once never leave the older fold behind.
 */
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { findingsOnTasks } from '../findings/index.js';
import { runsOnTasks } from '../runtime/index.js';
import { auditTrailsOf, tasksForOutcomes } from '../tasks/index.js';
import { usageOfTasks } from '../usage/index.js';
import { type OutcomeInputs, outcomeOf, type TaskOutcome } from './outcome.js';
import { taskOutcomes } from './schema.js';

/** The record of each task in `ids` that exists, read through its owners' named reads. */
export async function loadRecords(db: Db, ids: readonly string[]): Promise<OutcomeInputs[]> {
  if (ids.length === 0) return [];
  const [taskRows, events, runs, findings, usage] = await Promise.all([
    tasksForOutcomes(db, ids),
    auditTrailsOf(db, ids),
    runsOnTasks(db, ids),
    findingsOnTasks(db, ids),
    usageOfTasks(db, ids),
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
    task,
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
