/**
 * What a transition writes besides the status, as a pure function of the task, the action and the
 * actor: the new owner (from the action table's assignee effect), the single-claimant lock (held
 * only in the states where the owner works the task), the markers (work author, pre-block
 * snapshot), revision count, timestamps and heartbeat.
 */
import {
  ACTION_RULES,
  holdsClaim,
  type LifecycleAction,
  REVIEW_CLAIM_STATES,
  type TaskStatus,
} from '../lifecycle/index.js';
import type { tasks } from './schema.js';
import type { Actor, TaskRow } from './types.js';

export type TaskChanges = Partial<typeof tasks.$inferInsert>;

/** Snapshot taken when a task is blocked, so an unblock can restore it. */
export interface PreBlockSnapshot {
  status: TaskStatus;
  assigned_to: string | null;
  by: string;
  at: string;
}

export const preBlockOf = (row: Pick<TaskRow, 'markers'>): PreBlockSnapshot | undefined =>
  row.markers.pre_block as PreBlockSnapshot | undefined;

/** Who submitted the work under review (self-review is barred for them; revisions go back to them). */
export const authorOf = (row: Pick<TaskRow, 'markers'>): string | undefined =>
  typeof row.markers.original_developer === 'string' ? row.markers.original_developer : undefined;

/** Where an unblock goes: the pre-block state when the table allows it, else back to work if owned, else the pool. */
export function unblockTarget(
  row: Pick<TaskRow, 'markers' | 'assignedTo'>,
  targets: readonly TaskStatus[],
): TaskStatus {
  const snapshot = preBlockOf(row);
  if (snapshot && targets.includes(snapshot.status)) return snapshot.status;
  if (!snapshot && row.assignedTo && targets.includes('in_progress')) return 'in_progress';
  return targets.includes('pending') ? 'pending' : targets[0]!;
}

export interface EffectContext {
  readonly now: Date;
  /** The reviewing PM, resolved beforehand when the action hands the task to one. */
  readonly reviewPmId: string | null;
}

function nextAssignee(
  row: TaskRow,
  action: LifecycleAction,
  to: TaskStatus,
  actor: Actor,
  ctx: EffectContext,
) {
  switch (ACTION_RULES[action].assignee) {
    case 'keep':
      return row.assignedTo;
    case 'actor':
      return actor.id;
    case 'clear':
      return null;
    case 'author':
      return authorOf(row) ?? null;
    case 'review_pm':
      return ctx.reviewPmId;
    case 'pre_block':
      return to === 'pending' ? null : (preBlockOf(row)?.assigned_to ?? row.assignedTo);
  }
}

/** The columns a transition of `row` by `actor` through `action` to `to` writes. */
export function transitionChanges(
  row: TaskRow,
  action: LifecycleAction,
  to: TaskStatus,
  actor: Actor,
  ctx: EffectContext,
): TaskChanges {
  const rule = ACTION_RULES[action];
  const from = row.status as TaskStatus;
  const assignee = nextAssignee(row, action, to, actor, ctx);
  const markers: Record<string, unknown> = { ...row.markers };
  if (to === 'blocked') {
    const snapshot: PreBlockSnapshot = {
      status: from,
      assigned_to: row.assignedTo,
      by: actor.id,
      at: ctx.now.toISOString(),
    };
    markers.pre_block = snapshot;
    markers.blocker_raised_by = actor.id;
  }
  if (from === 'blocked' && to !== 'blocked') {
    delete markers.pre_block;
  }
  if (rule.marksAuthor) markers.original_developer = actor.id;

  const working = holdsClaim(to);
  return {
    status: to,
    assignedTo: assignee,
    claimedBy: assignee === null ? null : row.claimedBy,
    activeClaimantId: working ? assignee : null,
    lastHeartbeatAt: working ? ctx.now : null,
    markers,
    revisionCount: to === 'needs_revision' && from !== to ? row.revisionCount + 1 : row.revisionCount,
    ...(action === 'start' && !row.startedAt ? { startedAt: ctx.now } : {}),
    ...(to === 'completed' ? { completedAt: ctx.now } : {}),
    ...(action === 'docs_complete' ? { docsComplete: true } : {}),
    updatedAt: ctx.now,
  };
}

/** Queues the pipeline enters with the owner cleared (a role's pool, or the CEO's desk). */
const UNOWNED_QUEUES: readonly TaskStatus[] = [...REVIEW_CLAIM_STATES, 'awaiting_ceo_approval'];

/**
 * What an admin override (CEO god mode) of the status writes. The validator is bypassed, but the
 * bookkeeping is the same: leaving blocked restores the pre-block owner, the claim is held only in
 * working states and a forced entry into a role's queue clears the owner (so it can be claimed from
 * there, as in the pipeline), a revision counts, a
 * completion is stamped, and the override itself is marked.
 */
export function overrideChanges(
  row: TaskRow,
  to: TaskStatus,
  actor: Actor,
  ctx: { now: Date; forced: boolean },
): TaskChanges {
  const from = row.status as TaskStatus;
  const markers: Record<string, unknown> = { ...row.markers };
  let assignee = row.assignedTo;
  if (from === 'blocked' && to !== 'blocked') {
    assignee = preBlockOf(row)?.assigned_to ?? row.assignedTo;
    delete markers.pre_block;
  }
  if (UNOWNED_QUEUES.includes(to)) assignee = null;
  markers.admin_override = { by: actor.id, at: ctx.now.toISOString(), from, to, forced: ctx.forced };
  const working = holdsClaim(to);
  return {
    status: to,
    assignedTo: assignee,
    activeClaimantId: working ? assignee : null,
    lastHeartbeatAt: working ? ctx.now : null,
    markers,
    revisionCount: to === 'needs_revision' ? row.revisionCount + 1 : row.revisionCount,
    completedAt: to === 'completed' ? ctx.now : row.completedAt,
    updatedAt: ctx.now,
  };
}
