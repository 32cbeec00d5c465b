/** Questions asked of the tables: actions available per role and state, and picking among route alternatives. */
import { describe, expect, it } from 'vitest';
import { actionsAvailable, chainFrom, mayPerform, pickAction } from './authorize.js';

describe('actionsAvailable', () => {
  it('lists what a developer may do on its in-progress task', () => {
    expect(actionsAvailable('developer', 'in_progress').sort()).toEqual(
      ['block', 'pause', 'submit_verification', 'unclaim'].sort(),
    );
  });
  it('lists the CEO’s sign-off actions', () => {
    expect(actionsAvailable('ceo', 'awaiting_ceo_approval').sort()).toEqual(
      ['cancel', 'ceo_approve', 'ceo_reject', 'ceo_reject_to_pool'].sort(),
    );
  });
  it('gives nobody anything on a terminal task', () => {
    expect(actionsAvailable('ceo', 'completed')).toEqual([]);
    expect(actionsAvailable('main_pm', 'cancelled')).toEqual([]);
  });
});

describe('pickAction', () => {
  const complete = ['complete', 'ceo_approve', 'pr_review_done'] as const;
  it('picks the alternative the role may perform', () => {
    expect(pickAction('cell_pm', 'awaiting_pm_review', complete)).toBe('complete');
    expect(pickAction('ceo', 'awaiting_ceo_approval', complete)).toBe('ceo_approve');
    expect(pickAction('pr_reviewer', 'in_progress', complete)).toBe('pr_review_done');
  });
  it('else the alternative with an edge from the state, so the refusal names who may', () => {
    expect(pickAction('ceo', 'awaiting_pm_review', complete)).toBe('complete');
    expect(pickAction('main_pm', 'awaiting_ceo_approval', complete)).toBe('ceo_approve');
  });
  it('else the first alternative', () => {
    expect(pickAction('developer', 'pending', complete)).toBe('complete');
  });
  it('agrees with mayPerform', () => {
    expect(mayPerform('qa', 'qa_pass', 'awaiting_qa')).toBe(true);
    expect(mayPerform('qa', 'qa_pass', 'awaiting_pm_review')).toBe(false);
  });
});

describe('chainFrom', () => {
  const submit = ['submit_verification', 'submit_qa'] as const;
  it('runs the whole chain from its first state', () => {
    expect(chainFrom('developer', 'in_progress', submit)).toEqual(['submit_verification', 'submit_qa']);
  });
  it('resumes a chain halfway', () => {
    expect(chainFrom('developer', 'verifying', submit)).toEqual(['submit_qa']);
  });
  it('falls back to the one action that explains the refusal', () => {
    expect(chainFrom('qa', 'in_progress', submit)).toEqual(['submit_verification']);
    expect(chainFrom('developer', 'pending', submit)).toEqual(['submit_verification']);
  });
});
