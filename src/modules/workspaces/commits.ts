/**
 * The `commit` tool's git side: in the agent's worktree of the task, stage everything (or the
 * files named), commit under the agent's name with the validated `[id8] ` message, and publish
 * the task branch to the remote through the mirror. Commits left unpublished by an earlier
 * failed push are published by the next call even when nothing new is staged; a push the remote
 * refuses because the branch moved is retried once on top of it (the agent's commits rebased).
 */
import { existsSync } from 'node:fs';
import {
  commitStaged,
  diffFiles,
  fetchRemote,
  type GitRepo,
  gitText,
  hasStagedChanges,
  openRepo,
  openWorktree,
  rebaseOnto,
  stage,
} from '../../platform/git/index.js';
import { prepareCommitMessage } from './commit-message.js';
import { assertTaskInProject, requireBranch, type WorkspaceContext } from './context.js';
import { gitFailed, WorkspaceError } from './errors.js';
import { clonePath, worktreePath } from './paths.js';
import { agentIdentity, type WorkspaceAgent, type WorkspaceProject, type WorkspaceTask } from './types.js';

export interface CommitInput {
  task: WorkspaceTask;
  project: WorkspaceProject;
  agent: WorkspaceAgent;
  message: string;
  /** Repository-relative paths to stage; all changes when absent or empty. */
  files?: readonly string[];
  signal?: AbortSignal;
}

export interface CommitResult {
  /** The tip of the task branch, now on the remote. */
  sha: string;
  branch: string;
  /** `[id8] subject` of the new commit; null when only earlier commits were published. */
  subject: string | null;
  /** Files the new commit changed (empty when none was made). */
  files: string[];
  committed: boolean;
}

const COMMITTING_ROLES = new Set(['developer', 'documenter']);

export async function commitTaskWork(ctx: WorkspaceContext, input: CommitInput): Promise<CommitResult> {
  const { task, project, agent, signal } = input;
  if (!COMMITTING_ROLES.has(agent.role)) {
    throw new WorkspaceError('not_authorized', 'commit_not_allowed', `a ${agent.role} does not commit code`, {
      role: agent.role,
    });
  }
  assertTaskInProject(task, project);
  const branch = requireBranch(task);
  const prepared = prepareCommitMessage(input.message, task.id);
  if (!prepared.ok) {
    throw new WorkspaceError('invalid_state', prepared.problem.code, prepared.problem.message, {
      field: 'message',
    });
  }
  const path = worktreePath(ctx.root, agent.slug, project.slug, task.id);
  if (!existsSync(path)) {
    throw new WorkspaceError(
      'invalid_state',
      'workspace_missing',
      `there is no workspace for task ${task.id}`,
      { task_id: task.id },
      'claim the task (its workspace is prepared at the claim) and write your changes there',
    );
  }
  const clone = clonePath(ctx.root, agent.slug, project.slug);
  const tree = openWorktree(ctx.runner, clone, path, { signal });
  const made = await ctx.queue.run(clone, async () => {
    try {
      await stage(tree, input.files);
      if (!(await hasStagedChanges(tree))) return null;
      const sha = await commitStaged(tree, {
        message: prepared.message,
        author: agentIdentity(agent),
        sign: ctx.signing,
      });
      const files = await diffFiles(tree, { base: `${sha}~1`, head: sha, fromMergeBase: false });
      return { sha, files: files.map((f) => f.path) };
    } catch (error) {
      throw gitFailed(error, 'committing');
    }
  });
  if (!made && !(await hasUnpublishedCommits(tree))) {
    throw new WorkspaceError(
      'invalid_state',
      'nothing_to_commit',
      'there is nothing to commit: the workspace has no changes',
      { path },
      `write your changes under ${path} first`,
    );
  }
  try {
    await publishTaskBranch(ctx, project, clone, branch, signal);
  } catch (error) {
    // Someone else pushed to the branch (another author of the task, or a run of this agent elsewhere):
    // the agent's commits go on top of theirs when they apply cleanly, and the branch is pushed again.
    if (!(error instanceof WorkspaceError) || error.code !== 'push_rejected') throw error;
    await rebaseOntoRemote(ctx, project, tree, clone, branch, input.agent, error);
    await publishTaskBranch(ctx, project, clone, branch, signal);
  }
  return {
    // The tip as pushed: the new commit, or where a rebase onto the remote's branch put it.
    sha: await gitText(tree, ['rev-parse', 'HEAD']),
    branch,
    subject: made ? prepared.subject : null,
    files: made?.files ?? [],
    committed: made !== null,
  };
}

/** Pushes the task branch of an agent's clone through the mirror, then brings the clone's view of it up to date. */
export async function publishTaskBranch(
  ctx: WorkspaceContext,
  project: WorkspaceProject,
  clone: string,
  branch: string,
  signal?: AbortSignal,
): Promise<void> {
  await ctx.mirrors.publish(project, clone, branch, signal);
  await ctx.queue.run(clone, () =>
    fetchBranchFromMirror(ctx, project, clone, branch, signal).catch((error: unknown) => {
      throw gitFailed(error, 'updating the clone after the push');
    }),
  );
}

/** Brings the clone's view of `branch` (`origin/<branch>`) level with the mirror. */
function fetchBranchFromMirror(
  ctx: WorkspaceContext,
  project: WorkspaceProject,
  clone: string,
  branch: string,
  signal?: AbortSignal,
) {
  return fetchRemote(openRepo(ctx.runner, clone, { signal }), {
    remote: ctx.mirrors.path(project),
    refspecs: [`+refs/heads/${branch}:refs/remotes/origin/${branch}`],
  });
}

/**
 * Replays the worktree's own commits onto the remote's branch (uncommitted changes kept aside and
 * put back). A conflict leaves the worktree as it was and answers `rejected`, naming the files.
 */
async function rebaseOntoRemote(
  ctx: WorkspaceContext,
  project: WorkspaceProject,
  tree: GitRepo,
  clone: string,
  branch: string,
  agent: WorkspaceAgent,
  rejected: WorkspaceError,
): Promise<void> {
  await ctx.queue.run(clone, async () => {
    try {
      await fetchBranchFromMirror(ctx, project, clone, branch);
      const rebased = await rebaseOnto(tree, `refs/remotes/origin/${branch}`, {
        identity: agentIdentity(agent),
        sign: ctx.signing,
      });
      if (rebased.outcome === 'rebased') return;
      throw new WorkspaceError(
        'invalid_state',
        'push_rejected',
        `${rejected.message}, and this workspace's commits conflict with them`,
        { ...(rejected.details as Record<string, unknown>), conflicts: rebased.files },
        rejected.remediate,
      );
    } catch (error) {
      throw gitFailed(error, 'rebasing onto the remote branch');
    }
  });
}

/** Whether HEAD has commits no remote branch has (an earlier push failed). */
async function hasUnpublishedCommits(tree: GitRepo): Promise<boolean> {
  const head = await gitText(tree, ['rev-parse', 'HEAD']);
  const containing = await gitText(tree, ['branch', '--remotes', '--contains', head, '--format=%(refname)']);
  return containing.trim().length === 0;
}
