/**
 * Claim rules: which statuses each role may claim, and what a claim does to the status. Only a
 * pending task changes status (to claimed); every other claim keeps the status put — a revision
 * (needs_revision) is started from where it is, and review claims (QA, documenter, PR-review gate)
 * leave the task in its review queue so that the later pass/fail finds it there.
 */

import type { Decision } from './decision.js';
import type { Role } from './roles.js';
import type { TaskStatus } from './states.js';

export const CLAIM_RULES: Readonly<Partial<Record<Role, readonly TaskStatus[]>>> = {
  developer: ['pending', 'needs_revision'],
  qa: ['awaiting_qa'],
  documenter: ['pending', 'awaiting_documentation'],
  cell_pm: ['pending', 'needs_revision'],
  main_pm: ['pending', 'needs_revision'],
  pr_reviewer: ['pending', 'awaiting_pr_review'],
};

/** Status after a claim, where it changes; any other claimable status stays put. */
export const CLAIM_STATUS_WRITES: Readonly<Partial<Record<TaskStatus, TaskStatus>>> = {
  pending: 'claimed',
};

/** Review claims: the claimer reviews someone else's work, so the work's author may not claim. */
export const REVIEW_CLAIM_STATES = [
  'awaiting_qa',
  'awaiting_documentation',
  'awaiting_pr_review',
] as const satisfies readonly TaskStatus[];

export const claimableStatuses = (role: Role): readonly TaskStatus[] => CLAIM_RULES[role] ?? [];

export const claimTarget = (from: TaskStatus): TaskStatus => CLAIM_STATUS_WRITES[from] ?? from;

export const isReviewClaim = (status: TaskStatus): boolean =>
  (REVIEW_CLAIM_STATES as readonly string[]).includes(status);

/** Every status some role may claim. */
export const ALL_CLAIMABLE_STATUSES: readonly TaskStatus[] = [
  ...new Set(Object.values(CLAIM_RULES).flat()),
] as TaskStatus[];

/** Roles whose claim set holds `status`. */
export const claimersOf = (status: TaskStatus): Role[] =>
  (Object.entries(CLAIM_RULES) as [Role, readonly TaskStatus[]][])
    .filter(([, statuses]) => statuses.includes(status))
    .map(([role]) => role);

/**
 * May `role` claim a task in `status`? Refusals follow the original flavor rule: a status another
 * role may claim is `not_authorized` (it is someone else's queue); a status nobody claims is
 * `invalid_state`.
 */
export function decideClaim(role: Role, status: TaskStatus): Decision {
  if (claimableStatuses(role).includes(status)) {
    return {
      ok: true,
      action: 'claim',
      from: status,
      to: claimTarget(status),
      targets: [claimTarget(status)],
    };
  }
  const others = claimersOf(status);
  if (others.length > 0) {
    return {
      ok: false,
      flavor: 'not_authorized',
      message: `a ${role} may not claim a task in ${status}; that is the queue of ${others.join(', ')}`,
    };
  }
  return { ok: false, flavor: 'invalid_state', message: `a task in ${status} cannot be claimed` };
}
