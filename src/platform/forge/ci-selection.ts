/**
 * Pure rules that turn a forge's raw CI records into one CiStatus:
 * - a branch's conclusion is that of its newest head commit among completed runs, and of that
 *   commit the highest attempt (a green re-run supersedes a red first attempt; a green run on an
 *   older commit cannot mask the head);
 * - a commit's conclusion is `pending` while the newest attempt of any of its workflows is queued
 *   or in progress, `unknown` without runs, else the worst of each workflow's newest attempt;
 * - Gitea's combined commit state maps onto the same conclusions.
 */
import type { CiConclusion, CiStatus } from './types.js';
import { UNKNOWN_CI } from './types.js';

/** The fields of a GitHub Actions workflow run these rules read. */
export interface WorkflowRunLike {
  name?: string | null;
  head_sha: string;
  run_attempt?: number | null;
  status?: string | null;
  conclusion?: string | null;
  html_url: string;
  workflow_id?: number | null;
  path?: string | null;
}

/** GitHub's run conclusion as a CiConclusion: non-failing outcomes count as success, unknown words as unknown. */
export function conclusionOf(raw: string | null | undefined): CiConclusion {
  switch (raw) {
    case 'success':
    case 'failure':
    case 'timed_out':
    case 'startup_failure':
    case 'cancelled':
      return raw;
    case 'neutral':
    case 'skipped':
      return 'success';
    case 'action_required':
      return 'pending';
    default:
      return 'unknown';
  }
}

/** The conclusion of a branch from its completed runs, newest first (as the API lists them). */
export function branchStatusFromRuns(runsNewestFirst: readonly WorkflowRunLike[]): CiStatus {
  const completed = runsNewestFirst.filter((run) => !run.status || run.status === 'completed');
  const head = completed[0]?.head_sha;
  if (!head) return UNKNOWN_CI;
  const chosen = highestAttempt(completed.filter((run) => run.head_sha === head))!;
  return statusOf(chosen, conclusionOf(chosen.conclusion));
}

/** The conclusion of one commit from its runs (any workflows), newest first. */
export function commitStatusFromRuns(runsNewestFirst: readonly WorkflowRunLike[], sha: string): CiStatus {
  const byWorkflow = new Map<string, WorkflowRunLike[]>();
  for (const run of runsNewestFirst) {
    if (run.head_sha !== sha) continue;
    const key = String(run.workflow_id ?? run.path ?? run.name ?? '');
    byWorkflow.set(key, [...(byWorkflow.get(key) ?? []), run]);
  }
  const newest = [...byWorkflow.values()].map((runs) => highestAttempt(runs)!);
  if (newest.length === 0) return { ...UNKNOWN_CI, headSha: sha };
  const running = newest.find((run) => run.status && run.status !== 'completed');
  if (running) return statusOf(running, 'pending');
  const ranked = newest
    .map((run) => ({ run, conclusion: conclusionOf(run.conclusion) }))
    .sort((a, b) => SEVERITY[b.conclusion] - SEVERITY[a.conclusion]);
  return statusOf(ranked[0]!.run, ranked[0]!.conclusion);
}

/** Gitea's combined commit state: success → success, failure/error → failure, pending → pending, none → unknown. */
export function giteaConclusion(state: string | null | undefined, totalCount: number): CiConclusion {
  if (totalCount === 0) return 'unknown';
  switch (state) {
    case 'success':
      return 'success';
    case 'failure':
    case 'error':
      return 'failure';
    case 'pending':
      return 'pending';
    default:
      return 'unknown';
  }
}

/** How much a conclusion says "broken", to pick the worst of several workflows. */
const SEVERITY: Record<CiConclusion, number> = {
  success: 0,
  unknown: 1,
  cancelled: 2,
  pending: 3,
  timed_out: 4,
  startup_failure: 5,
  failure: 6,
};

/** The run with the highest attempt; among equals the first (newest). */
function highestAttempt(runs: readonly WorkflowRunLike[]): WorkflowRunLike | undefined {
  let best: WorkflowRunLike | undefined;
  for (const run of runs) {
    if (!best || (run.run_attempt ?? 1) > (best.run_attempt ?? 1)) best = run;
  }
  return best;
}

function statusOf(run: WorkflowRunLike, conclusion: CiConclusion): CiStatus {
  return { conclusion, runUrl: run.html_url, runName: run.name ?? null, headSha: run.head_sha };
}
