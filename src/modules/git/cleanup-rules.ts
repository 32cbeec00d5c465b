/**
 * The rules of `POST /api/git/branches/cleanup`, pure: who may sweep which tasks, the opaque
 * cursor over (updated_at, id), and why a finished task's branch is kept. A branch is never
 * deleted when it is the default branch, an environment-ladder rung or a declared protected
 * branch, when a task that is still open records the same branch, or when an open child task
 * still builds on it (its pull request targets this branch).
 */
import { isUuid } from '../../platform/ids.js';

export const CLEANUP_LIMIT = { default: 50, max: 200 } as const;

export const CLEANUP_ROLES = ['ceo', 'main_pm', 'cell_pm'] as const;

export const CLEANUP_SKIP_REASONS = [
  'no_project',
  'protected_branch',
  'branch_in_use',
  'open_child_task',
  'delete_failed',
] as const;
export type CleanupSkipReason = (typeof CLEANUP_SKIP_REASONS)[number];

/** Which tasks a caller may sweep: all of them, or only its own cell's; or why it may not. */
export function cleanupScope(
  caller: { role: string; team: string },
  projectCell: string | null,
): { team: string | null } | { problem: string } {
  if (caller.role === 'ceo' || caller.role === 'main_pm') return { team: null };
  if (caller.role !== 'cell_pm') return { problem: 'only the CEO and PMs may clean up branches' };
  if (!caller.team) return { problem: 'a cell PM without a cell may not clean up branches' };
  if (projectCell && projectCell !== caller.team) {
    return {
      problem: `a cell PM of ${caller.team} may not clean up branches of a project of the ${projectCell} cell`,
    };
  }
  return { team: caller.team };
}

export interface CleanupCandidate {
  branch: string;
  /** The branches the task's project never loses (default, ladder rungs, protected); null without a project. */
  protectedBranches: ReadonlySet<string> | null;
  /** A task that is not finished records the same branch in the same project. */
  branchInUse: boolean;
  /** A direct child of the task is not finished. */
  hasOpenChild: boolean;
}

/** Why the candidate's branch stays, or null when it may go. */
export function cleanupSkipReason(candidate: CleanupCandidate): CleanupSkipReason | null {
  if (!candidate.protectedBranches) return 'no_project';
  if (candidate.protectedBranches.has(candidate.branch)) return 'protected_branch';
  if (candidate.branchInUse) return 'branch_in_use';
  if (candidate.hasOpenChild) return 'open_child_task';
  return null;
}

/** A position in the sweep: after the task `id` last updated at `updatedAt` (UTC, microseconds, `…T…Z`). */
export interface CleanupCursor {
  updatedAt: string;
  id: string;
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function encodeCleanupCursor(cursor: CleanupCursor): string {
  return Buffer.from(JSON.stringify([cursor.updatedAt, cursor.id]), 'utf8').toString('base64url');
}

/** The cursor a previous answer handed out, or null when `text` is not one. */
export function decodeCleanupCursor(text: string): CleanupCursor | null {
  if (text.length > 200 || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [updatedAt, id] = value as unknown[];
  if (typeof updatedAt !== 'string' || typeof id !== 'string' || !isUuid(id)) return null;
  if (!CURSOR_TIME.test(updatedAt)) return null;
  const ms = Date.parse(updatedAt);
  // A date the calendar does not have (2024-02-30) parses by rolling over: refuse it.
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== updatedAt.slice(0, 19)) return null;
  return { updatedAt, id: id.toLowerCase() };
}
