/**
 * The transition table against an independently written expectation (reference A §3.1 plus the
 * operational edges we keep): every allowed (role, action, from → to) is allowed, nothing else is,
 * and a sample of forbidden moves per role is refused with the right flavor.
 */
import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../platform/http/auth/identity.js';
import type { LifecycleAction } from './actions.js';
import { decideTransition } from './authorize.js';
import { NON_TERMINAL_STATES, TASK_STATUSES, type TaskStatus, TERMINAL_STATES } from './states.js';
import { TRANSITIONS } from './transitions.js';

const WORKERS = 'developer,qa,documenter,cell_pm,main_pm';
const PMS = 'cell_pm,main_pm';
const ESCALATABLE = [
  'pending',
  'claimed',
  'in_progress',
  'paused',
  'verifying',
  'needs_revision',
  'awaiting_qa',
  'awaiting_documentation',
  'awaiting_pr_review',
  'awaiting_pm_review',
];

/** `action from>to roles` — the expected table, written out by hand. */
const EXPECTED_LINES = [
  `activate backlog>pending ${PMS},ceo`,
  'claim pending>claimed developer,documenter,cell_pm,main_pm,pr_reviewer',
  'claim needs_revision>needs_revision developer,cell_pm,main_pm',
  'claim awaiting_qa>awaiting_qa qa',
  'claim awaiting_documentation>awaiting_documentation documenter',
  'claim awaiting_pr_review>awaiting_pr_review pr_reviewer',
  `start claimed>in_progress ${WORKERS},pr_reviewer`,
  'start needs_revision>in_progress developer,cell_pm,main_pm',
  `block in_progress>blocked ${WORKERS}`,
  ...ESCALATABLE.map((from) => `escalate_up ${from}>blocked ${PMS}`),
  'pause in_progress>paused developer,cell_pm,main_pm',
  `resume paused>in_progress ${WORKERS}`,
  ...ESCALATABLE.map((to) => `unblock blocked>${to} ${PMS}`),
  'submit_verification in_progress>verifying developer',
  'submit_qa verifying>awaiting_qa developer',
  'pr_review_done in_progress>completed pr_reviewer',
  'qa_pass awaiting_qa>awaiting_documentation qa',
  'qa_fail awaiting_qa>needs_revision qa',
  'docs_complete awaiting_documentation>awaiting_pm_review documenter',
  `submit_for_review in_progress>awaiting_pr_review ${PMS}`,
  'pr_pass awaiting_pr_review>awaiting_pm_review pr_reviewer',
  'pr_fail awaiting_pr_review>needs_revision pr_reviewer',
  `submit_pm_review in_progress>awaiting_pm_review ${PMS},qa,documenter`,
  `complete awaiting_pm_review>completed ${PMS}`,
  `request_changes awaiting_pm_review>needs_revision ${PMS},product_owner,head_marketing`,
  'escalate_to_ceo awaiting_pm_review>awaiting_ceo_approval main_pm,product_owner,head_marketing',
  'escalate_to_ceo blocked>awaiting_ceo_approval main_pm,product_owner,head_marketing',
  'ceo_approve awaiting_ceo_approval>completed ceo',
  'ceo_reject awaiting_ceo_approval>needs_revision ceo',
  'ceo_reject_to_pool awaiting_ceo_approval>pending ceo',
  ...NON_TERMINAL_STATES.filter((s) => s !== 'awaiting_ceo_approval').map(
    (from) => `cancel ${from}>cancelled ${PMS},ceo`,
  ),
  'cancel awaiting_ceo_approval>cancelled ceo',
  ...['claimed', 'in_progress', 'verifying'].map((from) => `unclaim ${from}>pending ${WORKERS},pr_reviewer`),
  'unclaim needs_revision>needs_revision developer,cell_pm,main_pm',
  'unclaim awaiting_qa>awaiting_qa qa',
  'unclaim awaiting_documentation>awaiting_documentation documenter',
  'unclaim awaiting_pr_review>awaiting_pr_review pr_reviewer',
  'release claimed>pending system',
  'release in_progress>pending system',
];

interface Move {
  role: Role;
  action: LifecycleAction;
  from: TaskStatus;
  to: TaskStatus;
}

const key = (m: Move) => `${m.role} ${m.action} ${m.from}>${m.to}`;

const EXPECTED: Move[] = EXPECTED_LINES.flatMap((line) => {
  const [action, edge, roles] = line.split(' ') as [LifecycleAction, string, string];
  const [from, to] = edge.split('>') as [TaskStatus, TaskStatus];
  return roles.split(',').map((role) => ({ role: role as Role, action, from, to }));
});

describe('the transition table', () => {
  it('holds exactly the expected (role, action, from → to) moves', () => {
    const actual = TRANSITIONS.flatMap((edge) =>
      edge.roles.map((role) => key({ role, action: edge.action, from: edge.from, to: edge.to })),
    );
    expect(new Set(actual).size).toBe(actual.length);
    expect([...new Set(actual)].sort()).toEqual(EXPECTED.map(key).sort());
  });

  it('has an edge out of every non-terminal state and none out of a terminal one', () => {
    for (const status of NON_TERMINAL_STATES) {
      expect(TRANSITIONS.some((edge) => edge.from === status && edge.to !== status)).toBe(true);
    }
    for (const status of TERMINAL_STATES)
      expect(TRANSITIONS.filter((edge) => edge.from === status)).toEqual([]);
  });

  it('has no edge from awaiting_pm_review into claimed (the re-plan loop of the original)', () => {
    expect(TRANSITIONS.filter((e) => e.from === 'awaiting_pm_review' && e.to === 'claimed')).toEqual([]);
  });

  it('only ever enters the review queues through the pipeline actions', () => {
    const into = (to: TaskStatus) => [
      ...new Set(
        TRANSITIONS.filter((e) => e.to === to && e.from !== to && e.action !== 'unblock').map(
          (e) => e.action,
        ),
      ),
    ];
    expect(into('awaiting_qa')).toEqual(['submit_qa']);
    expect(into('awaiting_documentation')).toEqual(['qa_pass']);
    expect(into('awaiting_pr_review')).toEqual(['submit_for_review']);
    expect(into('awaiting_ceo_approval')).toEqual(['escalate_to_ceo']);
    expect(into('completed').sort()).toEqual(['ceo_approve', 'complete', 'pr_review_done']);
  });
});

describe.each(ROLES)('allowed moves of %s', (role) => {
  const moves = EXPECTED.filter((m) => m.role === role);
  it('every move in the table is allowed', () => {
    expect(moves.length === 0).toBe(['prompter', 'secretary', 'auditor'].includes(role));
    for (const move of moves) {
      const decision = decideTransition(role, move.action, move.from, move.to);
      expect(decision, key(move)).toMatchObject({ ok: true, to: move.to });
    }
  });
  it('no other (action, from → to) is allowed', () => {
    const allowed = new Set(moves.map(key));
    const actions = [...new Set(TRANSITIONS.map((e) => e.action))];
    for (const action of actions) {
      for (const from of TASK_STATUSES) {
        for (const to of TASK_STATUSES) {
          const move = { role, action, from, to };
          expect(decideTransition(role, action, from, to).ok, key(move)).toBe(allowed.has(key(move)));
        }
      }
    }
  });
});

/** [role, action, from, expected flavor] */
const FORBIDDEN: [Role, LifecycleAction, TaskStatus, 'not_authorized' | 'invalid_state'][] = [
  ['developer', 'qa_pass', 'awaiting_qa', 'not_authorized'],
  ['developer', 'complete', 'awaiting_pm_review', 'not_authorized'],
  ['developer', 'claim', 'awaiting_qa', 'not_authorized'],
  ['developer', 'submit_qa', 'in_progress', 'invalid_state'],
  ['developer', 'start', 'pending', 'invalid_state'],
  ['developer', 'cancel', 'pending', 'not_authorized'],
  ['developer', 'claim', 'completed', 'invalid_state'],
  ['qa', 'claim', 'pending', 'not_authorized'],
  ['qa', 'qa_pass', 'awaiting_documentation', 'invalid_state'],
  ['qa', 'submit_verification', 'in_progress', 'not_authorized'],
  ['qa', 'pause', 'in_progress', 'not_authorized'],
  ['documenter', 'docs_complete', 'awaiting_qa', 'invalid_state'],
  ['documenter', 'claim', 'awaiting_qa', 'not_authorized'],
  ['documenter', 'claim', 'needs_revision', 'not_authorized'],
  ['cell_pm', 'escalate_to_ceo', 'awaiting_pm_review', 'not_authorized'],
  ['cell_pm', 'complete', 'in_progress', 'invalid_state'],
  ['cell_pm', 'claim', 'awaiting_pm_review', 'invalid_state'],
  ['cell_pm', 'cancel', 'awaiting_ceo_approval', 'not_authorized'],
  ['cell_pm', 'cancel', 'completed', 'invalid_state'],
  ['main_pm', 'ceo_approve', 'awaiting_ceo_approval', 'not_authorized'],
  ['main_pm', 'pr_pass', 'awaiting_pr_review', 'not_authorized'],
  ['main_pm', 'unblock', 'in_progress', 'invalid_state'],
  ['product_owner', 'complete', 'awaiting_pm_review', 'not_authorized'],
  ['product_owner', 'claim', 'pending', 'not_authorized'],
  ['head_marketing', 'escalate_to_ceo', 'in_progress', 'invalid_state'],
  ['auditor', 'cancel', 'pending', 'not_authorized'],
  ['auditor', 'claim', 'pending', 'not_authorized'],
  ['pr_reviewer', 'pr_pass', 'awaiting_qa', 'invalid_state'],
  ['pr_reviewer', 'claim', 'needs_revision', 'not_authorized'],
  ['pr_reviewer', 'complete', 'awaiting_pm_review', 'not_authorized'],
  ['ceo', 'complete', 'awaiting_pm_review', 'not_authorized'],
  ['ceo', 'ceo_approve', 'awaiting_pm_review', 'invalid_state'],
  ['ceo', 'claim', 'pending', 'not_authorized'],
  ['ceo', 'cancel', 'cancelled', 'invalid_state'],
  ['system', 'release', 'awaiting_qa', 'invalid_state'],
  ['system', 'complete', 'awaiting_pm_review', 'not_authorized'],
  ['secretary', 'start', 'claimed', 'not_authorized'],
  ['prompter', 'activate', 'backlog', 'not_authorized'],
];

describe('forbidden moves', () => {
  it.each(FORBIDDEN)('%s may not %s from %s (%s)', (role, action, from, flavor) => {
    const decision = decideTransition(role, action, from);
    expect(decision.ok).toBe(false);
    if (!decision.ok) {
      expect(decision.flavor).toBe(flavor);
      expect(decision.message).not.toBe('');
    }
  });

  it('refuses a target the action does not lead to as invalid_state', () => {
    expect(decideTransition('developer', 'start', 'claimed', 'completed')).toMatchObject({
      ok: false,
      flavor: 'invalid_state',
    });
    expect(decideTransition('developer', 'claim', 'pending', 'in_progress')).toMatchObject({
      ok: false,
      flavor: 'invalid_state',
    });
  });
});
