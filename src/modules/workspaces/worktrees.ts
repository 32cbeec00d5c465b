/**
 * Per-agent clones and per-task worktrees. A task's branch is named from its ancestry and cut from
 * its base (the nearest ancestor's branch, else the head rung), which is first created on the
 * remote when it is not there yet. An agent's clone comes from the project's mirror; a worktree
 * already present is refreshed from the remote branch: authors (developer, documenter) only by a
 * fast-forward of a clean tree, readers (QA, PMs, reviewers) by a hard reset. The clone root's own
 * checkout never moves.
 */
import { existsSync, readdirSync } from 'node:fs';
import {
  addWorktree,
  cloneRepo,
  deleteBranch,
  fetchRemote,
  type GitRepo,
  gitRaw,
  listWorktrees,
  mergeBase,
  openRepo,
  openWorktree,
  pruneWorktrees,
  removeWorktree,
  resolveRef,
  workingTreeStatus,
} from '../../platform/git/index.js';
import { ancestorsOf, type ChainTask } from '../tasks/index.js';
import { taskBranchName } from './branch-names.js';
import { assertTaskInProject, type WorkspaceContext } from './context.js';
import { gitFailed } from './errors.js';
import { headBranch, resolveBaseBranch } from './merge-chain.js';
import { clonePath, worktreePath } from './paths.js';
import type { WorkspaceAgent, WorkspaceProject, WorkspaceTask } from './types.js';

export type WorkspaceMode = 'author' | 'reader';

export interface TaskWorkspace {
  /** The worktree: the agent's working directory for the task. */
  path: string;
  branch: string;
  base: string;
  clonePath: string;
  headSha: string;
  /** True when this call cut the branch. */
  created: boolean;
  mode: WorkspaceMode;
}

export interface PrepareInput {
  task: WorkspaceTask;
  project: WorkspaceProject;
  agent: WorkspaceAgent;
  /** Default: author for developers and documenters, reader for everyone else. */
  mode?: WorkspaceMode;
  signal?: AbortSignal;
}

const AUTHOR_ROLES = new Set(['developer', 'documenter']);

export class TaskWorktrees {
  constructor(private readonly ctx: WorkspaceContext) {}

  /** The branch a task works on (its recorded one, else named from its ancestry) and its base. */
  async plan(task: WorkspaceTask, project: WorkspaceProject): Promise<{ branch: string; base: string }> {
    return planFrom(task, project, await ancestorsOf(this.ctx.db, task));
  }

  /** The agent's clone of the project, cloned from the mirror or brought up to date with it. */
  async agentClone(project: WorkspaceProject, agent: WorkspaceAgent, signal?: AbortSignal): Promise<GitRepo> {
    await this.ctx.mirrors.sync(project, signal);
    return this.refreshedClone(project, agent, signal);
  }

  /** Creates (or refreshes) the task's worktree in the agent's clone, on the task's branch. */
  async prepare(input: PrepareInput): Promise<TaskWorkspace> {
    const { task, project, agent, signal } = input;
    assertTaskInProject(task, project);
    const mode = input.mode ?? (AUTHOR_ROLES.has(agent.role) ? 'author' : 'reader');
    const ancestors = await ancestorsOf(this.ctx.db, task);
    const { branch, base } = planFrom(task, project, ancestors);
    await this.ctx.mirrors.sync(project, signal);
    await this.ensureBaseChain(ancestors, project, signal);
    const clone = await this.refreshedClone(project, agent, signal);
    const path = worktreePath(this.ctx.root, agent.slug, project.slug, task.id);
    return this.ctx.queue.run(clone.dir, async () => {
      try {
        const created = await this.ensureWorktree(clone, path, branch, base);
        const tree = openWorktree(this.ctx.runner, clone.dir, path, { signal });
        if (!created) await refreshWorktree(tree, branch, mode);
        const headSha = await gitRaw(tree, ['rev-parse', 'HEAD']).then((r) => r.stdout.toString().trim());
        return { path, branch, base, clonePath: clone.dir, headSha, created, mode };
      } catch (error) {
        throw gitFailed(error, `preparing the workspace of task ${task.id}`);
      }
    });
  }

  /** Removes every agent's worktree of the task and its local branch. Answers the removed paths. */
  async cleanup(task: WorkspaceTask, project: WorkspaceProject): Promise<string[]> {
    const removed: string[] = [];
    const agents = existsSync(this.ctx.root)
      ? readdirSync(this.ctx.root, { withFileTypes: true }).filter(
          (e) => e.isDirectory() && !e.name.startsWith('.'),
        )
      : [];
    for (const entry of agents) {
      let path: string;
      let clonePathOfAgent: string;
      try {
        path = worktreePath(this.ctx.root, entry.name, project.slug, task.id);
        clonePathOfAgent = clonePath(this.ctx.root, entry.name, project.slug);
      } catch {
        continue; // a directory that is not an agent's
      }
      if (!existsSync(clonePathOfAgent)) continue;
      const clone = openRepo(this.ctx.runner, clonePathOfAgent);
      await this.ctx.queue.run(clone.dir, async () => {
        if (existsSync(path)) {
          await removeWorktree(clone, path, { force: true });
          removed.push(path);
        }
        await pruneWorktrees(clone);
        if (task.branchName && (await resolveRef(clone, `refs/heads/${task.branchName}`))) {
          await deleteBranch(clone, task.branchName, { force: true });
        }
      });
    }
    return removed;
  }

  /** Makes sure every branch on the way from the head rung to the task's base exists on the remote. */
  private async ensureBaseChain(
    ancestors: readonly ChainTask[],
    project: WorkspaceProject,
    signal?: AbortSignal,
  ) {
    const chain = [headBranch(project), ...ancestors.flatMap((a) => (a.branchName ? [a.branchName] : []))];
    await this.ctx.mirrors.ensureChain(project, chain, signal);
  }

  private refreshedClone(
    project: WorkspaceProject,
    agent: WorkspaceAgent,
    signal?: AbortSignal,
  ): Promise<GitRepo> {
    const dir = clonePath(this.ctx.root, agent.slug, project.slug);
    const mirror = this.ctx.mirrors.path(project);
    return this.ctx.queue.run(dir, async () => {
      try {
        if (!existsSync(`${dir}/.git`)) {
          return await cloneRepo(this.ctx.runner, { url: mirror, dir }, { signal });
        }
        const clone = openRepo(this.ctx.runner, dir, { signal });
        await fetchRemote(clone, {
          remote: mirror,
          refspecs: ['+refs/heads/*:refs/remotes/origin/*'],
          prune: true,
        });
        return clone;
      } catch (error) {
        throw gitFailed(error, `updating ${agent.slug}'s clone of ${project.slug}`);
      }
    });
  }

  /** Adds the worktree when it is missing; answers whether the branch was cut by this call. */
  private async ensureWorktree(clone: GitRepo, path: string, branch: string, base: string): Promise<boolean> {
    const registered = (await listWorktrees(clone)).some((w) => w.path === path);
    if (registered && existsSync(path)) return false;
    if (registered) await pruneWorktrees(clone);
    if (await resolveRef(clone, `refs/heads/${branch}`)) {
      await addWorktree(clone, { path, branch });
      return false;
    }
    if (await resolveRef(clone, `refs/remotes/origin/${branch}`)) {
      await addWorktree(clone, { path, branch, startPoint: `refs/remotes/origin/${branch}` });
      return false;
    }
    await addWorktree(clone, { path, branch, startPoint: `refs/remotes/origin/${base}` });
    return true;
  }
}

function planFrom(task: WorkspaceTask, project: WorkspaceProject, ancestors: readonly ChainTask[]) {
  const branch =
    task.branchName ?? taskBranchName({ team: task.team, chain: [...ancestors.map((a) => a.id), task.id] });
  return { branch, base: resolveBaseBranch(ancestors, project) };
}

/**
 * Brings a worktree level with the remote branch: a reader is reset to it; an author is
 * fast-forwarded only when its tree is clean and it is strictly behind (its own work is never lost).
 */
async function refreshWorktree(tree: GitRepo, branch: string, mode: WorkspaceMode): Promise<void> {
  const remote = await resolveRef(tree, `refs/remotes/origin/${branch}`);
  if (!remote) return;
  const local = await resolveRef(tree, 'HEAD');
  if (local === remote) return;
  if (mode === 'reader') {
    await gitRaw(tree, ['reset', '--hard', '--quiet', remote]);
    return;
  }
  const behind = (await mergeBase(tree, 'HEAD', remote)) === local;
  if (behind && (await workingTreeStatus(tree)).length === 0) {
    await gitRaw(tree, ['merge', '--ff-only', '--quiet', remote]);
  }
}
