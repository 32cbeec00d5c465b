/**
 * Named reads of tasks for other modules, so that none queries the tasks table itself: a task's
 * ancestry (root first, the task itself excluded: the workspaces' branch names and bases; four
 * levels at most, so a few primary-key reads), the project a task belongs to (the usage ledger), and
 * the open tasks an engine opened (its source), with their machine markers.
 */
import { and, desc, eq, inArray, notInArray } from 'drizzle-orm';
import type { Tx } from '../../platform/bus/index.js';
import type { Db } from '../../platform/db/client.js';
import { TERMINAL_STATES } from '../lifecycle/index.js';
import { tasks } from './schema.js';

export interface ChainTask {
  id: string;
  team: string;
  branchName: string | null;
  parentTaskId: string | null;
}

const MAX_ANCESTORS = 8;

export async function ancestorsOf(db: Db, task: Pick<ChainTask, 'parentTaskId'>): Promise<ChainTask[]> {
  const chain: ChainTask[] = [];
  let parentId = task.parentTaskId;
  while (parentId && chain.length < MAX_ANCESTORS) {
    const [parent] = await db
      .select({
        id: tasks.id,
        team: tasks.team,
        branchName: tasks.branchName,
        parentTaskId: tasks.parentTaskId,
      })
      .from(tasks)
      .where(eq(tasks.id, parentId));
    if (!parent) break;
    chain.unshift(parent);
    parentId = parent.parentTaskId;
  }
  return chain;
}

/** The project of a task; null when the task has none (a product or cell-map task) or does not exist. */
export async function projectOfTask(db: Db, taskId: string): Promise<string | null> {
  const [row] = await db
    .select({ projectId: tasks.projectId })
    .from(tasks)
    .where(eq(tasks.id, taskId))
    .limit(1);
  return row?.projectId ?? null;
}

/** The tasks opened by `source` (an engine) that are not completed or cancelled, newest first. */
export function openTasksFromSource(db: Db, source: string) {
  return db
    .select({
      id: tasks.id,
      title: tasks.title,
      status: tasks.status,
      createdAt: tasks.createdAt,
      markers: tasks.markers,
    })
    .from(tasks)
    .where(and(eq(tasks.source, source), notInArray(tasks.status, [...TERMINAL_STATES])))
    .orderBy(desc(tasks.createdAt), desc(tasks.id));
}

/** Whether a task exists, on the caller's handle (so inside its transaction). */
export async function taskExists(db: Db | Tx, taskId: string): Promise<boolean> {
  const rows = await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.id, taskId)).limit(1);
  return rows.length > 0;
}

/** Title and project of each of the given tasks, keyed by id (for labels: indexers, citations). */
export async function taskLabels(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, { title: string; projectId: string | null }>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .select({ id: tasks.id, title: tasks.title, projectId: tasks.projectId })
    .from(tasks)
    .where(inArray(tasks.id, unique));
  return new Map(rows.map((row) => [row.id, { title: row.title, projectId: row.projectId }]));
}
