/**
 * Lifecycle actions and what each one means beyond its edges: whether only the task's owner may
 * perform it, whether the author of the work is barred from it (self-review), whether it takes a
 * reason, and what happens to the assignee when it lands. The edges themselves (source, target,
 * roles) live in transitions.ts.
 */

export const LIFECYCLE_ACTIONS = [
  'activate',
  'claim',
  'start',
  'block',
  'escalate_up',
  'pause',
  'resume',
  'unblock',
  'submit_verification',
  'submit_qa',
  'qa_pass',
  'qa_fail',
  'docs_complete',
  'submit_for_review',
  'pr_pass',
  'pr_fail',
  'pr_review_done',
  'submit_pm_review',
  'complete',
  'request_changes',
  'escalate_to_ceo',
  'ceo_approve',
  'ceo_reject',
  'ceo_reject_to_pool',
  'cancel',
  'unclaim',
  'release',
] as const;
export type LifecycleAction = (typeof LIFECYCLE_ACTIONS)[number];

export const isLifecycleAction = (value: string): value is LifecycleAction =>
  (LIFECYCLE_ACTIONS as readonly string[]).includes(value);

/**
 * Who owns the task once the action lands:
 * - `keep`: unchanged;
 * - `actor`: whoever performed it (claims);
 * - `clear`: nobody — the task waits in a queue for the next role to claim it;
 * - `author`: back to the agent who submitted the work for review (the `original_developer` marker);
 * - `review_pm`: the PM who reviews it (the cell PM of the task's team, else the main PM);
 * - `pre_block`: whoever owned it before it was blocked.
 */
export type AssigneeEffect = 'keep' | 'actor' | 'clear' | 'author' | 'review_pm' | 'pre_block';

export interface ActionRule {
  readonly summary: string;
  /** Only the task's owner (assignee or active claimant) may perform it. */
  readonly ownerOnly: boolean;
  /** The author of the work under review may not perform it. */
  readonly selfReviewBlocked: boolean;
  /** Whether a reason is required, and its minimum length when it is. */
  readonly reason: { readonly required: boolean; readonly minLength: number };
  readonly assignee: AssigneeEffect;
  /** The actor becomes the work's author (`original_developer`), for self-review and revisions. */
  readonly marksAuthor: boolean;
  /** The subtasks must all be terminal first (roll-up and sign-off actions). */
  readonly needsSubtasksTerminal: boolean;
}

const optional = { required: false, minLength: 0 } as const;
const required = (minLength: number) => ({ required: true, minLength }) as const;

const rule = (summary: string, overrides: Partial<ActionRule> = {}): ActionRule => ({
  summary,
  ownerOnly: false,
  selfReviewBlocked: false,
  reason: optional,
  assignee: 'keep',
  marksAuthor: false,
  needsSubtasksTerminal: false,
  ...overrides,
});

export const ACTION_RULES: Readonly<Record<LifecycleAction, ActionRule>> = {
  activate: rule('Move a backlog task into the pool'),
  claim: rule('Take the task (atomic; see the claim rules)', { assignee: 'actor' }),
  start: rule('Start work on a claimed task', { ownerOnly: true }),
  block: rule('Report being blocked; the task waits for a PM to unblock it', {
    ownerOnly: true,
    reason: required(8),
  }),
  escalate_up: rule('Escalate a task one rung up the chain (PM); it waits blocked', {
    reason: required(10),
  }),
  pause: rule('Pause work in progress', { ownerOnly: true }),
  resume: rule('Resume paused work', { ownerOnly: true }),
  unblock: rule('Unblock: restore the pre-block state and owner, or release to the pool', {
    reason: required(10),
    assignee: 'pre_block',
  }),
  submit_verification: rule('Submit the work for self-verification', { ownerOnly: true }),
  submit_qa: rule('Hand verified work to QA', { ownerOnly: true, assignee: 'clear', marksAuthor: true }),
  qa_pass: rule('QA passes the work; it goes to the documenter', {
    ownerOnly: true,
    selfReviewBlocked: true,
    assignee: 'clear',
  }),
  qa_fail: rule('QA fails the work; it goes back to its author', {
    ownerOnly: true,
    selfReviewBlocked: true,
    reason: required(10),
    assignee: 'author',
  }),
  docs_complete: rule('The documentation is done; the task waits for PM review', {
    ownerOnly: true,
    selfReviewBlocked: true,
    assignee: 'review_pm',
  }),
  submit_for_review: rule('Submit assembled work to the PR-review gate', {
    ownerOnly: true,
    assignee: 'clear',
    marksAuthor: true,
    needsSubtasksTerminal: true,
  }),
  pr_pass: rule('The PR reviewer passes the gate; the task waits for PM review', {
    ownerOnly: true,
    selfReviewBlocked: true,
    assignee: 'review_pm',
  }),
  pr_fail: rule('The PR reviewer fails the gate; the task goes back to its author', {
    ownerOnly: true,
    selfReviewBlocked: true,
    reason: required(10),
    assignee: 'author',
  }),
  pr_review_done: rule('Finish an external PR review task', { ownerOnly: true }),
  submit_pm_review: rule('Submit work that needs no QA or PR gate straight to PM review', {
    ownerOnly: true,
    assignee: 'review_pm',
    marksAuthor: true,
    needsSubtasksTerminal: true,
  }),
  complete: rule('The PM completes a reviewed task', { needsSubtasksTerminal: true }),
  request_changes: rule('The reviewer sends the work back to its author', {
    reason: required(10),
    assignee: 'author',
  }),
  escalate_to_ceo: rule('Escalate to the CEO for sign-off', {
    reason: required(10),
    assignee: 'clear',
    needsSubtasksTerminal: true,
  }),
  ceo_approve: rule('The CEO signs the task off', { needsSubtasksTerminal: true }),
  ceo_reject: rule('The CEO rejects; the work goes back to its author', {
    reason: required(10),
    assignee: 'author',
  }),
  ceo_reject_to_pool: rule('The CEO rejects a coordination task back to the pool', {
    reason: required(10),
    assignee: 'clear',
  }),
  cancel: rule('Cancel the task'),
  unclaim: rule('Give the task up; it goes back to its queue', { ownerOnly: true, assignee: 'clear' }),
  release: rule('The system releases a stale claim; ownership is kept', {}),
};
