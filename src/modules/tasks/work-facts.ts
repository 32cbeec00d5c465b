/**
 * Facts about the work on a task that are not lifecycle transitions: the plan, the typed notes per
 * role, machine markers, the branch and the pull request (what the gateway records as an agent
 * works), the hand-over of a working task to another agent of the cell (a PM's reassign), and the
 * claim heartbeat. Each change is written under a row lock with an audit row, except the heartbeat.
 */
import { and, eq } from 'drizzle-orm';
import { holdsClaim, type TaskStatus } from '../lifecycle/index.js';
import { syncClaimantState } from './agent-state.js';
import type { TaskContext } from './context.js';
import { invalidState, taskNotFound } from './errors.js';
import { tasks } from './schema.js';
import { insertEvents, loadTask } from './task-store.js';
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
  return ctx.db.transaction(async (tx) => {
    const row = await loadTask(tx, id, { forUpdate: true });
    if (!row) throw taskNotFound(id);
    const pr = facts.pull_request;
    const [updated] = await tx
      .update(tasks)
      .set({
        ...(facts.plan !== undefined ? { plan: facts.plan } : {}),
        ...(facts.notes ? { notes: { ...row.notes, ...facts.notes } } : {}),
        ...(facts.markers ? { markers: { ...row.markers, ...facts.markers } } : {}),
        ...(facts.branch_name !== undefined ? { branchName: facts.branch_name } : {}),
        ...(pr !== undefined
          ? { prNumber: pr?.number ?? null, prUrl: pr?.url ?? null, prCreated: pr !== null }
          : {}),
        updatedAt: now,
      })
      .where(eq(tasks.id, id))
      .returning();
    await insertEvents(tx, [
      {
        taskId: id,
        actorId: actor.id,
        actorRole: actor.role,
        action: audit.action,
        fromStatus: row.status,
        toStatus: row.status,
        data: { fields: Object.keys(facts), ...(audit.data ?? {}) },
        createdAt: now,
      },
    ]);
    return updated!;
  });
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

/** Refreshes the claim heartbeat when `agentId` holds the task's claim; false when it does not. */
export async function touchHeartbeat(ctx: TaskContext, id: string, agentId: string): Promise<boolean> {
  const touched = await ctx.db
    .update(tasks)
    .set({ lastHeartbeatAt: ctx.clock.now() })
    .where(and(eq(tasks.id, id), eq(tasks.activeClaimantId, agentId)))
    .returning({ id: tasks.id });
  return touched.length > 0;
}
