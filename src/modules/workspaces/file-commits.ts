/**
 * One file written (or removed) and committed on the task's branch, in the agent's worktree of
 * the task, then published through the mirror as the `commit` tool does: what the docs module
 * does for a documentation file. Only that path is committed; anything else the agent has in the
 * worktree stays where it is. The path must be a plain repository-relative path (the caller
 * applies its own ACL; this refuses only what could leave the worktree or touch git itself).
 */
import { lstatSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  commitStaged,
  type GitRepo,
  gitRaw,
  gitText,
  openWorktree,
  stage,
} from '../../platform/git/index.js';
import { prepareCommitMessage } from './commit-message.js';
import { publishTaskBranch } from './commits.js';
import { requireBranch, type WorkspaceContext } from './context.js';
import { gitFailed, WorkspaceError } from './errors.js';
import { agentIdentity, type WorkspaceAgent, type WorkspaceProject, type WorkspaceTask } from './types.js';
import type { TaskWorktrees } from './worktrees.js';

export interface TaskFileInput {
  task: WorkspaceTask;
  project: WorkspaceProject;
  agent: WorkspaceAgent;
  /** Repository-relative, `/`-separated. */
  path: string;
  /** The new content; null removes the file. */
  content: string | null;
  message: string;
  signal?: AbortSignal;
}

export interface TaskFileResult {
  /** The tip of the task branch after the call (the new commit when one was made). */
  sha: string;
  branch: string;
  /** False when the file already was exactly so (nothing to commit). */
  committed: boolean;
}

export function isSafeRepoPath(path: string): boolean {
  if (!path || path.startsWith('/') || path.includes('\\') || path.includes('\0')) return false;
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && part !== '.git');
}

/**
 * Refuses a path that passes through a symbolic link of the worktree: the worktree is the agent's,
 * and a link it made must not take the server's write out of it.
 */
function refuseLinks(root: string, path: string): void {
  let current = root;
  for (const part of path.split('/')) {
    current = join(current, part);
    const found = lstatSync(current, { throwIfNoEntry: false });
    if (!found) return;
    if (found.isSymbolicLink()) {
      throw new WorkspaceError(
        'invalid_state',
        'unsafe_path',
        `"${path}" passes through a symbolic link in the workspace`,
        { field: 'path' },
      );
    }
  }
}

export async function commitTaskFile(
  ctx: WorkspaceContext,
  worktrees: TaskWorktrees,
  input: TaskFileInput,
): Promise<TaskFileResult> {
  const { task, project, agent, path, content, signal } = input;
  const branch = requireBranch(task);
  if (!isSafeRepoPath(path)) {
    throw new WorkspaceError(
      'incomplete_input',
      'unsafe_path',
      `"${path}" is not a plain path in the repository`,
      {
        path,
      },
    );
  }
  const prepared = prepareCommitMessage(input.message, task.id);
  if (!prepared.ok) {
    throw new WorkspaceError('incomplete_input', prepared.problem.code, prepared.problem.message, {
      field: 'message',
    });
  }
  const workspace = await worktrees.prepare({ task, project, agent, mode: 'author', signal });
  const tree = openWorktree(ctx.runner, workspace.clonePath, workspace.path, { signal });
  const file = join(workspace.path, ...path.split('/'));
  const made = await ctx.queue.run(workspace.clonePath, async () => {
    try {
      refuseLinks(workspace.path, path);
      if (content === null) rmSync(file, { force: true });
      else {
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, content);
      }
      await stage(tree, [path]);
      if (!(await pathStaged(tree, path))) return null;
      return await commitStaged(tree, {
        message: prepared.message,
        author: agentIdentity(agent),
        sign: ctx.signing,
        only: [path],
      });
    } catch (error) {
      throw gitFailed(error, `committing ${path}`);
    }
  });
  if (made) await publishTaskBranch(ctx, project, workspace.clonePath, branch, signal);
  return { sha: made ?? (await gitText(tree, ['rev-parse', 'HEAD'])), branch, committed: made !== null };
}

async function pathStaged(tree: GitRepo, path: string): Promise<boolean> {
  const diff = await gitRaw(tree, ['diff', '--cached', '--quiet', '--no-ext-diff', '--', path], {
    okExitCodes: [1],
  });
  return diff.exitCode === 1;
}
