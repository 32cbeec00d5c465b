/**
 * Task states and their categories: the vocabulary every other lifecycle table is written in.
 * Terminal states end a task; active states have an agent working it right now; waiting states
 * sit in a queue (for a claimer, a reviewer, a decision, or an unblock).
 */

export const TASK_STATUSES = [
  'backlog',
  'pending',
  'claimed',
  'in_progress',
  'blocked',
  'paused',
  'verifying',
  'needs_revision',
  'awaiting_qa',
  'awaiting_documentation',
  'awaiting_pr_review',
  'awaiting_pm_review',
  'awaiting_ceo_approval',
  'completed',
  'cancelled',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const isTaskStatus = (value: string): value is TaskStatus =>
  (TASK_STATUSES as readonly string[]).includes(value);

export type StateCategory = 'terminal' | 'active' | 'waiting';

export const TERMINAL_STATES = ['completed', 'cancelled'] as const satisfies readonly TaskStatus[];
export const ACTIVE_STATES = [
  'claimed',
  'in_progress',
  'verifying',
  'needs_revision',
] as const satisfies readonly TaskStatus[];

/** Category of every state (waiting = everything neither terminal nor active). */
export const STATE_CATEGORIES: Readonly<Record<TaskStatus, StateCategory>> = Object.fromEntries(
  TASK_STATUSES.map((status) => [
    status,
    (TERMINAL_STATES as readonly string[]).includes(status)
      ? 'terminal'
      : (ACTIVE_STATES as readonly string[]).includes(status)
        ? 'active'
        : 'waiting',
  ]),
) as Record<TaskStatus, StateCategory>;

export const WAITING_STATES: readonly TaskStatus[] = TASK_STATUSES.filter(
  (status) => STATE_CATEGORIES[status] === 'waiting',
);

export const NON_TERMINAL_STATES: readonly TaskStatus[] = TASK_STATUSES.filter(
  (status) => STATE_CATEGORIES[status] !== 'terminal',
);

export const stateCategory = (status: TaskStatus): StateCategory => STATE_CATEGORIES[status];
export const isTerminal = (status: string): boolean =>
  (TERMINAL_STATES as readonly string[]).includes(status);

/** Review queues: a task here waits for QA, the documenter, a PR reviewer, a PM or the CEO. */
export const REVIEW_STATES = [
  'awaiting_qa',
  'awaiting_documentation',
  'awaiting_pr_review',
  'awaiting_pm_review',
  'awaiting_ceo_approval',
] as const satisfies readonly TaskStatus[];

/**
 * States in which the task's owner is working it, so the owner also holds the single-claimant
 * lock (`active_claimant_id`). Entering any other state by a transition releases that lock, so the
 * next claimer (a reviewer, the owner coming back, anyone from the pool) can take it atomically.
 */
export const CLAIM_HOLDING_STATES = [
  'claimed',
  'in_progress',
  'verifying',
  'paused',
] as const satisfies readonly TaskStatus[];

export const holdsClaim = (status: TaskStatus): boolean =>
  (CLAIM_HOLDING_STATES as readonly string[]).includes(status);

/**
 * An admin override (CEO god mode) needs `force: true` to move a task into one of these states,
 * because it skips the work the pipeline would have checked on the way in.
 */
export const FORCE_REQUIRED_TARGETS = [...REVIEW_STATES, ...TERMINAL_STATES] as const;

/** Whether an admin override from `from` to `to` needs `force`: into a review or terminal state, or out of a terminal one. */
export function overrideNeedsForce(from: TaskStatus, to: TaskStatus): boolean {
  if (from === to) return false;
  return isTerminal(from) || (FORCE_REQUIRED_TARGETS as readonly string[]).includes(to);
}
