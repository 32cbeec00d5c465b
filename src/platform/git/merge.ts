/**
 * Merging a branch into the checked-out one: a squash (one new commit) or a merge commit
 * (`--no-ff`); rebasing the checked-out branch onto another. A conflict leaves the working tree as it was before and answers the conflicted
 * files; a source already contained in the target answers `up_to_date`.
 */
import { type CommitOptions, commitStaged, hasStagedChanges, signFlag } from './commit.js';
import type { GitIdentity } from './env.js';
import { GitError } from './errors.js';
import { assertRef, type GitRepo, gitRaw, gitText } from './repo.js';

export type MergeMethod = 'squash' | 'no-ff';

export type MergeOutcome =
  | { outcome: 'merged'; sha: string }
  | { outcome: 'up_to_date'; sha: string }
  | { outcome: 'conflict'; files: string[] };

export interface MergeOptions {
  /** The ref to merge into the current branch. */
  source: string;
  method: MergeMethod;
  message: string;
  identity: GitIdentity;
}

export async function mergeInto(repo: GitRepo, options: MergeOptions): Promise<MergeOutcome> {
  const source = assertRef(options.source, 'merge source');
  const args =
    options.method === 'squash'
      ? ['merge', '--squash', '--no-commit', '--no-verify', '--end-of-options', source]
      : ['merge', '--no-ff', '--no-verify', '--no-edit', '-m', options.message, '--end-of-options', source];
  const result = await gitRaw(repo, args, { identity: options.identity, okExitCodes: [1] });
  if (result.exitCode === 1) {
    const files = await conflictedFiles(repo);
    await undoMerge(repo, options.method);
    if (files.length === 0) {
      throw new GitError(
        'exit',
        `git merge failed: ${result.stderr || 'no message'}`,
        args,
        1,
        result.stderr,
      );
    }
    return { outcome: 'conflict', files };
  }
  if (options.method === 'no-ff') {
    const sha = await gitText(repo, ['rev-parse', 'HEAD']);
    return /already up to date/i.test(result.stdout.toString('utf8'))
      ? { outcome: 'up_to_date', sha }
      : { outcome: 'merged', sha };
  }
  if (!(await hasStagedChanges(repo))) {
    await undoMerge(repo, 'squash');
    return { outcome: 'up_to_date', sha: await gitText(repo, ['rev-parse', 'HEAD']) };
  }
  const sha = await commitStaged(repo, { message: options.message, author: options.identity });
  return { outcome: 'merged', sha };
}

export type RebaseOutcome = { outcome: 'rebased' } | { outcome: 'conflict'; files: string[] };

/**
 * Replays the checked-out branch's own commits onto `upstream`, as `identity` (uncommitted changes
 * set aside and put back). A conflict aborts the rebase, leaving the branch as it was, and answers
 * the conflicted files.
 */
export async function rebaseOnto(
  repo: GitRepo,
  upstream: string,
  options: { identity: GitIdentity; sign?: CommitOptions['sign'] },
): Promise<RebaseOutcome> {
  const args = ['rebase', '--quiet', '--autostash', signFlag(options.sign), '--end-of-options'];
  const result = await gitRaw(repo, [...args, assertRef(upstream, 'rebase upstream')], {
    identity: options.identity,
    gnupgHome: options.sign?.gnupgHome,
    okExitCodes: [1],
  });
  if (result.exitCode === 0) return { outcome: 'rebased' };
  const files = await conflictedFiles(repo);
  await gitRaw(repo, ['rebase', '--abort'], { okExitCodes: [128] });
  return { outcome: 'conflict', files };
}

async function conflictedFiles(repo: GitRepo): Promise<string[]> {
  const out = await gitRaw(repo, ['diff', '--name-only', '--diff-filter=U', '-z', '--no-ext-diff']);
  return out.stdout.toString('utf8').split('\0').filter(Boolean).sort();
}

/** Puts the working tree back as it was before the merge started. */
async function undoMerge(repo: GitRepo, method: MergeMethod): Promise<void> {
  if (method === 'no-ff') {
    const aborted = await gitRaw(repo, ['merge', '--abort'], { okExitCodes: [128] });
    if (aborted.exitCode === 0) return;
  }
  await gitRaw(repo, ['reset', '--hard', '--quiet', 'HEAD']);
}

/**
 * Whether `head` would merge into `base` cleanly, tried without a work tree (`git merge-tree
 * --write-tree`, git 2.38+; it writes only unreferenced objects): the conflicting paths, none when clean.
 */
export async function dryRunMerge(
  repo: GitRepo,
  base: string,
  head: string,
): Promise<{ conflicts: string[] }> {
  const result = await gitRaw(
    repo,
    [
      'merge-tree',
      '--write-tree',
      '--name-only',
      '--no-messages',
      '-z',
      '--end-of-options',
      assertRef(base),
      assertRef(head),
    ],
    { okExitCodes: [1] },
  );
  if (result.exitCode === 0) return { conflicts: [] };
  // The tree's id, then each conflicted path (once per conflicting stage), NUL-separated.
  const [, ...paths] = result.stdout.toString('utf8').split('\0').filter(Boolean);
  return { conflicts: [...new Set(paths)].sort() };
}
