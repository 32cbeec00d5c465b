/** What CI-watch writes: the red verdict, the fix task's text, and the cell PM's notification. Pure. */
import type { CiStatus } from '../../../platform/forge/index.js';
import type { WatchTarget } from './watch-set.js';

/** Conclusions that mean the branch is broken. Anything else — cancelled, pending, unknown, success — opens nothing. */
export const RED_CONCLUSIONS: ReadonlySet<string> = new Set(['failure', 'timed_out', 'startup_failure']);

export const isRed = (status: CiStatus): boolean => RED_CONCLUSIONS.has(status.conclusion);

export interface FixTaskText {
  title: string;
  description: string;
  acceptanceCriteria: string[];
}

/** One line naming the failing run, for the task and the notification. */
export function failureSummary(target: WatchTarget, status: CiStatus): string {
  const run = status.runName ? ` (${status.runName})` : '';
  return `CI on ${target.project.slug}@${target.branch} concluded '${status.conclusion}'${run}.`;
}

export function fixTaskText(target: WatchTarget, status: CiStatus): FixTaskText {
  const { slug } = target.project;
  const shared = target.members.slice(1).map((member) => member.slug);
  const lines = [
    `CI is red on the ${target.branch} branch of ${slug}: the latest run of the ${target.workflow} workflow failed.`,
    '',
    failureSummary(target, status),
    `Failing run: ${status.runUrl ?? 'no link was given by the code-hosting provider'}`,
    ...(shared.length ? [`The same repository also backs: ${shared.join(', ')}.`] : []),
    '',
    'This is a coordination task for the main PM: find the cause, then delegate the code fix to a developer of the',
    'cell that owns the repository (the main PM does not write the fix). It was opened automatically by CI-watch and',
    'is ready to start now, no approval needed; the fix still ships through QA, pull-request review and the CEO merge.',
  ];
  return {
    title: `CI-watch: fix the CI regression on ${slug}`,
    description: lines.join('\n'),
    acceptanceCriteria: [
      `The regression is diagnosed and a code-fix subtask is delegated to a cell developer.`,
      `CI of ${target.workflow} on the ${target.branch} branch of ${slug} is green again, with the fix merged through the normal gates.`,
    ],
  };
}

export function cellPmNotice(target: WatchTarget, status: CiStatus): { subject: string; body: string } {
  const { slug } = target.project;
  return {
    subject: `[ci-watch] CI is red on ${slug}`,
    body: [
      `[ci-watch] CI is red on ${slug}. A fix task was opened automatically and is ready to start.`,
      '',
      failureSummary(target, status),
      ...(status.runUrl ? [`Failing run: ${status.runUrl}`] : []),
    ].join('\n'),
  };
}
