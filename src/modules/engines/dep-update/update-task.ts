/** What the dependency-update bot writes into the task it opens. Pure. */
import { diffStatLines, type LockfileChange } from './changes.js';
import type { DepUpdateTarget } from './targets.js';

export interface UpdateTaskText {
  title: string;
  description: string;
  acceptanceCriteria: string[];
}

export function updateTaskText(target: DepUpdateTarget, changes: readonly LockfileChange[]): UpdateTaskText {
  const { slug } = target.project;
  const shared = target.members.slice(1).map((member) => member.slug);
  const lockfiles = changes.map((change) => change.path);
  const lines = [
    `Dependency updates are available for ${slug}: running \`${target.command}\` on a fresh clone of its ` +
      `${target.branch} branch changed ${lockfiles.length === 1 ? 'a lockfile' : 'its lockfiles'}.`,
    '',
    'Lockfiles that would change:',
    ...diffStatLines(changes),
    ...(shared.length ? ['', `The same repository and command also back: ${shared.join(', ')}.`] : []),
    '',
    'This is a coordination task for the main PM: plan the upgrade and delegate it to a developer of the cell',
    'that owns the repository (the main PM does not make the change). The developer upgrades the dependencies,',
    'refreshes the lockfile(s) with the same command, and the full quality gate must pass with no change in',
    'behaviour. The bot only looked: nothing was committed or pushed. It opened this task automatically and',
    'it is ready to start now, no approval needed; the update still ships through QA, pull-request review and',
    'the CEO merge.',
  ];
  return {
    title: `Update dependencies on ${slug}`,
    description: lines.join('\n'),
    acceptanceCriteria: [
      'The upgrade is planned and delegated as a code subtask to a developer of the owning cell.',
      `The dependencies of ${slug} are upgraded to their latest compatible versions, ${listed(lockfiles)} ` +
        'refreshed, and the full quality gate passes with no behavioural regression.',
    ],
  };
}

/** At most five names, then how many more. */
function listed(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).join(', ');
  return paths.length > 5 ? `${shown} and ${paths.length - 5} more` : shown;
}
