/**
 * Lifecycle transitions other than the claim itself: pick the action (one of a route's
 * alternatives, or a chain such as submit = submit_verification then submit_qa), check it against
 * the lifecycle tables and the task's facts (held, team, owner, self-review, reason, open subtasks,
 * open dependencies), and write the status, its effects and the audit rows all at once. A chain
 * starting with `claim` claims first through the atomic claim path.
 *
 * Optimistic first: the steps are decided on the row the caller holds (a view it was answered), else
 * on a first read, and written by one statement guarded by that row's version (audited-update.ts).
 * If the row was written meanwhile, or anything refuses, or the write needs more than one statement
 * (a completion settles dependents; a chain handing the claim around twice), the authoritative
 * path runs: from a fresh read, the row locked, decided again and written in one transaction.
 */
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
import { type AuditEvent, auditedUpdate, type ClaimantChange } from './audited-update.js';
import { claimTask } from './claim.js';
import type { TaskContext } from './context.js';
import { notAuthorized, refusalError, taskHeld, taskNotFound } from './errors.js';
import { openDependencies } from './holds.js';
import { noReviewPm, reviewPmFor } from './review-pm.js';
import { loadTask, openSubtasks, settleDependents, taskBriefs, type VersionedRow } from './task-store.js';
import { authorOf, type TaskChanges, transitionChanges, unblockTarget } from './transition-effects.js';
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
  observed?: VersionedRow,
): Promise<TaskRow> {
  const before = observed ?? (await loadTask(ctx.db, id));
  if (!before) throw taskNotFound(id);
  // A view in hand that turns out stale is dropped: the whole transition is decided again, from a
  // fresh read, as if no view had been given.
  const afresh = () => performTransition(ctx, id, plan, actor, input);
  let seen = before;
  let steps = stepsFor(plan, actor, before.status as TaskStatus);
  if (steps[0] === 'claim') {
    seen = await claimTask(ctx, id, actor, observed);
    steps = steps.slice(1);
    if (steps.length === 0) return seen;
  } else if (steps.length === 0) {
    return observed ? afresh() : before; // nothing applies: the task as it is
  }
  const needsPm = steps.some((action) => ACTION_RULES[action].assignee === 'review_pm');
  const reviewPmId = needsPm ? await reviewPmFor(ctx, seen.team) : null;
  const decide = (db: Db, row: TaskRow) =>
    planSteps(db, row, steps, actor, input, { now: ctx.clock.now(), reviewPmId });

  if (seen.version) {
    const optimistic = await decide(ctx.db, seen).catch(() => null);
    if (optimistic && !optimistic.completes && optimistic.claimants.length <= 1) {
      const written = await writePlan(ctx.db, seen, optimistic, seen.version);
      if (written) return written;
    }
  }
  if (seen === observed) return afresh();
  return ctx.db.transaction(async (tx) => {
    const row = await loadTask(tx, id, { forUpdate: true });
    if (!row) throw taskNotFound(id);
    const planned = await decide(tx, row);
    const updated = await writePlan(tx, row, planned);
    if (!updated) {
      throw conflict('invalid_state', `task ${row.id} changed while ${steps.join(', ')} was applied`);
    }
    if (planned.completes) await settleDependents(tx, row.id, planned.now);
    if (planned.claimants.length > 1) {
      for (const change of planned.claimants) {
        await syncClaimantState(ctx, tx, row.id, change.previous, change.next, planned.now);
      }
    }
    return updated;
  });
}

/** The steps decided on one row: the columns to write, the audit rows, the claim hand-overs. */
interface PlannedTransition {
  readonly set: TaskChanges;
  readonly events: AuditEvent[];
  readonly claimants: ClaimantChange[];
  /** A step completes the task (its dependents are settled). */
  readonly completes: boolean;
  readonly now: Date;
}

async function planSteps(
  db: Db,
  row: TaskRow,
  steps: readonly LifecycleAction[],
  actor: Actor,
  input: TransitionInput,
  effects: { now: Date; reviewPmId: string | null },
): Promise<PlannedTransition> {
  const set: TaskChanges = {};
  const events: AuditEvent[] = [];
  const claimants: ClaimantChange[] = [];
  let completes = false;
  let current = row;
  for (const action of steps) {
    const from = current.status as TaskStatus;
    const decision = decideTransition(actor.role, action, from);
    if (!decision.ok) throw refusalError(decision, { task_id: row.id, status: from, action });
    await checkPreconditions(db, current, action, actor, input);
    const to = action === 'unblock' ? unblockTarget(current, decision.targets) : decision.to;
    if (ACTION_RULES[action].assignee === 'review_pm' && !effects.reviewPmId) throw noReviewPm(current.team);
    const changes = transitionChanges(current, action, to, actor, effects);
    const next = { ...current, ...changes } as TaskRow;
    events.push({
      actorId: actor.id,
      actorRole: actor.role,
      action,
      fromStatus: from,
      toStatus: to,
      reason: input.reason?.trim() || null,
      data: next.assignedTo !== current.assignedTo ? { assigned_to: next.assignedTo } : {},
    });
    if (next.activeClaimantId !== current.activeClaimantId) {
      claimants.push({ previous: current.activeClaimantId, next: next.activeClaimantId });
    }
    if (to === 'completed') completes = true;
    Object.assign(set, changes);
    current = next;
  }
  return { set, events, claimants, completes, now: effects.now };
}

/**
 * The planned write of `row` as one statement, guarded by the status it was decided on (and the
 * version, on the optimistic path); one claim hand-over is mirrored on the roster by it.
 */
const writePlan = (db: Db, row: TaskRow, planned: PlannedTransition, version?: string) =>
  auditedUpdate(db, {
    id: row.id,
    set: planned.set,
    guard: { status: row.status, ...(version ? { version } : {}) },
    events: planned.events,
    ...(planned.claimants.length === 1 ? { claimant: planned.claimants[0]! } : {}),
    now: planned.now,
  });

/** Everything but role and state: held, team, ownership, self-review, reason, subtasks, dependencies. */
async function checkPreconditions(
  db: Db,
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
    const open = await openSubtasks(db, row.id);
    if (open.length > 0) {
      throw conflict('subtasks_open', `task ${row.id} still has ${open.length} open subtasks`, {
        task_id: row.id,
        subtasks: open,
      });
    }
  }
  if (action === 'unblock' && row.dependencyIds.length > 0) {
    const open = openDependencies(await taskBriefs(db, row.dependencyIds));
    if (open.length > 0) {
      throw conflict('dependencies_open', `task ${row.id} still waits for ${open.length} open dependencies`, {
        task_id: row.id,
        dependencies: open,
      });
    }
  }
}
