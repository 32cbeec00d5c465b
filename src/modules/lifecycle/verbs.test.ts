/** Gateway verbs per role (reference A §9) derived from the tables: their states and what is valid now. */
import { describe, expect, it } from 'vitest';
import { decideTransition } from './authorize.js';
import { NON_TERMINAL_STATES } from './states.js';
import {
  findVerb,
  GATEWAY_ROUTE_ROLES,
  GATEWAY_ROUTES,
  gatewayRouteOf,
  VERBS,
  validVerbs,
  verbEntryAction,
  verbStates,
} from './verbs.js';

const states = (
  route: (typeof GATEWAY_ROUTES)[number],
  verb: string,
  role = GATEWAY_ROUTE_ROLES[route][0]!,
) => verbStates(findVerb(route, verb)!, role);

describe('gateway verbs', () => {
  it('names each route’s verbs once', () => {
    for (const route of GATEWAY_ROUTES) {
      const names = VERBS[route].map((v) => v.name);
      expect(new Set(names).size, route).toBe(names.length);
    }
  });

  it('only uses actions the route’s roles may perform somewhere', () => {
    for (const route of GATEWAY_ROUTES) {
      for (const verb of VERBS[route]) {
        for (const role of GATEWAY_ROUTE_ROLES[route]) {
          for (const action of verb.actions) {
            const somewhere = NON_TERMINAL_STATES.some((s) => decideTransition(role, action, s).ok);
            expect(somewhere, `${route}/${verb.name}: ${role} ${action}`).toBe(true);
          }
        }
      }
    }
  });

  it('maps roles to routes (the board route serves the product owner and head of marketing)', () => {
    expect(gatewayRouteOf('head_marketing')).toBe('board');
    expect(gatewayRouteOf('product_owner')).toBe('board');
    expect(gatewayRouteOf('auditor')).toBe('auditor');
    expect(gatewayRouteOf('ceo')).toBeUndefined();
  });

  it.each([
    ['developer', 'i_will_work_on', ['pending', 'claimed', 'in_progress', 'needs_revision']],
    ['developer', 'i_am_done', ['in_progress', 'verifying']],
    ['developer', 'i_am_blocked', ['in_progress']],
    ['developer', 'unclaim', ['claimed', 'in_progress', 'verifying', 'needs_revision']],
    ['developer', 'resume', ['paused']],
    ['qa', 'claim_review', ['awaiting_qa']],
    ['qa', 'pass', ['awaiting_qa']],
    ['qa', 'fail', ['awaiting_qa']],
    ['documenter', 'claim_doc_task', ['awaiting_documentation']],
    ['documenter', 'i_documented', ['awaiting_documentation']],
    ['cell_pm', 'i_will_plan', ['pending', 'claimed', 'in_progress', 'needs_revision']],
    ['cell_pm', 'submit_up', ['in_progress']],
    ['cell_pm', 'complete', ['awaiting_pm_review']],
    ['cell_pm', 'request_changes', ['awaiting_pm_review']],
    ['cell_pm', 'unblock', ['blocked']],
    ['main_pm', 'complete', ['in_progress', 'awaiting_pm_review']],
    ['main_pm', 'escalate_to_ceo', ['blocked', 'awaiting_pm_review']],
    ['main_pm', 'submit_root', ['in_progress']],
    ['board', 'escalate_to_ceo', ['blocked', 'awaiting_pm_review']],
    ['pr_reviewer', 'claim_pr_review', ['pending']],
    ['pr_reviewer', 'claim_gate_review', ['awaiting_pr_review']],
    ['pr_reviewer', 'post_pr_review', ['in_progress']],
    ['pr_reviewer', 'pr_pass', ['awaiting_pr_review']],
    ['pr_reviewer', 'pr_fail', ['awaiting_pr_review']],
  ] as const)('%s/%s is valid from %j', (route, verb, expected) => {
    expect(states(route, verb).sort()).toEqual([...expected].sort());
  });

  it('lists the valid verbs now, taskless ones always', () => {
    expect(validVerbs('developer', 'in_progress')).toEqual([
      'give_me_work',
      'i_am_blocked',
      'i_am_done',
      'i_am_idle',
      'i_will_work_on',
      'open_pr',
      'sync_branch',
      'unclaim',
    ]);
    expect(validVerbs('qa', 'awaiting_qa')).toEqual([
      'claim_review',
      'fail',
      'give_me_work',
      'i_am_idle',
      'pass',
      'unclaim',
    ]);
    expect(validVerbs('head_marketing', 'awaiting_pm_review')).toEqual([
      'escalate_to_ceo',
      'i_am_idle',
      'triage',
    ]);
    expect(validVerbs('developer')).toEqual(['give_me_work', 'i_am_idle']);
    expect(validVerbs('ceo', 'pending')).toEqual([]);
  });

  it('starts a composed verb at the action valid from the current state', () => {
    const done = findVerb('developer', 'i_am_done')!;
    expect(verbEntryAction(done, 'developer', 'in_progress')).toBe('submit_verification');
    expect(verbEntryAction(done, 'developer', 'verifying')).toBe('submit_qa');
    const complete = findVerb('main_pm', 'complete')!;
    expect(verbEntryAction(complete, 'main_pm', 'awaiting_pm_review')).toBe('escalate_to_ceo');
  });
});
