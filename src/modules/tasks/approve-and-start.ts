/**
 * The CEO's approve-and-start (reference C §7.16): confirms a pending task a human has looked at
 * and hands it to the main PM to plan — team main_pm, a code task retyped as planning (the main
 * PM never owns code), `confirmed_by_human` — without changing its status. An umbrella's held
 * subtasks are released. Approving again is a no-op.
 */
import { and, eq } from 'drizzle-orm';
import { conflict } from '../../platform/http/errors.js';
import { syncClaimantState } from './agent-state.js';
import type { TaskContext } from './context.js';
import { invalidState, taskHeld, taskNotFound } from './errors.js';
import { tasks } from './schema.js';
import { insertEvents, loadTask } from './task-store.js';
import type { Actor, TaskRow } from './types.js';

export async function approveAndStart(
  ctx: TaskContext,
  id: string,
  notes: string,
  actor: Actor,
): Promise<TaskRow> {
  const before = await loadTask(ctx.db, id);
  if (!before) throw taskNotFound(id);
  const mainPm = await ctx.agents.mainPm();
  if (!mainPm) throw conflict('no_main_pm', 'the main PM post is vacant');
  return ctx.db.transaction(async (tx) => {
    const row = await loadTask(tx, id, { forUpdate: true });
    if (!row) throw taskNotFound(id);
    if (row.held) throw taskHeld(id);
    if (row.status !== 'pending') {
      throw invalidState(`only a pending task can be approved and started; this one is ${row.status}`, {
        task_id: id,
        status: row.status,
      });
    }
    if (row.confirmedByHuman && row.assignedTo === mainPm.id && row.team === 'main_pm') return row;
    const now = ctx.clock.now();
    const retyped = row.taskType === 'code';
    const [updated] = await tx
      .update(tasks)
      .set({
        assignedTo: mainPm.id,
        activeClaimantId: null,
        confirmedByHuman: true,
        team: 'main_pm',
        taskType: retyped ? 'planning' : row.taskType,
        markers: { ...row.markers, approved_and_started: { by: actor.id, at: now.toISOString() } },
        updatedAt: now,
      })
      .where(eq(tasks.id, id))
      .returning();
    const released =
      row.batchId !== null && row.parentTaskId === null
        ? await tx
            .update(tasks)
            .set({ held: false, updatedAt: now })
            .where(and(eq(tasks.parentTaskId, id), eq(tasks.held, true)))
            .returning({ id: tasks.id })
        : [];
    await insertEvents(tx, [
      {
        taskId: id,
        actorId: actor.id,
        actorRole: actor.role,
        action: 'approve_and_start',
        fromStatus: row.status,
        toStatus: row.status,
        reason: notes.trim(),
        data: {
          assigned_to: mainPm.id,
          previous_assignee: row.assignedTo,
          retyped_from: retyped ? 'code' : null,
          released_subtasks: released.map((r) => r.id),
        },
        createdAt: now,
      },
    ]);
    await syncClaimantState(ctx, tx, id, row.activeClaimantId, null, now);
    return updated!;
  });
}
