/**
 * Named reads of task figures for the dashboards and the cockpit: open tasks per team and status,
 * tasks completed in a window (lead time, whether they were ever sent back), blocked tasks with
 * why, entries into a status, the progress audit rows of tasks in a window, brief rows by id, and
 * the root ancestor of tasks created in a window (provenance). Read-only; no module writes here.
 */
import { and, asc, eq, gte, inArray, isNotNull, lt, ne, notInArray, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../platform/db/client.js';
import { TERMINAL_STATES } from '../lifecycle/index.js';
import { taskEvents, tasks } from './schema.js';

export interface StatusCount {
  team: string;
  status: string;
  count: number;
}

export interface CompletedTask {
  id: string;
  team: string;
  createdAt: Date;
  completedAt: Date;
  /** Times it was sent back to needs_revision (by QA, a PR reviewer, a PM or an override). */
  revisions: number;
}

export interface BlockedTask {
  id: string;
  title: string;
  team: string;
  assignedTo: string | null;
  /** When it last entered `blocked` (its last update when no audit row says). */
  since: Date;
  reason: string | null;
}

export interface TaskBrief {
  id: string;
  title: string;
  status: string;
  team: string;
  assignedTo: string | null;
}

/** An audit row not written by the system. */
export interface ProgressEvent {
  taskId: string;
  actorId: string;
  action: string;
  at: Date;
}

/** A task created in a window with its root ancestor's source and the role that created the root. */
export interface TaskRoot {
  taskId: string;
  rootId: string;
  rootSource: string;
  rootCreatorRole: string | null;
}

/** Parent hops followed at most (tasks are at most four levels deep; the margin tolerates old data). */
const MAX_HOPS = 8;

export class TaskMetrics {
  constructor(private readonly db: Db) {}

  /** Open (non-terminal) tasks counted per team and status. */
  async openCounts(): Promise<StatusCount[]> {
    const rows = await this.db
      .select({ team: tasks.team, status: tasks.status, count: sql<number>`count(*)::int` })
      .from(tasks)
      .where(notInArray(tasks.status, [...TERMINAL_STATES]))
      .groupBy(tasks.team, tasks.status);
    return rows.map((row) => ({ ...row, count: Number(row.count) }));
  }

  /** Tasks completed in `[since, until)`, oldest completion first. */
  async completedBetween(since: Date, until: Date): Promise<CompletedTask[]> {
    const rows = await this.db
      .select({
        id: tasks.id,
        team: tasks.team,
        createdAt: tasks.createdAt,
        completedAt: tasks.completedAt,
        revisions: tasks.revisionCount,
      })
      .from(tasks)
      .where(
        and(
          eq(tasks.status, 'completed'),
          isNotNull(tasks.completedAt),
          gte(tasks.completedAt, since),
          lt(tasks.completedAt, until),
        ),
      )
      .orderBy(asc(tasks.completedAt));
    return rows.map((row) => ({ ...row, completedAt: row.completedAt! }));
  }

  /** Tasks blocked now, longest blocked first, with the reason they were blocked for. */
  async blocked(limit = 100): Promise<BlockedTask[]> {
    const entered = sql<string | null>`(
      select e.created_at from task_events e
      where e.task_id = "tasks"."id" and e.to_status = 'blocked' order by e.id desc limit 1
    )`;
    const reason = sql<string | null>`(
      select e.reason from task_events e
      where e.task_id = "tasks"."id" and e.to_status = 'blocked' order by e.id desc limit 1
    )`;
    const rows = await this.db
      .select({
        id: tasks.id,
        title: tasks.title,
        team: tasks.team,
        assignedTo: tasks.assignedTo,
        entered,
        updatedAt: tasks.updatedAt,
        reason,
      })
      .from(tasks)
      .where(eq(tasks.status, 'blocked'))
      .orderBy(asc(tasks.updatedAt))
      .limit(limit);
    return rows
      .map((row) => ({
        id: row.id,
        title: row.title,
        team: row.team,
        assignedTo: row.assignedTo,
        since: row.entered ? new Date(row.entered) : row.updatedAt,
        reason: row.reason,
      }))
      .sort((a, b) => a.since.getTime() - b.since.getTime());
  }

  /** How many times any task entered `status` in `[since, until)` (by a transition, not a stay-put). */
  async entriesInto(status: string, since: Date, until: Date): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(taskEvents)
      .where(
        and(
          eq(taskEvents.toStatus, status),
          sql`${taskEvents.fromStatus} is distinct from ${taskEvents.toStatus}`,
          gte(taskEvents.createdAt, since),
          lt(taskEvents.createdAt, until),
        ),
      );
    return Number(row?.count ?? 0);
  }

  /** The audit rows not written by the system on these tasks in `[since, until]`, oldest first. */
  async progressEvents(taskIds: readonly string[], since: Date, until: Date): Promise<ProgressEvent[]> {
    if (taskIds.length === 0) return [];
    return this.db
      .select({
        taskId: taskEvents.taskId,
        actorId: taskEvents.actorId,
        action: taskEvents.action,
        at: taskEvents.createdAt,
      })
      .from(taskEvents)
      .where(
        and(
          inArray(taskEvents.taskId, [...taskIds]),
          ne(taskEvents.actorRole, 'system'),
          gte(taskEvents.createdAt, since),
          sql`${taskEvents.createdAt} <= ${until.toISOString()}::timestamptz`,
        ),
      )
      .orderBy(asc(taskEvents.id));
  }

  /** Title, status, team and owner of these tasks (missing ids are absent). */
  async briefs(taskIds: readonly string[]): Promise<Map<string, TaskBrief>> {
    if (taskIds.length === 0) return new Map();
    const rows = await this.db
      .select({
        id: tasks.id,
        title: tasks.title,
        status: tasks.status,
        team: tasks.team,
        assignedTo: tasks.assignedTo,
      })
      .from(tasks)
      .where(inArray(tasks.id, [...taskIds]));
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Each task created in `[since, until)` with its root ancestor (itself when it has no parent), newest first. */
  async rootsOfCreated(since: Date, until: Date): Promise<TaskRoot[]> {
    const rows = await queryRows<{
      task_id: string;
      root_id: string;
      root_source: string;
      root_creator_role: string | null;
    }>(
      this.db,
      sql`with recursive chain as (
        select t.id as task_id, t.id as node_id, t.parent_task_id, t.created_at, 0 as hops
        from ${tasks} t
        where t.created_at >= ${since.toISOString()}::timestamptz and t.created_at < ${until.toISOString()}::timestamptz
        union all
        select c.task_id, p.id, p.parent_task_id, c.created_at, c.hops + 1
        from chain c join ${tasks} p on p.id = c.parent_task_id
        where c.hops < ${MAX_HOPS}
      )
      select c.task_id, r.id as root_id, r.source as root_source,
        (select e.actor_role from ${taskEvents} e where e.task_id = r.id and e.action = 'create'
          order by e.id limit 1) as root_creator_role
      from chain c join ${tasks} r on r.id = c.node_id
      where c.parent_task_id is null
      order by c.created_at desc`,
    );
    return rows.map((row) => ({
      taskId: row.task_id,
      rootId: row.root_id,
      rootSource: row.root_source,
      rootCreatorRole: row.root_creator_role,
    }));
  }
}
