/**
 * Named reads of tasks for the evidence read model: a batch of tasks with the root each belongs to,
 * their audit trails in order, the task ids after a cursor (a rebuild's batches), and a task's title
 * as a SQL expression (so the scorecards' task lists stay one statement).
 */
import { asc, type Column, gt, inArray, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../platform/db/client.js';
import { taskEvents, tasks } from './schema.js';

export interface OutcomeTaskRow {
  id: string;
  parentTaskId: string | null;
  projectId: string | null;
  team: string;
  taskType: string;
  status: string;
  assignedTo: string | null;
  createdAt: Date;
  /** The root of the task's tree (itself for a root task). */
  rootTaskId: string;
}

export interface AuditEntry {
  taskId: string;
  id: number;
  actorId: string;
  actorRole: string;
  action: string;
  fromStatus: string | null;
  toStatus: string | null;
  at: Date;
}

/** Each task's root, up the parent chain. */
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

/** The tasks of `ids` that exist, each with its root. */
export async function tasksForOutcomes(db: Db, ids: readonly string[]): Promise<OutcomeTaskRow[]> {
  if (ids.length === 0) return [];
  const [rows, roots] = await Promise.all([
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
  ]);
  return rows.map((row) => ({ ...row, rootTaskId: roots.get(row.id) ?? row.id }));
}

/** The audit trails of the tasks of `ids`, in the order they were written. */
export async function auditTrailsOf(db: Db, ids: readonly string[]): Promise<AuditEntry[]> {
  if (ids.length === 0) return [];
  return db
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
    .orderBy(asc(taskEvents.id));
}

/** Up to `limit` task ids after `after`, in id order. */
export async function taskIdsAfter(db: Db, after: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: tasks.id })
    .from(tasks)
    .where(gt(tasks.id, after))
    .orderBy(asc(tasks.id))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** The title of the task whose id is in `taskIdColumn`, as a SQL expression. */
export function taskTitleOf(taskIdColumn: Column): SQL<string> {
  return sql<string>`(select ${tasks.title} from ${tasks} where ${tasks.id} = ${taskIdColumn})`;
}
