/**
 * What every part of the workspaces service shares: the database (task ancestry, local pull
 * requests), the git runner, the per-directory job queue, the workspaces root, the mirrors, the
 * forges and the project token lookup.
 */
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import type { GitRunner, KeyedQueue } from '../../platform/git/index.js';
import { WorkspaceError } from './errors.js';
import type { ProjectForges } from './forges.js';
import type { Mirrors, TokenLookup } from './mirror.js';
import type { WorkspaceProject, WorkspaceTask } from './types.js';

export interface WorkspaceContext {
  db: Db;
  clock: Clock;
  runner: GitRunner;
  queue: KeyedQueue;
  /** `<dataDir>/workspaces` */
  root: string;
  mirrors: Mirrors;
  forges: ProjectForges;
  tokenFor: TokenLookup;
  /** Sign agent commits with GnuPG when set. */
  signing?: { keyId?: string; gnupgHome?: string } | undefined;
}

/** Refuses a task that does not belong to `project` (or has no project: a branchless coordinator). */
export function assertTaskInProject(task: WorkspaceTask, project: WorkspaceProject): void {
  if (task.projectId !== project.id) {
    throw new WorkspaceError(
      'invalid_state',
      'task_not_in_project',
      task.projectId
        ? `task ${task.id} belongs to another project`
        : `task ${task.id} has no project of its own, so it has no workspace`,
      { task_id: task.id, project_id: project.id },
    );
  }
}

/** The task's recorded branch; refuses a task that has none yet. */
export function requireBranch(task: WorkspaceTask): string {
  if (!task.branchName) {
    throw new WorkspaceError(
      'invalid_state',
      'no_branch',
      `task ${task.id} has no branch yet`,
      { task_id: task.id },
      'claim the task first (its branch is cut at the claim)',
    );
  }
  return task.branchName;
}
