/**
 * The workspaces service: one object over the parts — task worktrees (plan, prepare, cleanup),
 * commits, pull requests (open, merge through the chain rules), the diff summary for evidence,
 * each project's forge, and branch-tip reads and remote branch deletion for the git routes. Built from the platform by `createWorkspacesService`; tests build it
 * with their own runner, token lookup and forge factory.
 */
import { join } from 'node:path';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import type { Forge, RetryOptions } from '../../platform/forge/index.js';
import {
  assertRef,
  type FileAtRef,
  GitRunner,
  KeyedQueue,
  resolveRef,
  showFileAt,
} from '../../platform/git/index.js';
import type { ChangedFile } from './change-files.js';
import { type TaskChange, TaskChanges } from './changes.js';
import { type CommitInput, type CommitResult, commitTaskWork } from './commits.js';
import type { WorkspaceContext } from './context.js';
import { gitFailed, WorkspaceError } from './errors.js';
import { type DiffSummary, type DiffSummaryInput, taskDiffSummary } from './evidence.js';
import { commitTaskFile, type TaskFileInput, type TaskFileResult } from './file-commits.js';
import { type ForgeFactory, ProjectForges } from './forges.js';
import { protectedBranchSet } from './merge-chain.js';
import { Mirrors, type TokenLookup } from './mirror.js';
import { workspacesRoot } from './paths.js';
import {
  type MergeInput,
  type MergeResult,
  mergeTaskPullRequest,
  type OpenPullRequestInput,
  openTaskPullRequest,
} from './pull-requests.js';
import type { WorkspaceAgent, WorkspaceProject, WorkspaceTask } from './types.js';
import { type PrepareInput, type TaskWorkspace, TaskWorktrees } from './worktrees.js';

export interface WorkspacesServiceOptions {
  db: Db;
  clock: Clock;
  /** GAFFER_DATA_DIR: workspaces live in `<dataDir>/workspaces`. */
  dataDir: string;
  /** The project's git token (the projects module's `gitToken`). */
  tokenFor: TokenLookup;
  /** Replaces the built-in GitHub / Gitea REST forges (which read the project's git token at every call). */
  forgeFactory?: ForgeFactory;
  /** Retry policy of the built-in REST forges (default: 3 tries, backoff from 500 ms). */
  forgeRetry?: RetryOptions;
  /** Default: a runner with HOME at `<dataDir>/workspaces/.home`. */
  runner?: GitRunner;
  signing?: WorkspaceContext['signing'];
}

export class WorkspacesService {
  readonly root: string;
  private readonly ctx: WorkspaceContext;
  private readonly worktrees: TaskWorktrees;
  private readonly changes: TaskChanges;

  constructor(options: WorkspacesServiceOptions) {
    const root = workspacesRoot(options.dataDir);
    const runner = options.runner ?? new GitRunner({ home: join(root, '.home') });
    const queue = new KeyedQueue();
    const { db, clock, tokenFor } = options;
    this.root = root;
    this.ctx = {
      db,
      clock,
      runner,
      queue,
      root,
      tokenFor,
      signing: options.signing,
      mirrors: new Mirrors(runner, queue, root, tokenFor),
      forges: new ProjectForges({
        db,
        clock,
        runner,
        queue,
        root,
        tokenFor,
        external: options.forgeFactory,
        retry: options.forgeRetry,
      }),
    };
    this.worktrees = new TaskWorktrees(this.ctx);
    this.changes = new TaskChanges(this.ctx, this.worktrees);
  }

  /** The branch a task works on (its recorded one, else named from its ancestry) and its base. No git. */
  planBranch(task: WorkspaceTask, project: WorkspaceProject): Promise<{ branch: string; base: string }> {
    return this.worktrees.plan(task, project);
  }

  /** Creates or refreshes the agent's worktree of the task (cutting the branch the first time). */
  prepareTaskWorkspace(input: PrepareInput): Promise<TaskWorkspace> {
    return this.worktrees.prepare(input);
  }

  /** The agent's clone of the project, up to date: the working directory of branchless work. */
  async agentClonePath(
    project: WorkspaceProject,
    agent: WorkspaceAgent,
    signal?: AbortSignal,
  ): Promise<string> {
    return (await this.worktrees.agentClone(project, agent, signal)).dir;
  }

  /** Stages, commits (`[id8] ` prefixed, validated) and pushes the task branch. */
  commit(input: CommitInput): Promise<CommitResult> {
    return commitTaskWork(this.ctx, input);
  }

  /** Writes (or removes, content null) one file on the task branch in the agent's worktree, commits only it and publishes it. */
  commitFile(input: TaskFileInput): Promise<TaskFileResult> {
    return commitTaskFile(this.ctx, this.worktrees, input);
  }

  /** Opens (or finds) the task branch's pull request toward its base. */
  openPullRequest(input: OpenPullRequestInput) {
    return openTaskPullRequest(this.ctx, this.worktrees, input);
  }

  /** Merges the task's pull request if the merge chain lets `actor` do it now. */
  mergePullRequest(input: MergeInput): Promise<MergeResult> {
    return mergeTaskPullRequest(this.ctx, input);
  }

  /** Files, line counts, commits and capped patch of the task branch against its base. */
  diffSummary(input: DiffSummaryInput): Promise<DiffSummary> {
    return taskDiffSummary(this.ctx, this.worktrees, input);
  }

  /** The task's change for review: files with hunks, commits, mergeability (cached per pair of tips). */
  taskChange(task: WorkspaceTask, project: WorkspaceProject, signal?: AbortSignal): Promise<TaskChange> {
    return this.changes.read(task, project, signal);
  }

  /** One file of the task's change, whole; 404 `path_not_in_change` when the change does not touch it. */
  taskChangeFile(
    task: WorkspaceTask,
    project: WorkspaceProject,
    path: string,
    signal?: AbortSignal,
  ): Promise<ChangedFile> {
    return this.changes.file(task, project, path, signal);
  }

  /** Removes every worktree and local branch of a task that ended (the remote branch stays). */
  cleanupTask(task: WorkspaceTask, project: WorkspaceProject): Promise<string[]> {
    return this.worktrees.cleanup(task, project);
  }

  forgeFor(project: WorkspaceProject): Forge {
    return this.ctx.forges.forgeFor(project);
  }

  /**
   * A file at the tip of a branch, read from the project's mirror (no workspace needed): the tip's
   * commit and the file (null when absent); null when there is no such branch.
   */
  async branchFile(
    project: WorkspaceProject,
    branch: string,
    path: string,
    signal?: AbortSignal,
  ): Promise<{ commit: string; file: FileAtRef | null } | null> {
    const mirror = await this.ctx.mirrors.sync(project, signal);
    try {
      const commit = await resolveRef(mirror, `refs/heads/${assertRef(branch, 'branch')}`);
      return commit ? { commit, file: await showFileAt(mirror, commit, path) } : null;
    } catch (error) {
      throw gitFailed(error, `reading ${path} on ${branch}`);
    }
  }

  /** Deletes a branch on the remote; never the default branch, a ladder rung or a protected branch. */
  async deleteRemoteBranch(project: WorkspaceProject, branch: string, signal?: AbortSignal): Promise<void> {
    if (protectedBranchSet(project).has(branch)) {
      throw new WorkspaceError(
        'not_authorized',
        'protected_branch',
        `${branch} is protected and is never deleted`,
        {
          branch,
        },
      );
    }
    await this.ctx.mirrors.sync(project, signal);
    await this.ctx.mirrors.deleteBranch(project, assertRef(branch, 'branch'), signal);
  }
}
