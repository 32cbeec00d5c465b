/**
 * Named reads of tasks for other modules, so that none queries the tasks table itself: a task's
 * ancestry (root first, the task itself excluded: the workspaces' branch names and bases; four
 * levels at most, so a few primary-key reads), the project a task belongs to (the usage ledger),
 * the open tasks an engine opened (its source), with their machine markers, how many tasks still
 * reference a product or project (their delete guards), a related task's status as a SQL
 * expression (so a caller's single statement stays single), and the finished tasks with a branch
 * the git branch cleanup walks, with the open tasks that still hold those branches or descend from them.
 */
import {
  and,
  asc,
  type Column,
  count,
  desc,
  eq,
  inArray,
  isNotNull,
  isNull,
  ne,
  notInArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
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

/** How many tasks reference the product (its delete guard). */
export async function taskCountOfProduct(db: Db | Tx, productId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(tasks).where(eq(tasks.productId, productId));
  return row?.n ?? 0;
}

/** How many tasks reference the project (its delete guard). */
export async function taskCountOfProject(db: Db | Tx, projectId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(tasks).where(eq(tasks.projectId, projectId));
  return row?.n ?? 0;
}

/**
 * The status of the task whose id is in `taskIdColumn`, as a scalar subquery for the caller's own
 * statement (null when the column is null or the task is gone): one statement, no join on tasks.
 */
export function taskStatusOf(taskIdColumn: Column): SQL<string | null> {
  return sql<string | null>`(select ${tasks.status} from ${tasks} where ${tasks.id} = ${taskIdColumn})`;
}

/** A window of finished (terminal) tasks that still record a branch, oldest first by (updated_at, id). */
export async function finishedTasksWithBranch(
  db: Db,
  filter: {
    projectId: string | null;
    team: string | null;
    cursor: { updatedAt: string; id: string } | null;
    limit: number;
  },
) {
  const conditions: SQL[] = [inArray(tasks.status, [...TERMINAL_STATES]), isNotNull(tasks.branchName)];
  if (filter.projectId) conditions.push(eq(tasks.projectId, filter.projectId));
  if (filter.team) conditions.push(eq(tasks.team, filter.team));
  if (filter.cursor) {
    conditions.push(
      sql`(${tasks.updatedAt}, ${tasks.id}) > (${filter.cursor.updatedAt}::timestamptz, ${filter.cursor.id}::uuid)`,
    );
  }
  return db
    .select({
      task: tasks,
      cursorAt: sql<string>`to_char(${tasks.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(tasks)
    .where(and(...conditions))
    .orderBy(asc(tasks.updatedAt), asc(tasks.id))
    .limit(filter.limit);
}

/** The open tasks recording one of `branches`: their project and branch. */
export function openBranchHolders(db: Db, branches: readonly string[]) {
  return db
    .select({ projectId: tasks.projectId, branch: tasks.branchName })
    .from(tasks)
    .where(and(notInArray(tasks.status, [...TERMINAL_STATES]), inArray(tasks.branchName, [...branches])));
}

/** The parents among `parentIds` that have an open child (one row per open child). */
export function parentsWithOpenChild(db: Db, parentIds: readonly string[]) {
  return db
    .select({ parentId: tasks.parentTaskId })
    .from(tasks)
    .where(and(notInArray(tasks.status, [...TERMINAL_STATES]), inArray(tasks.parentTaskId, [...parentIds])));
}

/** Who holds a task (its status, assignee and active claimant); null when it does not exist. */
export async function taskHolding(db: Db | Tx, taskId: string) {
  const [row] = await db
    .select({
      id: tasks.id,
      status: tasks.status,
      assignedTo: tasks.assignedTo,
      activeClaimantId: tasks.activeClaimantId,
    })
    .from(tasks)
    .where(eq(tasks.id, taskId))
    .limit(1);
  return row ?? null;
}

/** A task's collision surface (what it intends to touch, migration, shared code); null when it does not exist. */
export async function taskCollisionSurface(db: Db, taskId: string) {
  const [row] = await db
    .select({
      id: tasks.id,
      parentTaskId: tasks.parentTaskId,
      projectId: tasks.projectId,
      intendsToTouch: tasks.intendsToTouch,
      addsMigration: tasks.addsMigration,
      touchesShared: tasks.touchesShared,
    })
    .from(tasks)
    .where(eq(tasks.id, taskId))
    .limit(1);
  return row ?? null;
}

/**
 * The siblings a task may collide with: same parent, not the task itself, same project (both
 * without one counts as the same), not cancelled, with a surface of their own.
 */
export function collisionCandidates(
  db: Db,
  task: { id: string; parentTaskId: string; projectId: string | null },
) {
  return db
    .select({
      id: tasks.id,
      title: tasks.title,
      status: tasks.status,
      branchName: tasks.branchName,
      prNumber: tasks.prNumber,
      priority: tasks.priority,
      sequence: tasks.sequence,
      intendsToTouch: tasks.intendsToTouch,
      addsMigration: tasks.addsMigration,
      touchesShared: tasks.touchesShared,
    })
    .from(tasks)
    .where(
      and(
        eq(tasks.parentTaskId, task.parentTaskId),
        ne(tasks.id, task.id),
        task.projectId ? eq(tasks.projectId, task.projectId) : isNull(tasks.projectId),
        ne(tasks.status, 'cancelled'),
        or(
          sql`cardinality(${tasks.intendsToTouch}) > 0`,
          eq(tasks.addsMigration, true),
          eq(tasks.touchesShared, true),
        ),
      ),
    );
}
