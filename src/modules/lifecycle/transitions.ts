/**
 * The transition table: every edge source → target, the action that takes it, and the roles
 * allowed to. Claim and stay-put unclaim edges are derived from the claim rules, never re-typed.
 *
 * Sources: the canonical table of the original system (reference A §3.1) plus the operational
 * edges (§3.2) the pipeline needs. Kept operational edges:
 * - claimed / in_progress / verifying → pending (`unclaim` by the owner; `release` by the system,
 *   which keeps ownership — the stale-claim reaper);
 * - needs_revision → in_progress (`start`): a revision claim keeps the status, so the owner starts
 *   from needs_revision directly;
 * - awaiting_pm_review → needs_revision by the board too (`request_changes`);
 * - escalation (`escalate_up`, PMs) into blocked from every non-terminal state but backlog,
 *   blocked and awaiting_ceo_approval, and `unblock` back to any of those (restoring the snapshot
 *   taken on the way in).
 * Dropped, on purpose:
 * - in_progress → completed for PMs/board (use submit_pm_review then complete: every completion
 *   of a worked task passes a review state); only the external PR-review task keeps it;
 * - in_progress → awaiting_documentation / needs_revision for QA on a directly assigned task, and
 *   verifying → needs_revision (a dev's verification is self-verification; QA fails at awaiting_qa);
 * - awaiting_qa → blocked (QA parking): a PM escalates instead (`escalate_up`);
 * - needs_revision → pending on unclaim: giving a revision up keeps it in needs_revision (status
 *   stays, claim released), so the revision is not lost;
 * - awaiting_documentation → awaiting_pm_review by the developer.
 * There is deliberately no awaiting_pm_review → claimed edge (it looped re-planning in the original).
 */
import type { LifecycleAction } from './actions.js';
import { CLAIM_RULES, claimersOf, claimTarget, REVIEW_CLAIM_STATES } from './claim-rules.js';
import type { Role } from './roles.js';
import { NON_TERMINAL_STATES, type TaskStatus } from './states.js';

export type EdgeOrigin = 'canonical' | 'operational';

export interface TransitionEdge {
  readonly action: LifecycleAction;
  readonly from: TaskStatus;
  readonly to: TaskStatus;
  readonly roles: readonly Role[];
  readonly origin: EdgeOrigin;
}

const PMS = ['cell_pm', 'main_pm'] as const satisfies readonly Role[];
const BOARD = ['product_owner', 'head_marketing'] as const satisfies readonly Role[];
/** Roles that own and work tasks (and so may pause, resume, block or give them up). */
const WORKERS = ['developer', 'qa', 'documenter', 'cell_pm', 'main_pm'] as const satisfies readonly Role[];

/** States a PM may escalate from (into blocked), and so the states an unblock may restore. */
export const ESCALATION_SOURCES = [
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
] as const satisfies readonly TaskStatus[];

const edges = (
  action: LifecycleAction,
  from: readonly TaskStatus[],
  to: TaskStatus,
  roles: readonly Role[],
  origin: EdgeOrigin = 'canonical',
): TransitionEdge[] => from.map((source) => ({ action, from: source, to, roles, origin }));

/** Claim edges, one per claimable status, with the roles whose claim set holds it. */
const claimEdges = (): TransitionEdge[] =>
  [...new Set(Object.values(CLAIM_RULES).flat())].map((from) => ({
    action: 'claim',
    from,
    to: claimTarget(from),
    roles: claimersOf(from),
    origin: 'canonical',
  }));

/** Giving up a claim that kept the status (revision and review claims): the status stays, the claim goes. */
const stayPutUnclaimEdges = (): TransitionEdge[] =>
  (['needs_revision', ...REVIEW_CLAIM_STATES] as const).map((from) => ({
    action: 'unclaim',
    from,
    to: from,
    roles: claimersOf(from),
    origin: 'operational',
  }));

const CANCELLABLE = NON_TERMINAL_STATES.filter((status) => status !== 'awaiting_ceo_approval');

export const TRANSITIONS: readonly TransitionEdge[] = [
  ...edges('activate', ['backlog'], 'pending', [...PMS, 'ceo']),
  ...claimEdges(),
  ...edges('start', ['claimed'], 'in_progress', [...WORKERS, 'pr_reviewer']),
  ...edges('start', ['needs_revision'], 'in_progress', ['developer', ...PMS], 'operational'),
  ...edges('block', ['in_progress'], 'blocked', WORKERS),
  ...edges('escalate_up', ESCALATION_SOURCES, 'blocked', PMS, 'operational'),
  ...edges('pause', ['in_progress'], 'paused', ['developer', ...PMS]),
  ...edges('resume', ['paused'], 'in_progress', WORKERS),
  ...edges('unblock', ['blocked'], 'in_progress', PMS),
  ...edges('unblock', ['blocked'], 'pending', PMS),
  ...ESCALATION_SOURCES.filter((s) => s !== 'in_progress' && s !== 'pending').flatMap((to) =>
    edges('unblock', ['blocked'], to, PMS, 'operational'),
  ),
  ...edges('submit_verification', ['in_progress'], 'verifying', ['developer']),
  ...edges('submit_qa', ['verifying'], 'awaiting_qa', ['developer']),
  ...edges('pr_review_done', ['in_progress'], 'completed', ['pr_reviewer']),
  ...edges('qa_pass', ['awaiting_qa'], 'awaiting_documentation', ['qa']),
  ...edges('qa_fail', ['awaiting_qa'], 'needs_revision', ['qa']),
  ...edges('docs_complete', ['awaiting_documentation'], 'awaiting_pm_review', ['documenter']),
  ...edges('submit_for_review', ['in_progress'], 'awaiting_pr_review', PMS),
  ...edges('pr_pass', ['awaiting_pr_review'], 'awaiting_pm_review', ['pr_reviewer']),
  ...edges('pr_fail', ['awaiting_pr_review'], 'needs_revision', ['pr_reviewer']),
  ...edges('submit_pm_review', ['in_progress'], 'awaiting_pm_review', [...PMS, 'qa', 'documenter']),
  ...edges('complete', ['awaiting_pm_review'], 'completed', PMS),
  ...edges('request_changes', ['awaiting_pm_review'], 'needs_revision', PMS),
  ...edges('request_changes', ['awaiting_pm_review'], 'needs_revision', BOARD, 'operational'),
  ...edges('escalate_to_ceo', ['awaiting_pm_review', 'blocked'], 'awaiting_ceo_approval', [
    'main_pm',
    ...BOARD,
  ]),
  ...edges('ceo_approve', ['awaiting_ceo_approval'], 'completed', ['ceo']),
  ...edges('ceo_reject', ['awaiting_ceo_approval'], 'needs_revision', ['ceo']),
  ...edges('ceo_reject_to_pool', ['awaiting_ceo_approval'], 'pending', ['ceo']),
  ...edges('cancel', CANCELLABLE, 'cancelled', [...PMS, 'ceo']),
  ...edges('cancel', ['awaiting_ceo_approval'], 'cancelled', ['ceo']),
  ...edges(
    'unclaim',
    ['claimed', 'in_progress', 'verifying'],
    'pending',
    [...WORKERS, 'pr_reviewer'],
    'operational',
  ),
  ...stayPutUnclaimEdges(),
  ...edges('release', ['claimed', 'in_progress'], 'pending', ['system'], 'operational'),
];

/** Edges of `action` leaving `from`. */
export const edgesOf = (action: LifecycleAction, from?: TaskStatus): TransitionEdge[] =>
  TRANSITIONS.filter((edge) => edge.action === action && (from === undefined || edge.from === from));

/** Every role that may perform `action` from some state. */
export const rolesOf = (action: LifecycleAction): Role[] => [
  ...new Set(edgesOf(action).flatMap((edge) => edge.roles)),
];
