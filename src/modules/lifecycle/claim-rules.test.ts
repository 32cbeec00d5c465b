/** Claim rules per role (reference A §3.3): what each role may claim, what a claim writes, and the refusal flavors. */
import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../platform/http/auth/identity.js';
import { claimableStatuses, claimTarget, decideClaim, isReviewClaim } from './claim-rules.js';
import { TASK_STATUSES, type TaskStatus } from './states.js';

const EXPECTED: Partial<Record<Role, TaskStatus[]>> = {
  developer: ['pending', 'needs_revision'],
  qa: ['awaiting_qa'],
  documenter: ['pending', 'awaiting_documentation'],
  cell_pm: ['pending', 'needs_revision'],
  main_pm: ['pending', 'needs_revision'],
  pr_reviewer: ['pending', 'awaiting_pr_review'],
};

describe('claim rules', () => {
  it.each(ROLES)('%s claims exactly its statuses', (role) => {
    const expected = EXPECTED[role] ?? [];
    expect([...claimableStatuses(role)].sort()).toEqual([...expected].sort());
    for (const status of TASK_STATUSES) expect(decideClaim(role, status).ok).toBe(expected.includes(status));
  });

  it('moves only a pending task (to claimed); every other claim keeps the status', () => {
    expect(claimTarget('pending')).toBe('claimed');
    for (const status of [
      'needs_revision',
      'awaiting_qa',
      'awaiting_documentation',
      'awaiting_pr_review',
    ] as const) {
      expect(claimTarget(status)).toBe(status);
      expect(
        decideClaim(
          status === 'awaiting_qa'
            ? 'qa'
            : status === 'awaiting_documentation'
              ? 'documenter'
              : status === 'awaiting_pr_review'
                ? 'pr_reviewer'
                : 'developer',
          status,
        ),
      ).toMatchObject({ ok: true, to: status });
    }
  });

  it('treats the QA, documentation and PR-gate queues as review claims', () => {
    expect(TASK_STATUSES.filter(isReviewClaim)).toEqual([
      'awaiting_qa',
      'awaiting_documentation',
      'awaiting_pr_review',
    ]);
  });

  it.each([
    ['qa', 'pending', 'not_authorized'],
    ['developer', 'awaiting_documentation', 'not_authorized'],
    ['documenter', 'awaiting_pr_review', 'not_authorized'],
    ['ceo', 'pending', 'not_authorized'],
    ['product_owner', 'needs_revision', 'not_authorized'],
    ['auditor', 'awaiting_qa', 'not_authorized'],
    ['developer', 'in_progress', 'invalid_state'],
    ['developer', 'awaiting_pm_review', 'invalid_state'],
    ['qa', 'completed', 'invalid_state'],
    ['pr_reviewer', 'backlog', 'invalid_state'],
  ] as const)('%s claiming a task in %s is %s', (role, status, flavor) => {
    expect(decideClaim(role, status)).toMatchObject({ ok: false, flavor });
  });
});
