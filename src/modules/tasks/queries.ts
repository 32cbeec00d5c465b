/**
 * Reading tasks: views of rows, a filtered page (newest first; offset or keyset-cursor
 * pagination), and a task's audit trail. Each view remembers the row (and row version) it was
 * made from, so that an operation handed the view back need not read the task again.
 */

import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { unprocessable } from '../../platform/http/errors.js';
import { isUuid } from '../../platform/ids.js';
import type { AgentsService } from '../agents/index.js';
import type { CellMaps } from './cell-maps.js';
import { taskEvents, tasks } from './schema.js';
import { VERSIONED_TASK, type VersionedRow } from './task-store.js';
import type { TaskListFilter } from './types.js';
import { type TaskView, toTaskView } from './view.js';

const rowsOfViews = new WeakMap<TaskView, VersionedRow>();

/** The row (with its version) a view of `viewsOf` was made from; undefined for any other object. */
export const rowOfView = (view: TaskView): VersionedRow | undefined => rowsOfViews.get(view);

/** Views of rows, with their per-cell project maps (known ones from the cache, the others in one query). */
export async function viewsOf(
  db: Db,
  cellMaps: CellMaps,
  rows: readonly VersionedRow[],
): Promise<TaskView[]> {
  const maps = await cellMaps.of(db, rows);
  return rows.map((row) => {
    const view = toTaskView(row, { ...maps.get(row.id) });
    rowsOfViews.set(view, row);
    return view;
  });
}

export const encodeCursor = (id: string): string => Buffer.from(`task:${id}`).toString('base64url');

function decodeCursor(cursor: string): string {
  const decoded = Buffer.from(cursor, 'base64url').toString();
  const id = decoded.startsWith('task:') ? decoded.slice(5) : '';
  if (!isUuid(id))
    throw unprocessable('the request is invalid', [
      { field: 'query.cursor', message: 'is not a cursor this API issued' },
    ]);
  return id;
}

/** Escapes LIKE's wildcards so the search text matches literally. */
const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Tasks whose title contains `text` or whose id starts with it, in any case. */
export function textMatch(text: string): SQL {
  const literal = likeLiteral(text.trim());
  return sql`(${tasks.title} ilike ${`%${literal}%`} or ${tasks.id}::text ilike ${`${literal}%`})`;
}

export async function listTasks(
  db: Db,
  cellMaps: CellMaps,
  agents: Pick<AgentsService, 'identify'>,
  filter: TaskListFilter,
): Promise<{ tasks: TaskView[]; next_cursor: string | null }> {
  if (filter.cursor !== undefined && filter.offset !== undefined) {
    throw unprocessable('the request is invalid', [
      { field: 'query.cursor', message: 'use either cursor or offset, not both' },
    ]);
  }
  const limit = filter.limit ?? 50;
  const conditions: SQL[] = [];
  if (filter.status?.length) conditions.push(inArray(tasks.status, filter.status));
  if (filter.team) conditions.push(eq(tasks.team, filter.team));
  if (filter.project_id) conditions.push(eq(tasks.projectId, filter.project_id));
  if (filter.parent_task_id) conditions.push(eq(tasks.parentTaskId, filter.parent_task_id));
  if (filter.source) conditions.push(eq(tasks.source, filter.source));
  if (filter.q) conditions.push(textMatch(filter.q));
  if (filter.assigned_to) {
    const agent = await agents.identify(filter.assigned_to);
    if (!agent) {
      throw unprocessable('the request is invalid', [
        { field: 'query.assigned_to', message: `there is no agent "${filter.assigned_to}"` },
      ]);
    }
    conditions.push(eq(tasks.assignedTo, agent.id));
  }
  if (filter.cursor !== undefined) {
    const after = decodeCursor(filter.cursor);
    conditions.push(
      sql`(${tasks.createdAt}, ${tasks.id}) < (select c.created_at, c.id from tasks c where c.id = ${after})`,
    );
  }
  const rows = await db
    .select(VERSIONED_TASK)
    .from(tasks)
    .where(and(...conditions))
    .orderBy(desc(tasks.createdAt), desc(tasks.id))
    .limit(limit + 1)
    .offset(filter.offset ?? 0);
  const page = rows.slice(0, limit);
  const more = rows.length > limit;
  return {
    tasks: await viewsOf(db, cellMaps, page),
    next_cursor: more ? encodeCursor(page.at(-1)!.id) : null,
  };
}

export interface TaskEventView {
  id: number;
  task_id: string;
  actor_id: string;
  actor_role: string;
  action: string;
  from_status: string | null;
  to_status: string | null;
  reason: string | null;
  data: Record<string, unknown>;
  created_at: string;
}

/** A task's audit trail, oldest first. */
export async function taskEventViews(db: Db, taskId: string): Promise<TaskEventView[]> {
  const rows = await db
    .select()
    .from(taskEvents)
    .where(eq(taskEvents.taskId, taskId))
    .orderBy(asc(taskEvents.id));
  return rows.map((row) => ({
    id: row.id,
    task_id: row.taskId,
    actor_id: row.actorId,
    actor_role: row.actorRole,
    action: row.action,
    from_status: row.fromStatus,
    to_status: row.toStatus,
    reason: row.reason,
    data: row.data,
    created_at: row.createdAt.toISOString(),
  }));
}
