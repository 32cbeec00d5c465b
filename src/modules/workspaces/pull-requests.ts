/**
 * Pull requests of task branches through the project's forge. Opening targets the task's base
 * (the nearest ancestor's branch, else the head rung), titled `[id8] <task title>` with the task
 * description as body, and refuses a branch with nothing on it. Merging applies the merge chain
 * (merge-chain.ts) before the forge merges, is idempotent for a pull request already merged, and
 * deletes the merged task branch on the remote (never a protected one).
 */
import { type Forge, ForgeError, type MergeMethod, type PullRequest } from '../../platform/forge/index.js';
import { diffFiles, logBetween, resolveRef } from '../../platform/git/index.js';
import type { Role } from '../lifecycle/index.js';
import { id8 } from './branch-names.js';
import { assertTaskInProject, requireBranch, type WorkspaceContext } from './context.js';
import { gitFailed, WorkspaceError } from './errors.js';
import { decideMerge, protectedBranchSet } from './merge-chain.js';
import type { WorkspaceProject, WorkspaceTask } from './types.js';
import type { TaskWorktrees } from './worktrees.js';

export interface OpenPullRequestInput {
  task: WorkspaceTask;
  project: WorkspaceProject;
  signal?: AbortSignal;
}

export async function openTaskPullRequest(
  ctx: WorkspaceContext,
  worktrees: TaskWorktrees,
  input: OpenPullRequestInput,
): Promise<{ pull: PullRequest; base: string }> {
  const { task, project, signal } = input;
  assertTaskInProject(task, project);
  const branch = requireBranch(task);
  const { base } = await worktrees.plan(task, project);
  const mirror = await ctx.mirrors.sync(project, signal);
  try {
    if (!(await resolveRef(mirror, `refs/heads/${branch}`))) {
      throw new WorkspaceError(
        'invalid_state',
        'branch_not_pushed',
        `branch ${branch} is not on the remote yet`,
        { branch },
        'commit your work first (commit pushes the branch)',
      );
    }
    if (!(await resolveRef(mirror, `refs/heads/${base}`))) {
      throw new WorkspaceError('invalid_state', 'base_missing', `base branch ${base} is not on the remote`, {
        base,
      });
    }
    const commits = await logBetween(mirror, { base, head: branch, maxCount: 1 });
    const files = commits.length ? await diffFiles(mirror, { base, head: branch }) : [];
    if (files.length === 0) {
      throw new WorkspaceError(
        'invalid_state',
        'no_diff',
        `branch ${branch} changes nothing against ${base}`,
        { branch, base },
        'commit the change first; if there is nothing to change, say so with i_am_blocked',
      );
    }
  } catch (error) {
    throw gitFailed(error, 'checking the branch before opening its pull request');
  }
  const forge = ctx.forges.forgeFor(project);
  const pull = await forgeCall(() =>
    forge.openPullRequest(
      { head: branch, base, title: `[${id8(task.id)}] ${task.title}`, body: task.description },
      signal,
    ),
  );
  return { pull, base };
}

export interface MergeInput {
  task: WorkspaceTask;
  project: WorkspaceProject;
  actor: { role: Role; team: string | null };
  method?: MergeMethod;
  signal?: AbortSignal;
}

export interface MergeResult {
  number: number;
  sha: string;
  head: string;
  base: string;
  /** The pull request had been merged before this call. */
  alreadyMerged: boolean;
  headBranchDeleted: boolean;
}

export async function mergeTaskPullRequest(ctx: WorkspaceContext, input: MergeInput): Promise<MergeResult> {
  const { task, project, actor, signal } = input;
  assertTaskInProject(task, project);
  if (task.prNumber === null) {
    throw new WorkspaceError('invalid_state', 'no_pr', `task ${task.id} has no pull request`, {
      task_id: task.id,
    });
  }
  const forge = ctx.forges.forgeFor(project);
  const pull = await findPull(forge, task.prNumber, signal);
  const decision = decideMerge({ actor, task, target: pull.base, project });
  if (!decision.allowed) {
    throw new WorkspaceError(
      decision.flavor,
      decision.code,
      decision.message,
      { target: pull.base, pr_number: pull.number },
      decision.remediate,
    );
  }
  if (pull.state === 'merged') return merged(pull, pull.mergeSha ?? '', true, false);
  if (pull.state === 'closed') {
    throw new WorkspaceError('invalid_state', 'pr_closed', `pull request #${pull.number} is closed`, {
      pr_number: pull.number,
    });
  }
  let sha: string;
  try {
    ({ sha } = await forge.mergePullRequest(pull.number, { method: input.method ?? 'squash' }, signal));
  } catch (error) {
    if (error instanceof ForgeError && error.code === 'not_open') {
      const now = await findPull(forge, pull.number, signal);
      if (now.state === 'merged') return merged(now, now.mergeSha ?? '', true, false);
    }
    throw forgeError(error);
  }
  const deleted = await deleteMergedBranch(ctx, project, pull.head, signal);
  return merged(pull, sha, false, deleted);
}

async function findPull(forge: Forge, number: number, signal?: AbortSignal): Promise<PullRequest> {
  const pull = await forgeCall(() => forge.getPullRequest(number, signal));
  if (!pull) {
    throw new WorkspaceError('not_found', 'pr_not_found', `pull request #${number} does not exist`, {
      pr_number: number,
    });
  }
  return pull;
}

/** Best effort: the merge stands even when the branch cannot be deleted. */
async function deleteMergedBranch(
  ctx: WorkspaceContext,
  project: WorkspaceProject,
  head: string,
  signal?: AbortSignal,
): Promise<boolean> {
  if (protectedBranchSet(project).has(head)) return false;
  try {
    await ctx.mirrors.sync(project, signal);
    await ctx.mirrors.deleteBranch(project, head, signal);
    return true;
  } catch {
    return false;
  }
}

function merged(
  pull: PullRequest,
  sha: string,
  alreadyMerged: boolean,
  headBranchDeleted: boolean,
): MergeResult {
  return { number: pull.number, sha, head: pull.head, base: pull.base, alreadyMerged, headBranchDeleted };
}

async function forgeCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw forgeError(error);
  }
}

/** A ForgeError as a WorkspaceError; anything else unchanged. */
function forgeError(error: unknown): unknown {
  if (!(error instanceof ForgeError)) return gitFailed(error, 'the forge call');
  if (error.code === 'merge_conflict') {
    return new WorkspaceError(
      'invalid_state',
      'merge_conflict',
      error.message,
      error.details,
      'bring the branch up to date with its base and resolve the conflicts, then ask for the merge again',
    );
  }
  if (error.code === 'not_found')
    return new WorkspaceError('not_found', 'pr_not_found', error.message, error.details);
  return new WorkspaceError('invalid_state', `forge_${error.code}`, error.message, error.details);
}
