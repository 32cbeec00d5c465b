/**
 * The lifecycle routes, `POST /api/tasks/{id}/<path>`, as data: each names the lifecycle actions
 * behind it (alternatives, or a chain). Their summaries, reason rules and "who may, from where"
 * docs are derived from the lifecycle tables.
 */
import { ACTION_RULES, type LifecycleAction, TRANSITIONS } from '../lifecycle/index.js';

export interface ActionRoute {
  readonly path: string;
  readonly summary: string;
  readonly plan:
    | { readonly oneOf: readonly LifecycleAction[] }
    | { readonly chain: readonly LifecycleAction[] };
}

const oneOf = (path: string, summary: string, ...actions: LifecycleAction[]): ActionRoute => ({
  path,
  summary,
  plan: { oneOf: actions },
});

export const ACTION_ROUTES: readonly ActionRoute[] = [
  oneOf('claim', 'Claim the task (atomic: one winner, 409 already_claimed for the rest)', 'claim'),
  oneOf('activate', 'Move a backlog task into the pool', 'activate'),
  oneOf('start', 'Start work on a claimed task (or a claimed revision)', 'start'),
  {
    path: 'submit',
    summary: 'Submit the work: self-verification, then QA',
    plan: { chain: ['submit_verification', 'submit_qa'] },
  },
  oneOf('pass', 'QA passes the work (→ awaiting_documentation)', 'qa_pass'),
  oneOf('fail', 'QA fails the work (→ needs_revision, back to its author)', 'qa_fail'),
  oneOf('docs-complete', 'The documentation is done (→ awaiting_pm_review)', 'docs_complete'),
  oneOf('submit-for-review', 'Submit assembled work to the PR-review gate', 'submit_for_review'),
  oneOf('submit-pm-review', 'Submit work that needs no QA or PR gate to PM review', 'submit_pm_review'),
  oneOf('pr-pass', 'The PR reviewer passes the gate (→ awaiting_pm_review)', 'pr_pass'),
  oneOf('pr-fail', 'The PR reviewer fails the gate (→ needs_revision)', 'pr_fail'),
  oneOf(
    'complete',
    'Complete: PM completion, CEO approval, or the end of an external PR review',
    'complete',
    'ceo_approve',
    'pr_review_done',
  ),
  oneOf(
    'request-changes',
    'Send the work back for revision (PM or board review, or CEO rejection)',
    'request_changes',
    'ceo_reject',
  ),
  oneOf('reject-to-pool', 'The CEO rejects a coordination task back to the pool', 'ceo_reject_to_pool'),
  oneOf('escalate', 'Escalate to the CEO for sign-off', 'escalate_to_ceo'),
  oneOf('escalate-up', 'A PM escalates the task up the chain (→ blocked)', 'escalate_up'),
  oneOf('block', 'Report being blocked (→ blocked)', 'block'),
  oneOf('unblock', 'Unblock: restore the pre-block state and owner, or release to the pool', 'unblock'),
  oneOf('pause', 'Pause work in progress', 'pause'),
  oneOf('resume', 'Resume paused work', 'resume'),
  oneOf('unclaim', 'Give the task up (back to its queue)', 'unclaim'),
  oneOf('release', 'The system releases a stale claim (ownership kept)', 'release'),
  oneOf('cancel', 'Cancel the task', 'cancel'),
];

export const routeActions = (route: ActionRoute): readonly LifecycleAction[] =>
  'oneOf' in route.plan ? route.plan.oneOf : route.plan.chain;

/** Markdown description of a route: who may take which edge, straight from the transition table. */
export function routeDescription(route: ActionRoute): string {
  const lines = routeActions(route).flatMap((action) => {
    const rule = ACTION_RULES[action];
    const edges = TRANSITIONS.filter((edge) => edge.action === action).map(
      (edge) => `  - ${edge.from} → ${edge.to}: ${edge.roles.join(', ')}`,
    );
    const notes = [
      rule.ownerOnly ? 'owner only' : null,
      rule.selfReviewBlocked ? 'not by the work’s author' : null,
      rule.reason.required ? `reason ≥ ${rule.reason.minLength} characters` : null,
    ].filter(Boolean);
    return [`- \`${action}\` — ${rule.summary}${notes.length ? ` (${notes.join('; ')})` : ''}`, ...edges];
  });
  return [
    'Authorised by the lifecycle tables against the caller’s proven identity: 403 `not_authorized` when the role ' +
      '(or team, or ownership) does not allow it, 409 `invalid_state` when the task’s state does not.',
    '',
    ...lines,
  ].join('\n');
}
