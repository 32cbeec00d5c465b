/**
 * SQL of the task domain that several operations share: loading rows (optionally locked) with
 * their row version, the per-cell project map, the audit trail, and the facts the holds and
 * roll-up rules are decided on. Every function takes the handle to use, so it can join a caller's
 * transaction; the hot unlocked reads are prepared statements (one per database handle).
 */
import { and, asc, eq, getTableColumns, inArray, notInArray, sql } from 'drizzle-orm';
import { type Db, perDatabase } from '../../platform/db/client.js';
import { TERMINAL_STATES } from '../lifecycle/index.js';
import { taskCellProjects, taskEvents, tasks } from './schema.js';
import type { TaskRow } from './types.js';

/**
 * A task row with the version it was read at (Postgres' `xmin`: every write of the row changes
 * it), so that a later write can be guarded to apply only if nobody wrote the row since.
 */
export type VersionedRow = TaskRow & { readonly version?: string };

/** Every task column, and the row version. */
export const VERSIONED_TASK = {
  ...getTableColumns(tasks),
  version: sql<string>`${tasks}.xmin::text`.as('version'),
};

const taskById = perDatabase((db) =>
  db
    .select(VERSIONED_TASK)
    .from(tasks)
    .where(eq(tasks.id, sql.placeholder('id')))
    .limit(1)
    .prepare('tasks_by_id'),
);

export async function loadTask(
  db: Db,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<VersionedRow | null> {
  const [row] = options.forUpdate
    ? await db.select(VERSIONED_TASK).from(tasks).where(eq(tasks.id, id)).limit(1).for('update')
    : await taskById(db).execute({ id });
  return row ?? null;
}

/** Only coordination tasks without a project or product can carry a per-cell map. */
export const mayHaveCellMap = (row: Pick<TaskRow, 'projectId' | 'productId'>): boolean =>
  row.projectId === null && row.productId === null;

/** Per-cell project maps of the given tasks (team → project id), by task id. */
export async function loadCellProjects(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, Record<string, string>>> {
  const maps = new Map<string, Record<string, string>>();
  if (ids.length === 0) return maps;
  const rows = await db
    .select()
    .from(taskCellProjects)
    .where(inArray(taskCellProjects.taskId, [...ids]))
    .orderBy(asc(taskCellProjects.team));
  for (const row of rows) {
    const map = maps.get(row.taskId) ?? {};
    map[row.team] = row.projectId;
    maps.set(row.taskId, map);
  }
  return maps;
}

export interface TaskEventInput {
  taskId: string;
  actorId: string;
  actorRole: string;
  action: string;
  fromStatus: string | null;
  toStatus: string | null;
  reason?: string | null;
  data?: Record<string, unknown>;
  createdAt?: Date;
}

export async function insertEvents(db: Db, events: readonly TaskEventInput[]): Promise<void> {
  if (events.length === 0) return;
  await db.insert(taskEvents).values(
    events.map((event) => ({
      ...event,
      reason: event.reason ?? null,
      data: event.data ?? {},
    })),
  );
}

export interface TaskBrief {
  id: string;
  title: string;
  status: string;
}

const brief = { id: tasks.id, title: tasks.title, status: tasks.status };

/** Id, title and status of the given tasks. */
export async function taskBriefs(db: Db, ids: readonly string[]): Promise<TaskBrief[]> {
  if (ids.length === 0) return [];
  return db
    .select(brief)
    .from(tasks)
    .where(inArray(tasks.id, [...ids]));
}

/** The non-terminal children of a task. */
export async function openSubtasks(db: Db, id: string): Promise<TaskBrief[]> {
  return db
    .select(brief)
    .from(tasks)
    .where(and(eq(tasks.parentTaskId, id), notInArray(tasks.status, [...TERMINAL_STATES])));
}

/** Sequence facts of every child of `parentId`. */
export async function siblingFacts(db: Db, parentId: string) {
  return db
    .select({
      ...brief,
      sequence: tasks.sequence,
      dependencyIds: tasks.dependencyIds,
      completedDependencyIds: tasks.completedDependencyIds,
    })
    .from(tasks)
    .where(eq(tasks.parentTaskId, parentId));
}

/** On completion: the task moves from its dependents' open dependencies to their completed ones. */
export async function settleDependents(db: Db, completedId: string, now: Date): Promise<void> {
  await db
    .update(tasks)
    .set({
      dependencyIds: sql`array_remove(${tasks.dependencyIds}, ${completedId}::uuid)`,
      completedDependencyIds: sql`array_append(array_remove(${tasks.completedDependencyIds}, ${completedId}::uuid), ${completedId}::uuid)`,
      updatedAt: now,
    })
    .where(sql`${tasks.dependencyIds} @> array[${completedId}::uuid]`);
}

const TASK_COLUMNS = Object.entries(getTableColumns(tasks));

/**
 * A task row from a raw SQL result (snake_case columns, driver values), as Drizzle would map it;
 * with its version when the result has a `version` column.
 */
export function taskRowFromRaw(raw: Record<string, unknown>): VersionedRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of TASK_COLUMNS) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  if (typeof raw.version === 'string') row.version = raw.version;
  return row as VersionedRow;
}
