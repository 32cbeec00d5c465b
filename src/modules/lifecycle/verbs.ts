/**
 * The agent gateway's intent verbs per role route (`/api/v1/flow/{route}/{verb}`), as data: each
 * verb's name, the lifecycle actions it performs in order, and the states it is valid from. The
 * states are derived from the transition table and claim rules (the states from which one of its
 * actions may start the chain), narrowed by `only` and widened by `reentry`; verbs that do no
 * transition list their states outright (`states`), or none at all when they need no task.
 */
import type { LifecycleAction } from './actions.js';
import { decideTransition } from './authorize.js';
import type { Role } from './roles.js';
import { NON_TERMINAL_STATES, TASK_STATUSES, type TaskStatus } from './states.js';

export const GATEWAY_ROUTES = [
  'developer',
  'qa',
  'documenter',
  'cell_pm',
  'main_pm',
  'board',
  'auditor',
  'pr_reviewer',
] as const;
export type GatewayRoute = (typeof GATEWAY_ROUTES)[number];

/** The roles each gateway route serves (the board route is shared by the product owner and head of marketing). */
export const GATEWAY_ROUTE_ROLES: Readonly<Record<GatewayRoute, readonly Role[]>> = {
  developer: ['developer'],
  qa: ['qa'],
  documenter: ['documenter'],
  cell_pm: ['cell_pm'],
  main_pm: ['main_pm'],
  board: ['product_owner', 'head_marketing'],
  auditor: ['auditor'],
  pr_reviewer: ['pr_reviewer'],
};

export interface VerbSpec {
  readonly name: string;
  readonly summary: string;
  /** Lifecycle actions performed in order; empty when the verb changes no status. */
  readonly actions: readonly LifecycleAction[];
  /** Valid only from these of the derived states. */
  readonly only?: readonly TaskStatus[];
  /** Also valid (as a no-op or a resumption) from these states, e.g. re-entry on one's own claim. */
  readonly reentry?: readonly TaskStatus[];
  /** For verbs without actions: the states they work on; absent means the verb takes no task. */
  readonly states?: readonly TaskStatus[];
}

const taskless = (name: string, summary: string): VerbSpec => ({ name, summary, actions: [] });

const COMMON_WORKER_VERBS: readonly VerbSpec[] = [
  taskless('give_me_work', 'The next task to work on, or idle'),
  { name: 'resume', summary: 'Resume a paused task', actions: ['resume'] },
  { name: 'unclaim', summary: 'Give the task up', actions: ['unclaim'] },
  { name: 'i_am_blocked', summary: 'Report a blocker and escalate it', actions: ['block'] },
  taskless('i_am_idle', 'Stop for now; owned in-progress tasks are paused'),
];

const PM_VERBS: readonly VerbSpec[] = [
  taskless('give_me_work', 'The next task to plan or review, or idle'),
  {
    name: 'i_will_plan',
    summary: 'Claim and start a task with a plan',
    actions: ['claim', 'start'],
    reentry: ['claimed', 'in_progress'],
  },
  { name: 'delegate', summary: 'Create a subtask for a team member', actions: [], states: ['in_progress'] },
  { name: 'request_changes', summary: 'Send reviewed work back to its author', actions: ['request_changes'] },
  taskless('triage', 'The next blocked or awaiting-review task of the team'),
  { name: 'unblock', summary: 'Unblock a task', actions: ['unblock'] },
  { name: 'escalate_up', summary: 'Escalate a task up the chain', actions: ['escalate_up'] },
  {
    name: 'declare_coverage',
    summary: 'Declare which parent criteria a subtask covers',
    actions: [],
    states: NON_TERMINAL_STATES,
  },
  { name: 'unclaim', summary: 'Give the task up', actions: ['unclaim'] },
  { name: 'resume', summary: 'Resume a paused task', actions: ['resume'] },
  taskless('i_am_idle', 'Stop for now'),
];

export const VERBS: Readonly<Record<GatewayRoute, readonly VerbSpec[]>> = {
  developer: [
    ...COMMON_WORKER_VERBS,
    {
      name: 'i_will_work_on',
      summary: 'Claim and start a task with a plan',
      actions: ['claim', 'start'],
      reentry: ['claimed', 'in_progress'],
    },
    {
      name: 'open_pr',
      summary: 'Push the branch and open the pull request',
      actions: [],
      states: ['in_progress', 'verifying', 'awaiting_qa', 'awaiting_documentation', 'needs_revision'],
    },
    {
      name: 'i_am_done',
      summary: 'Submit the work: self-verification, then QA',
      actions: ['submit_verification', 'submit_qa'],
    },
    {
      name: 'sync_branch',
      summary: 'Rebase the branch onto its base',
      actions: [],
      states: ['claimed', 'in_progress', 'verifying', 'needs_revision'],
    },
  ],
  qa: [
    ...COMMON_WORKER_VERBS,
    { name: 'claim_review', summary: 'Claim a task for QA review (status stays)', actions: ['claim'] },
    { name: 'pass', summary: 'Pass the work', actions: ['qa_pass'] },
    { name: 'fail', summary: 'Fail the work with findings', actions: ['qa_fail'] },
  ],
  documenter: [
    ...COMMON_WORKER_VERBS,
    {
      name: 'claim_doc_task',
      summary: 'Claim a task for documentation (status stays)',
      actions: ['claim'],
      only: ['awaiting_documentation'],
    },
    { name: 'i_documented', summary: 'The documentation is done', actions: ['docs_complete'] },
  ],
  cell_pm: [
    ...PM_VERBS,
    {
      name: 'submit_up',
      summary: 'Open the cell PR to the root and submit it to the gate',
      actions: ['submit_for_review'],
    },
    { name: 'complete', summary: 'Merge and complete a reviewed task', actions: ['complete'] },
    {
      name: 'reassign',
      summary: 'Hand a task to another developer of the cell',
      actions: [],
      states: ['claimed', 'in_progress'],
    },
  ],
  main_pm: [
    ...PM_VERBS,
    {
      name: 'submit_root',
      summary: 'Open the root PR and submit it to the gate',
      actions: ['submit_for_review'],
    },
    {
      name: 'complete',
      summary: 'Finish a root: escalate it to the CEO (the main PM never merges to the default branch)',
      actions: ['submit_pm_review', 'escalate_to_ceo'],
      only: ['in_progress', 'awaiting_pm_review'],
    },
    taskless('triage_all', 'The next blocked or awaiting-review task of any team'),
    { name: 'escalate_to_ceo', summary: 'Escalate to the CEO', actions: ['escalate_to_ceo'] },
  ],
  board: [
    taskless('triage', 'The next strategic root awaiting review, or idle'),
    { name: 'escalate_to_ceo', summary: 'Escalate to the CEO', actions: ['escalate_to_ceo'] },
    taskless('i_am_idle', 'Stop for now'),
  ],
  auditor: [
    taskless('triage', 'Anomalies and playbook drafts to look at, or idle'),
    { name: 'waive_finding', summary: 'Waive a minor or nit finding', actions: [], states: TASK_STATUSES },
    taskless('i_am_idle', 'Stop for now'),
  ],
  pr_reviewer: [
    taskless('give_me_work', 'The next review, or idle'),
    {
      name: 'claim_pr_review',
      summary: 'Claim and start an inbound PR review task',
      actions: ['claim', 'start'],
      only: ['pending'],
    },
    { name: 'post_pr_review', summary: 'Post the review and complete the task', actions: ['pr_review_done'] },
    {
      name: 'claim_gate_review',
      summary: 'Claim an assembled PR at the gate (status stays)',
      actions: ['claim'],
      only: ['awaiting_pr_review'],
    },
    { name: 'pr_pass', summary: 'Pass the gate', actions: ['pr_pass'] },
    { name: 'pr_fail', summary: 'Fail the gate with findings', actions: ['pr_fail'] },
    { name: 'unclaim', summary: 'Give the task up', actions: ['unclaim'] },
    taskless('i_am_idle', 'Stop for now'),
  ],
};

/** The gateway route a role's agents call, if it has one. */
export function gatewayRouteOf(role: Role): GatewayRoute | undefined {
  return GATEWAY_ROUTES.find((route) => GATEWAY_ROUTE_ROLES[route].includes(role));
}

export const verbNeedsTask = (verb: VerbSpec): boolean =>
  verb.actions.length > 0 || verb.states !== undefined;

/**
 * The states `verb` is valid from for `role`: those from which one of its actions may start (the
 * rest of the chain then follows), narrowed by `only`, plus `reentry`. Taskless verbs: none.
 */
export function verbStates(verb: VerbSpec, role: Role): TaskStatus[] {
  if (verb.actions.length === 0) return [...(verb.states ?? [])];
  const startable = TASK_STATUSES.filter((status) =>
    verb.actions.some((action) => decideTransition(role, action, status).ok),
  );
  const narrowed = verb.only ? startable.filter((status) => verb.only?.includes(status)) : startable;
  return TASK_STATUSES.filter((status) => narrowed.includes(status) || verb.reentry?.includes(status));
}

/** The verb named `name` on `route`, if any. */
export const findVerb = (route: GatewayRoute, name: string): VerbSpec | undefined =>
  VERBS[route].find((verb) => verb.name === name);

/**
 * Verbs valid now for `role` on a task in `status` (sorted): taskless verbs always, task verbs
 * when `status` is one of their states. Without a status (no task in hand), only taskless verbs.
 */
export function validVerbs(role: Role, status?: TaskStatus): string[] {
  const route = gatewayRouteOf(role);
  if (!route) return [];
  return VERBS[route]
    .filter((verb) =>
      verbNeedsTask(verb) ? status !== undefined && verbStates(verb, role).includes(status) : true,
    )
    .map((verb) => verb.name)
    .sort();
}

/** The first action of `verb` to perform from `status` (where the chain starts), if any. */
export function verbEntryAction(verb: VerbSpec, role: Role, status: TaskStatus): LifecycleAction | undefined {
  return verb.actions.find((action) => decideTransition(role, action, status).ok);
}
