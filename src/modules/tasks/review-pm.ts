/**
 * The PM who reviews a task at awaiting_pm_review — the cell PM of the task's team, else the main
 * PM — and the assign-review-pm recovery seam (reference A §10.3): the dispatcher (or the CEO, or
 * the main PM) hands an awaiting_pm_review task to that PM as owner and claimant, since no claim
 * edge leads into that state.
 */
import { eq } from 'drizzle-orm';
import type { Team } from '../../platform/http/auth/identity.js';
import { conflict } from '../../platform/http/errors.js';
import { isCellTeam } from '../lifecycle/index.js';
import { syncClaimantState } from './agent-state.js';
import type { TaskContext } from './context.js';
import { invalidState, taskNotFound } from './errors.js';
import { tasks } from './schema.js';
import { insertEvents, loadTask } from './task-store.js';
import type { Actor, TaskRow } from './types.js';

/** Id of the PM reviewing a task of `team`, or null when the post (and the main PM's) is vacant. */
export async function reviewPmFor(ctx: TaskContext, team: string): Promise<string | null> {
  const cellPm = isCellTeam(team) ? await ctx.agents.cellPm(team as Team) : null;
  const pm = cellPm ?? (await ctx.agents.mainPm());
  return pm?.id ?? null;
}

export const noReviewPm = (team: string) =>
  conflict(
    'no_review_pm',
    `there is no PM to review a ${team} task (the cell PM and main PM posts are vacant)`,
  );

/** Assigns the reviewing PM as owner and claimant; a no-op (no audit row) when that is already so. */
export async function assignReviewPm(ctx: TaskContext, id: string, actor: Actor): Promise<TaskRow> {
  const before = await loadTask(ctx.db, id);
  if (!before) throw taskNotFound(id);
  const pmId = await reviewPmFor(ctx, before.team);
  if (!pmId) throw noReviewPm(before.team);
  return ctx.db.transaction(async (tx) => {
    const row = await loadTask(tx, id, { forUpdate: true });
    if (!row) throw taskNotFound(id);
    if (row.status !== 'awaiting_pm_review') {
      throw invalidState(`task ${id} is ${row.status}, not awaiting_pm_review`, {
        task_id: id,
        status: row.status,
      });
    }
    if (row.assignedTo === pmId && row.activeClaimantId === pmId && row.claimedBy === pmId) return row;
    const now = ctx.clock.now();
    const [updated] = await tx
      .update(tasks)
      .set({
        assignedTo: pmId,
        claimedBy: pmId,
        activeClaimantId: pmId,
        lastHeartbeatAt: now,
        updatedAt: now,
      })
      .where(eq(tasks.id, id))
      .returning();
    await insertEvents(tx, [
      {
        taskId: id,
        actorId: actor.id,
        actorRole: actor.role,
        action: 'assign_review_pm',
        fromStatus: row.status,
        toStatus: row.status,
        data: {
          assigned_to: pmId,
          previous_assignee: row.assignedTo,
          previous_claimant: row.activeClaimantId,
        },
        createdAt: now,
      },
    ]);
    await syncClaimantState(ctx, tx, id, row.activeClaimantId, pmId, now);
    return updated!;
  });
}
