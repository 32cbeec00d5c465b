/** The /api/git answers as the API shows them (snake_case). */
import type { Static } from 'typebox';
import type { CleanupView, FileSliceView } from './api-schemas.js';
import type { CleanupOutcome } from './branch-cleanup.js';
import type { FileSlice } from './file-reader.js';

export function fileSliceView(slice: FileSlice): Static<typeof FileSliceView> {
  return {
    project: slice.project.slug,
    project_id: slice.project.id,
    branch: slice.branch,
    path: slice.path,
    commit: slice.commit,
    start_line: slice.window.start,
    end_line: slice.window.end,
    total_lines: slice.totalLines,
    truncated: slice.window.truncated,
    lines: slice.lines,
  };
}

export function cleanupView(outcome: CleanupOutcome): Static<typeof CleanupView> {
  return {
    dry_run: outcome.dryRun,
    deleted: outcome.deleted.map((entry) => ({
      task_id: entry.taskId,
      branch: entry.branch,
      worktrees_removed: entry.worktreesRemoved,
      ...(entry.localError ? { local_error: entry.localError } : {}),
    })),
    skipped: outcome.skipped.map((entry) => ({
      task_id: entry.taskId,
      branch: entry.branch,
      reason: entry.reason,
      ...(entry.detail ? { detail: entry.detail } : {}),
    })),
    next_cursor: outcome.nextCursor,
  };
}
