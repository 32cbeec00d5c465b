/**
 * Work-session rules, pure: git branch names, commit hashes, repo-relative file lists and their
 * de-duplicated merge, and who may work a session — the task's assignee or active claimant (or the
 * session's own agent), or the CEO, a PM or the system on anyone's behalf.
 */
import { BRANCH_NAME_MAX } from '../../platform/git/index.js';
import type { Role } from '../../platform/http/auth/identity.js';
import type { FieldProblem } from '../../platform/http/errors.js';

export const SESSION_STATUSES = ['active', 'completed', 'abandoned'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
export const END_STATUSES = ['completed', 'abandoned'] as const;
export type EndStatus = (typeof END_STATUSES)[number];

/** Roles that may start and work sessions on behalf of the task's owner. */
export const SESSION_MANAGER_ROLES: readonly Role[] = ['ceo', 'main_pm', 'cell_pm', 'system'];

export const LIMITS = {
  branch: BRANCH_NAME_MAX,
  message: 2000,
  file: 500,
  filesPerCommit: 1000,
  prUrl: 500,
} as const;

export const isCommitHash = (value: string): boolean => /^[0-9a-f]{7,40}$/i.test(value);

/** Why `path` is not a repo-relative file path, or null. */
export function filePathProblem(path: string): string | null {
  if (path.length === 0) return 'must not be empty';
  if (path.length > LIMITS.file) return `must be at most ${LIMITS.file} characters`;
  if (/^[/\\]/.test(path) || /^[A-Za-z]:/.test(path)) return 'must be repo-relative';
  if (path.split(/[/\\]/).includes('..')) return 'must not contain a .. segment';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting them is the point
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'must not contain control characters';
  return null;
}

/** Field problems of a commit's file list (`at` names the list, e.g. `body.files`). */
export function fileListProblems(files: readonly string[], at: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (files.length > LIMITS.filesPerCommit) {
    problems.push({ field: at, message: `must list at most ${LIMITS.filesPerCommit} files` });
  }
  files.forEach((file, index) => {
    const problem = filePathProblem(normalizePath(file));
    if (problem) problems.push({ field: `${at}[${index}]`, message: problem });
  });
  return problems;
}

export const normalizePath = (path: string): string => path.trim().replace(/^(\.\/)+/, '');

/** The files already recorded, then the new ones not yet among them, each once, in first-seen order. */
export function mergeFiles(recorded: readonly string[], added: readonly string[]): string[] {
  const seen = new Set<string>();
  const merged: string[] = [];
  for (const file of [...recorded, ...added.map(normalizePath)]) {
    if (file && !seen.has(file)) {
      seen.add(file);
      merged.push(file);
    }
  }
  return merged;
}

/** Who is asking: a role, and the roster agent behind the identity when there is one. */
export interface SessionActor {
  readonly role: Role;
  readonly agentId: string | null;
}

export const managesSessions = (actor: SessionActor): boolean => SESSION_MANAGER_ROLES.includes(actor.role);

/** The actor owns the task's work: its assignee, its active claimant, or the session's own agent. */
export function ownsWork(
  actor: SessionActor,
  task: { assignedTo: string | null; activeClaimantId: string | null },
  sessionAgentId?: string,
): boolean {
  const id = actor.agentId;
  return id !== null && (id === task.assignedTo || id === task.activeClaimantId || id === sessionAgentId);
}

/**
 * The agent a new session belongs to: the one asked for, else the actor when it owns the task,
 * else the task's active claimant or assignee, else the actor itself; null when nobody fits.
 */
export function sessionAgentFor(
  requested: string | undefined,
  actor: SessionActor | undefined,
  task: { assignedTo: string | null; activeClaimantId: string | null },
): string | null {
  if (requested) return requested;
  if (actor && ownsWork(actor, task)) return actor.agentId;
  return task.activeClaimantId ?? task.assignedTo ?? actor?.agentId ?? null;
}
