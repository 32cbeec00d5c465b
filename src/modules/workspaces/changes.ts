/**
 * The change of a task, as a reviewer reads it: its branch against the merge base with the branch
 * it merges into (the parent task's branch, or the project's head rung for a root task), read from
 * Gaffer's mirror of the project after a fetch — so a local, GitHub or Gitea project goes through
 * the same git and no forge's diff format is read. Whether it merges cleanly is a dry-run merge.
 *
 * A change is a function of its two tips: it is computed once per pair of tips (project, branch
 * names, SHAs) and kept in a small cache, so re-reading an unchanged change costs a fetch and two
 * ref reads.
 */
import {
  dryRunMerge,
  type GitRepo,
  logBetween,
  mergeBase,
  resolveRef,
  unifiedDiff,
} from '../../platform/git/index.js';
import { CHANGE_CAPS, type ChangedFile, changedFiles } from './change-files.js';
import { assertTaskInProject, requireBranch, type WorkspaceContext } from './context.js';
import { gitFailed, WorkspaceError } from './errors.js';
import type { WorkspaceProject, WorkspaceTask } from './types.js';
import type { TaskWorktrees } from './worktrees.js';

export interface ChangeCommit {
  sha: string;
  subject: string;
  body: string;
  author: { name: string; email: string };
  /** ISO-8601 author time. */
  time: string;
}

export interface TaskChange {
  task_id: string;
  base: { branch: string; sha: string };
  head: { branch: string; sha: string };
  /** Where the branch left its base; null when they share no history. */
  merge_base: string | null;
  /** A dry-run merge of the head into the base: clean, or not and `conflicts` names the paths. */
  mergeable: boolean;
  conflicts: string[];
  files: ChangedFile[];
  /** The task's own commits (not the base's), newest first. */
  commits: ChangeCommit[];
  totals: { files: number; additions: number; deletions: number; commits: number };
  /** True when the caps left some lines out (see each file's `truncated`). */
  truncated: boolean;
  limits: { file_lines: number; total_lines: number };
  /** When this change was computed (a cached answer keeps its time). */
  computed_at: string;
}

/** The two tips of a change and where they met. */
interface Tips {
  base: { branch: string; sha: string };
  head: { branch: string; sha: string };
  mergeBase: string | null;
  mirror: GitRepo;
}

const CACHE_SIZE = 32;

export class TaskChanges {
  private readonly cache = new Map<string, Omit<TaskChange, 'task_id'>>();

  constructor(
    private readonly ctx: WorkspaceContext,
    private readonly worktrees: TaskWorktrees,
  ) {}

  async read(task: WorkspaceTask, project: WorkspaceProject, signal?: AbortSignal): Promise<TaskChange> {
    const tips = await this.tips(task, project, signal);
    // The SHAs fix the content; the names and the project are part of the answer too.
    const key = [project.id, tips.base.branch, tips.base.sha, tips.head.branch, tips.head.sha].join('\0');
    const known = this.cache.get(key);
    if (known) {
      this.cache.delete(key);
      this.cache.set(key, known);
      return { task_id: task.id, ...known };
    }
    const change = await this.compute(tips).catch((error: unknown) => {
      throw gitFailed(error, 'reading the change');
    });
    this.cache.set(key, change);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    return { task_id: task.id, ...change };
  }

  /** One file of the change, whole (no caps); 404 when the change does not touch `path`. */
  async file(
    task: WorkspaceTask,
    project: WorkspaceProject,
    path: string,
    signal?: AbortSignal,
  ): Promise<ChangedFile> {
    const tips = await this.tips(task, project, signal);
    const diff = await diffOf(tips).catch((error: unknown) => {
      throw gitFailed(error, 'reading the change');
    });
    const whole = { fileLines: Number.MAX_SAFE_INTEGER, totalLines: Number.MAX_SAFE_INTEGER };
    const found = changedFiles(diff, whole).files.find((f) => f.path === path || f.previous_path === path);
    if (!found) {
      throw new WorkspaceError(
        'not_found',
        'path_not_in_change',
        `the change of task ${task.id} does not touch ${path}`,
        {
          path,
        },
      );
    }
    return found;
  }

  private async tips(task: WorkspaceTask, project: WorkspaceProject, signal?: AbortSignal): Promise<Tips> {
    assertTaskInProject(task, project);
    const branch = requireBranch(task);
    const { base } = await this.worktrees.plan(task, project);
    const mirror = await this.ctx.mirrors.sync(project, signal);
    try {
      const [headSha, baseSha] = await Promise.all([
        resolveRef(mirror, `refs/heads/${branch}`),
        resolveRef(mirror, `refs/heads/${base}`),
      ]);
      if (!headSha) {
        throw new WorkspaceError(
          'invalid_state',
          'branch_missing',
          `the branch ${branch} of task ${task.id} is not on the project's remote`,
          { task_id: task.id, branch },
          'nothing is pushed yet (the first `commit` pushes it), or the branch was merged and deleted',
        );
      }
      if (!baseSha) {
        throw new WorkspaceError(
          'invalid_state',
          'base_missing',
          `the base branch ${base} is not on the project's remote`,
          {
            task_id: task.id,
            base,
          },
        );
      }
      return {
        base: { branch: base, sha: baseSha },
        head: { branch, sha: headSha },
        mergeBase: await mergeBase(mirror, baseSha, headSha),
        mirror,
      };
    } catch (error) {
      throw gitFailed(error, 'reading the change');
    }
  }

  private async compute(tips: Tips): Promise<Omit<TaskChange, 'task_id'>> {
    const { mirror, base, head } = tips;
    const [diff, commits, merge] = await Promise.all([
      diffOf(tips),
      logBetween(mirror, { base: base.sha, head: head.sha }),
      dryRunMerge(mirror, base.sha, head.sha),
    ]);
    const { files, truncated } = changedFiles(diff);
    return {
      base,
      head,
      merge_base: tips.mergeBase,
      mergeable: merge.conflicts.length === 0,
      conflicts: merge.conflicts,
      files,
      commits: commits.map((c) => ({
        sha: c.sha,
        subject: c.subject,
        body: c.body,
        author: { name: c.authorName, email: c.authorEmail },
        time: c.date,
      })),
      totals: {
        files: files.length,
        additions: files.reduce((sum, f) => sum + f.additions, 0),
        deletions: files.reduce((sum, f) => sum + f.deletions, 0),
        commits: commits.length,
      },
      truncated,
      limits: { file_lines: CHANGE_CAPS.fileLines, total_lines: CHANGE_CAPS.totalLines },
      computed_at: this.ctx.clock.now().toISOString(),
    };
  }
}

/** The head's diff from where it left its base (from the base's tip when they share no history). */
const diffOf = (tips: Tips) => unifiedDiff(tips.mirror, tips.mergeBase ?? tips.base.sha, tips.head.sha);
