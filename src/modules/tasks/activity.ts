/**
 * Recent activity across all tasks: the newest audit rows (task moves, creations — engine
 * originations among them, by the task's `source` — edits, overrides) with the task's title and
 * source, newest first, pageable with `before` (an event id), optionally only since a time. What the panel's inbox activity
 * feed is seeded with; live updates then come from TASK_CHANGED on /ws/system.
 */
import { and, desc, eq, gte, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { TaskEventView } from './queries.js';
import { taskEvents, tasks } from './schema.js';

export interface TaskActivityView extends TaskEventView {
  task_title: string;
  /** Who opened the task: `manual`, or an engine (e.g. `engine:ci_watch`). */
  task_source: string;
}

export const ACTIVITY_LIMITS = { default: 50, max: 200 } as const;

export async function recentActivity(
  db: Db,
  limit: number,
  before?: number,
  since?: Date,
): Promise<TaskActivityView[]> {
  const rows = await db
    .select({ event: taskEvents, title: tasks.title, source: tasks.source })
    .from(taskEvents)
    .innerJoin(tasks, eq(tasks.id, taskEvents.taskId))
    .where(
      and(
        before === undefined ? undefined : lt(taskEvents.id, before),
        since === undefined ? undefined : gte(taskEvents.createdAt, since),
      ),
    )
    .orderBy(desc(taskEvents.id))
    .limit(limit);
  return rows.map(({ event, title, source }) => ({
    id: event.id,
    task_id: event.taskId,
    actor_id: event.actorId,
    actor_role: event.actorRole,
    action: event.action,
    from_status: event.fromStatus,
    to_status: event.toStatus,
    reason: event.reason,
    data: event.data,
    created_at: event.createdAt.toISOString(),
    task_title: title,
    task_source: source,
  }));
}
