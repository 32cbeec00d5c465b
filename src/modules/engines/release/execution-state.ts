/**
 * The executor's status vocabulary and how a stored execution reads to the CEO. Pure.
 *
 * - `running`: an approve is in flight (its heartbeat is fresh).
 * - `published`: this approve published the release; `already_published`: it found the release out
 *   already (a no-op). Both complete the proposal.
 * - `failed_promotion` (a ladder merge conflicted), `failed_head_ci` (the head rung's CI is not
 *   green: nothing was committed), `failed_release_ci` (the release commit's CI failed or never
 *   turned green in time), `failed_error` (anything unexpected), `failed_interrupted` (the process
 *   running it stopped, or it lost the release lock). Every failure leaves the proposal held for a
 *   retry, which resumes rather than committing twice.
 */

export const EXECUTE_STATUSES = [
  'running',
  'published',
  'already_published',
  'failed_promotion',
  'failed_head_ci',
  'failed_release_ci',
  'failed_error',
  'failed_interrupted',
] as const;
export type ExecuteStatus = (typeof EXECUTE_STATUSES)[number];

export type FailedStatus = Extract<ExecuteStatus, `failed_${string}`>;

/** Where the executor is (or stopped). */
export type ExecuteStep =
  | 'start'
  | 'check_published'
  | 'clone'
  | 'promote'
  | 'bump'
  | 'head_ci'
  | 'commit'
  | 'push'
  | 'release_ci'
  | 'publish'
  | 'complete';

export interface StoredExecution {
  status: string;
  step: string | null;
  detail: string | null;
  /** The heartbeat still vouches for a running execution (judged on the database clock). */
  live: boolean;
}

export interface ExecutionView {
  execute_status: ExecuteStatus | null;
  execute_detail: string | null;
  execute_in_flight: boolean;
}

export const NEVER_EXECUTED: ExecutionView = {
  execute_status: null,
  execute_detail: null,
  execute_in_flight: false,
};

/** What the GET shows: a `running` row whose heartbeat lapsed is an interrupted approve. */
export function executionView(stored: StoredExecution | null): ExecutionView {
  if (!stored || stored.status === 'rejected') return NEVER_EXECUTED;
  if (stored.status === 'running') {
    if (stored.live)
      return { execute_status: 'running', execute_detail: stored.detail, execute_in_flight: true };
    return {
      execute_status: 'failed_interrupted',
      execute_detail: interruptedDetail(stored.step),
      execute_in_flight: false,
    };
  }
  const status = (EXECUTE_STATUSES as readonly string[]).includes(stored.status)
    ? (stored.status as ExecuteStatus)
    : 'failed_error';
  return { execute_status: status, execute_detail: stored.detail, execute_in_flight: false };
}

export const interruptedDetail = (step: string | null): string =>
  `the approve in flight stopped${step ? ` at step "${step}"` : ''} (its process ended or lost the release lock); ` +
  'approve again to resume: a release commit already pushed is reused, never made twice';

/** Details are kept short enough for a card. */
export const DETAIL_MAX = 1_000;

export function boundedDetail(detail: string): string {
  const trimmed = detail.trim();
  return trimmed.length > DETAIL_MAX ? `${trimmed.slice(0, DETAIL_MAX - 1)}…` : trimmed;
}
