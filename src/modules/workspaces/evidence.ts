/**
 * The git part of a task's evidence (reference A §8.7): what its branch changes against its base
 * — files with status and line counts, totals, the commits, and the patch capped at 20,000
 * characters — read from the project's mirror, so no agent workspace is needed.
 */
import { diffFiles, diffPatch, logBetween, resolveRef } from '../../platform/git/index.js';
import { assertTaskInProject, requireBranch, type WorkspaceContext } from './context.js';
import { gitFailed } from './errors.js';
import type { WorkspaceProject, WorkspaceTask } from './types.js';
import type { TaskWorktrees } from './worktrees.js';

export interface DiffSummary {
  branch: string;
  base: string;
  /** False when the branch is not on the remote (nothing committed yet). */
  branch_exists: boolean;
  files: Array<{ path: string; status: string; insertions: number; deletions: number; binary: boolean }>;
  totals: { files_changed: number; insertions: number; deletions: number; commits: number };
  commits: Array<{ sha: string; subject: string; body: string; author: string; date: string }>;
  diff: string;
  diff_truncated: boolean;
}

export interface DiffSummaryInput {
  task: WorkspaceTask;
  project: WorkspaceProject;
  /** Compare against this branch instead of the task's base (e.g. the pull request's base). */
  base?: string;
  maxDiffChars?: number;
  signal?: AbortSignal;
}

export const DIFF_CAP_CHARS = 20_000;

export async function taskDiffSummary(
  ctx: WorkspaceContext,
  worktrees: TaskWorktrees,
  input: DiffSummaryInput,
): Promise<DiffSummary> {
  const { task, project, signal } = input;
  assertTaskInProject(task, project);
  const branch = requireBranch(task);
  const base = input.base ?? (await worktrees.plan(task, project)).base;
  const mirror = await ctx.mirrors.sync(project, signal);
  try {
    const empty: DiffSummary = {
      branch,
      base,
      branch_exists: false,
      files: [],
      totals: { files_changed: 0, insertions: 0, deletions: 0, commits: 0 },
      commits: [],
      diff: '',
      diff_truncated: false,
    };
    if (
      !(await resolveRef(mirror, `refs/heads/${branch}`)) ||
      !(await resolveRef(mirror, `refs/heads/${base}`))
    ) {
      return { ...empty, branch_exists: (await resolveRef(mirror, `refs/heads/${branch}`)) !== null };
    }
    const range = { base, head: branch };
    const [files, commits, patch] = await Promise.all([
      diffFiles(mirror, range),
      logBetween(mirror, range),
      diffPatch(mirror, range, input.maxDiffChars ?? DIFF_CAP_CHARS),
    ]);
    return {
      branch,
      base,
      branch_exists: true,
      files,
      totals: {
        files_changed: files.length,
        insertions: files.reduce((sum, f) => sum + f.insertions, 0),
        deletions: files.reduce((sum, f) => sum + f.deletions, 0),
        commits: commits.length,
      },
      commits: commits.map((c) => ({
        sha: c.sha,
        subject: c.subject,
        body: c.body,
        author: c.authorName,
        date: c.date,
      })),
      diff: patch.patch,
      diff_truncated: patch.truncated,
    };
  } catch (error) {
    throw gitFailed(error, 'reading the branch diff');
  }
}
