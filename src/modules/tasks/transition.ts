/**
 * Lifecycle transitions other than the claim itself: pick the action (one of a route's
 * alternatives, or a chain such as submit = submit_verification then submit_qa), check it against
 * the lifecycle tables and the task's facts (held, team, owner, self-review, reason, open subtasks,
 * open dependencies), write the status and its effects under a row lock, and the audit rows, in one
 * transaction. A chain starting with `claim` claims first through the atomic claim path.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { conflict, unprocessable } from '../../platform/http/errors.js';
import {
  ACTION_RULES,
  chainFrom,
  decideTransition,
  type LifecycleAction,
  pickAction,
  type TaskStatus,
  teamMatches,
} from '../lifecycle/index.js';
import { syncClaimantState } from './agent-state.js';
import { claimTask } from './claim.js';
import type { TaskContext } from './context.js';
import { notAuthorized, refusalError, taskHeld, taskNotFound } from './errors.js';
import { openDependencies } from './holds.js';
import { noReviewPm, reviewPmFor } from './review-pm.js';
import { tasks } from './schema.js';
import {
  insertEvents,
  loadTask,
  openSubtasks,
  settleDependents,
  type TaskEventInput,
  taskBriefs,
} from './task-store.js';
import { authorOf, transitionChanges, unblockTarget } from './transition-effects.js';
import type { Actor, TaskRow, TransitionInput } from './types.js';

/** One action, one of several alternatives (the first that applies), or a chain run in order. */
export type ActionPlan =
  | LifecycleAction
  | { readonly oneOf: readonly LifecycleAction[] }
  | { readonly chain: readonly LifecycleAction[] };

/** The actions to run for `plan` on a task in `status`. */
function stepsFor(plan: ActionPlan, actor: Actor, status: TaskStatus): LifecycleAction[] {
  if (typeof plan === 'string') return [plan];
  if ('oneOf' in plan) {
    const action = pickAction(actor.role, status, plan.oneOf);
    return action ? [action] : [];
  }
  return chainFrom(actor.role, status, plan.chain);
}

export async function performTransition(
  ctx: TaskContext,
  id: string,
  plan: ActionPlan,
  actor: Actor,
  input: TransitionInput = {},
): Promise<TaskRow> {
  const before = await loadTask(ctx.db, id);
  if (!before) throw taskNotFound(id);
  let steps = stepsFor(plan, actor, before.status as TaskStatus);
  if (steps[0] === 'claim') {
    const claimed = await claimTask(ctx, id, actor);
    steps = steps.slice(1);
    if (steps.length === 0) return claimed;
  }
  const needsPm = steps.some((action) => ACTION_RULES[action].assignee === 'review_pm');
  const reviewPmId = needsPm ? await reviewPmFor(ctx, before.team) : null;

  return ctx.db.transaction(async (tx) => {
    let row = await loadTask(tx, id, { forUpdate: true });
    if (!row) throw taskNotFound(id);
    const events: TaskEventInput[] = [];
    for (const action of steps) {
      row = await applyStep(ctx, tx, row, action, actor, input, reviewPmId, events);
    }
    await insertEvents(tx, events);
    return row;
  });
}

async function applyStep(
  ctx: TaskContext,
  tx: Db,
  row: TaskRow,
  action: LifecycleAction,
  actor: Actor,
  input: TransitionInput,
  reviewPmId: string | null,
  events: TaskEventInput[],
): Promise<TaskRow> {
  const from = row.status as TaskStatus;
  const decision = decideTransition(actor.role, action, from);
  if (!decision.ok) throw refusalError(decision, { task_id: row.id, status: from, action });
  await checkPreconditions(tx, row, action, actor, input);

  const to = action === 'unblock' ? unblockTarget(row, decision.targets) : decision.to;
  if (ACTION_RULES[action].assignee === 'review_pm' && !reviewPmId) throw noReviewPm(row.team);
  const now = ctx.clock.now();
  const changes = transitionChanges(row, action, to, actor, { now, reviewPmId });
  const [updated] = await tx
    .update(tasks)
    .set(changes)
    .where(and(eq(tasks.id, row.id), eq(tasks.status, from)))
    .returning();
  if (!updated) throw conflict('invalid_state', `task ${row.id} changed while ${action} was applied`);
  events.push({
    taskId: row.id,
    actorId: actor.id,
    actorRole: actor.role,
    action,
    fromStatus: from,
    toStatus: to,
    reason: input.reason?.trim() || null,
    data: updated.assignedTo !== row.assignedTo ? { assigned_to: updated.assignedTo } : {},
    createdAt: now,
  });
  if (to === 'completed') await settleDependents(tx, row.id, now);
  await syncClaimantState(ctx, tx, row.id, row.activeClaimantId, updated.activeClaimantId, now);
  return updated;
}

/** Everything but role and state: held, team, ownership, self-review, reason, subtasks, dependencies. */
async function checkPreconditions(
  tx: Db,
  row: TaskRow,
  action: LifecycleAction,
  actor: Actor,
  input: TransitionInput,
): Promise<void> {
  const rule = ACTION_RULES[action];
  const verb = action.replaceAll('_', ' ');
  if (row.held && (action === 'start' || action === 'resume')) throw taskHeld(row.id);
  if (!teamMatches(actor.role, actor.team, row.team)) {
    throw notAuthorized(`a ${actor.role} of team ${actor.team ?? 'none'} may not ${verb} a ${row.team} task`);
  }
  if (rule.ownerOnly && actor.id !== row.assignedTo && actor.id !== row.activeClaimantId) {
    throw notAuthorized(
      `only the task’s owner may ${verb} it${row.activeClaimantId ? '' : '; claim it first'}`,
      {
        task_id: row.id,
        assigned_to: row.assignedTo,
        active_claimant_id: row.activeClaimantId,
      },
    );
  }
  if (rule.selfReviewBlocked && authorOf(row) === actor.id) {
    throw notAuthorized('you may not review your own work (self-review blocked)');
  }
  const reason = input.reason?.trim() ?? '';
  if (rule.reason.required && reason.length < rule.reason.minLength) {
    throw unprocessable('the request is invalid', [
      {
        field: 'body.reason',
        message: `${verb} needs a reason of at least ${rule.reason.minLength} characters`,
      },
    ]);
  }
  if (rule.needsSubtasksTerminal) {
    const open = await openSubtasks(tx, row.id);
    if (open.length > 0) {
      throw conflict('subtasks_open', `task ${row.id} still has ${open.length} open subtasks`, {
        task_id: row.id,
        subtasks: open,
      });
    }
  }
  if (action === 'unblock' && row.dependencyIds.length > 0) {
    const open = openDependencies(await taskBriefs(tx, row.dependencyIds));
    if (open.length > 0) {
      throw conflict('dependencies_open', `task ${row.id} still waits for ${open.length} open dependencies`, {
        task_id: row.id,
        dependencies: open,
      });
    }
  }
}
