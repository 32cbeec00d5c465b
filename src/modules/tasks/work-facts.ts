/**
 * Facts about the work on a task that are not lifecycle transitions: the plan, the typed notes per
 * role, machine markers, the branch and the pull request (what the gateway records as an agent
 * works), the hand-over of a working task to another agent of the cell (a PM's reassign), and the
 * claim heartbeat. Each change is written with an audit row, except the heartbeat: facts by one
 * statement (notes and markers merged in SQL, so concurrent writers of different keys both land),
 * a hand-over under a row lock.
 */
import { and, eq, sql } from 'drizzle-orm';
import { perDatabase, queryRows } from '../../platform/db/client.js';
import { holdsClaim, type TaskStatus } from '../lifecycle/index.js';
import { syncClaimantState } from './agent-state.js';
import { auditedUpdate } from './audited-update.js';
import type { TaskContext } from './context.js';
import { invalidState, taskNotFound } from './errors.js';
import { tasks } from './schema.js';
import { insertEvents, loadTask, taskRowFromRaw, type VersionedRow } from './task-store.js';
import type { Actor, TaskRow } from './types.js';

/** What `recordFacts` may write; notes and markers are merged key by key into the stored ones. */
export interface WorkFacts {
  plan?: Record<string, unknown>;
  notes?: Record<string, unknown>;
  markers?: Record<string, unknown>;
  branch_name?: string | null;
  pull_request?: { number: number; url: string } | null;
}

export async function recordWorkFacts(
  ctx: TaskContext,
  id: string,
  facts: WorkFacts,
  actor: Actor,
  audit: { action: string; data?: Record<string, unknown> },
): Promise<TaskRow> {
  const now = ctx.clock.now();
  const pr = facts.pull_request;
  const merged = (column: typeof tasks.notes | typeof tasks.markers, value: Record<string, unknown>) =>
    sql`${column} || ${JSON.stringify(value)}::jsonb`;
  const row = await auditedUpdate(ctx.db, {
    id,
    set: {
      ...(facts.plan !== undefined ? { plan: facts.plan } : {}),
      ...(facts.notes ? { notes: merged(tasks.notes, facts.notes) } : {}),
      ...(facts.markers ? { markers: merged(tasks.markers, facts.markers) } : {}),
      ...(facts.branch_name !== undefined ? { branchName: facts.branch_name } : {}),
      ...(pr !== undefined
        ? { prNumber: pr?.number ?? null, prUrl: pr?.url ?? null, prCreated: pr !== null }
        : {}),
      updatedAt: now,
    },
    events: [
      {
        actorId: actor.id,
        actorRole: actor.role,
        action: audit.action,
        data: { fields: Object.keys(facts), ...(audit.data ?? {}) },
      },
    ],
    now,
  });
  if (!row) throw taskNotFound(id);
  return row;
}

/** Hands a working task to `to` (owner and, in a working state, claimant); the status stays. */
export async function reassignTask(ctx: TaskContext, id: string, to: string, actor: Actor): Promise<TaskRow> {
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const row = await loadTask(tx, id, { forUpdate: true });
    if (!row) throw taskNotFound(id);
    const status = row.status as TaskStatus;
    if (!holdsClaim(status)) {
      throw invalidState(`task ${id} is ${status}; only a task someone works on can be reassigned`, {
        task_id: id,
        status,
      });
    }
    if (row.assignedTo === to) return row;
    const [updated] = await tx
      .update(tasks)
      .set({ assignedTo: to, claimedBy: to, activeClaimantId: to, lastHeartbeatAt: now, updatedAt: now })
      .where(eq(tasks.id, id))
      .returning();
    await insertEvents(tx, [
      {
        taskId: id,
        actorId: actor.id,
        actorRole: actor.role,
        action: 'reassign',
        fromStatus: status,
        toStatus: status,
        data: { assigned_to: to, previous_assignee: row.assignedTo },
        createdAt: now,
      },
    ]);
    await syncClaimantState(ctx, tx, id, row.activeClaimantId, to, now);
    return updated!;
  });
}

const heartbeatStatement = perDatabase((db) =>
  db
    .update(tasks)
    .set({ lastHeartbeatAt: sql`${sql.placeholder('at')}::timestamptz` })
    .where(and(eq(tasks.id, sql.placeholder('id')), eq(tasks.activeClaimantId, sql.placeholder('agent'))))
    .returning({ id: tasks.id })
    .prepare('tasks_heartbeat'),
);

/** Refreshes the claim heartbeat when `agentId` holds the task's claim; false when it does not. */
export async function touchHeartbeat(ctx: TaskContext, id: string, agentId: string): Promise<boolean> {
  const touched = await heartbeatStatement(ctx.db).execute({
    at: ctx.clock.now().toISOString(),
    id,
    agent: agentId,
  });
  return touched.length > 0;
}

/**
 * The task as it is now, its claim heartbeat refreshed first when `agentId` holds the claim: one
 * statement (the touched row, else the row as it was); null when there is no such task.
 */
export async function loadBeating(
  ctx: TaskContext,
  id: string,
  agentId: string,
): Promise<VersionedRow | null> {
  const at = ctx.clock.now().toISOString();
  const [raw] = await queryRows<Record<string, unknown>>(
    ctx.db,
    sql`with beat as (
      update ${tasks} set last_heartbeat_at = ${at}::timestamptz
      where id = ${id} and active_claimant_id = ${agentId}
      returning *, xmin::text as version
    )
    select * from beat
    union all
    select *, xmin::text as version from ${tasks} where id = ${id} and not exists (select 1 from beat)`,
  );
  return raw ? taskRowFromRaw(raw) : null;
}
