import type { Db } from '../../platform/db/client.js';
import type { Identity } from '../../platform/http/auth/identity.js';
import { forbidden, unprocessable } from '../../platform/http/errors.js';
import { messageOf } from '../../platform/message-of.js';
import type { ProjectRow } from '../projects/index.js';
import {
  finishedTasksWithBranch,
  openBranchHolders,
  parentsWithOpenChild,
  type TaskRow,
} from '../tasks/index.js';
import { protectedBranchSet, type WorkspaceProject, type WorkspaceTask } from '../workspaces/index.js';
import {
  CLEANUP_LIMIT,
  type CleanupCursor,
  type CleanupSkipReason,
  cleanupScope,
  cleanupSkipReason,
  decodeCleanupCursor,
  encodeCleanupCursor,
} from './cleanup-rules.js';

export interface CleanupRequest {
  project?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
  dry_run?: boolean | undefined;
}

export interface CleanupOutcome {
  dryRun: boolean;
  deleted: Array<{ taskId: string; branch: string; worktreesRemoved: number; localError?: string }>;
  skipped: Array<{ taskId: string; branch: string; reason: CleanupSkipReason; detail?: string }>;
  nextCursor: string | null;
}

export interface CleanupDeps {
  db: Db;
  projects: {
    get(idOrSlug: string): Promise<ProjectRow>;
    find(idOrSlug: string): Promise<ProjectRow | null>;
  };
  workspaces: {
    deleteRemoteBranch(project: WorkspaceProject, branch: string, signal?: AbortSignal): Promise<void>;
    cleanupTask(task: WorkspaceTask, project: WorkspaceProject): Promise<string[]>;
  };
}

type Candidate = TaskRow & { branchName: string; cursorAt: string };

export class BranchCleanup {
  constructor(private readonly deps: CleanupDeps) {}

  async run(caller: Pick<Identity, 'role' | 'team'>, request: CleanupRequest): Promise<CleanupOutcome> {
    const cursor = request.cursor === undefined ? null : decodeCleanupCursor(request.cursor);
    if (request.cursor !== undefined && !cursor) {
      throw unprocessable('the cursor is not one a previous cleanup answered with', [
        { field: 'body.cursor', message: 'not a cursor of this sweep' },
      ]);
    }
    const project = request.project === undefined ? null : await this.deps.projects.get(request.project);
    const scope = cleanupScope(caller, project?.assignedCell ?? null);
    if ('problem' in scope) throw forbidden(scope.problem);
    const limit = request.limit ?? CLEANUP_LIMIT.default;
    const page = await this.window({ projectId: project?.id ?? null, team: scope.team, cursor, limit });
    const dryRun = request.dry_run === true;
    const outcome: CleanupOutcome = { dryRun, deleted: [], skipped: [], nextCursor: null };
    const candidates = page.slice(0, limit);
    const facts = await this.facts(candidates);
    const projects = new Map<string, ProjectRow | null>(project ? [[project.id, project]] : []);
    for (const task of candidates) {
      const owner = await this.projectOf(task, projects);
      const reason = cleanupSkipReason({
        branch: task.branchName,
        protectedBranches: owner ? protectedBranchSet(owner) : null,
        branchInUse: facts.branchesInUse.has(`${task.projectId}\u0000${task.branchName}`),
        hasOpenChild: facts.openParents.has(task.id),
      });
      if (reason) outcome.skipped.push({ taskId: task.id, branch: task.branchName, reason });
      else if (dryRun)
        outcome.deleted.push({ taskId: task.id, branch: task.branchName, worktreesRemoved: 0 });
      else await this.delete(task, owner!, outcome);
    }
    const last = candidates.at(-1);
    if (page.length > limit && last) outcome.nextCursor = encodeCleanupCursor(cursorOf(last));
    return outcome;
  }

  private async delete(task: Candidate, project: ProjectRow, outcome: CleanupOutcome): Promise<void> {
    try {
      await this.deps.workspaces.deleteRemoteBranch(project, task.branchName);
    } catch (error) {
      outcome.skipped.push({
        taskId: task.id,
        branch: task.branchName,
        reason: 'delete_failed',
        detail: messageOf(error, 500),
      });
      return;
    }
    const entry: CleanupOutcome['deleted'][number] = {
      taskId: task.id,
      branch: task.branchName,
      worktreesRemoved: 0,
    };
    try {
      entry.worktreesRemoved = (await this.deps.workspaces.cleanupTask(task, project)).length;
    } catch (error) {
      entry.localError = messageOf(error, 500);
    }
    outcome.deleted.push(entry);
  }

  /** Finished tasks with a branch after the cursor, oldest first: `limit + 1` rows (the last one only says "more"). */
  private async window(filter: {
    projectId: string | null;
    team: string | null;
    cursor: CleanupCursor | null;
    limit: number;
  }): Promise<Candidate[]> {
    const rows = await finishedTasksWithBranch(this.deps.db, { ...filter, limit: filter.limit + 1 });
    return rows.map((row) => ({ ...row.task, branchName: row.task.branchName!, cursorAt: row.cursorAt }));
  }

  /** Which of the candidates' branches an open task still records, and which candidates have an open child. */
  private async facts(candidates: readonly Candidate[]) {
    const branchesInUse = new Set<string>();
    const openParents = new Set<string>();
    if (candidates.length === 0) return { branchesInUse, openParents };
    const holders = await openBranchHolders(this.deps.db, [...new Set(candidates.map((t) => t.branchName))]);
    for (const holder of holders) branchesInUse.add(`${holder.projectId}\u0000${holder.branch}`);
    const children = await parentsWithOpenChild(
      this.deps.db,
      candidates.map((t) => t.id),
    );
    for (const child of children) if (child.parentId) openParents.add(child.parentId);
    return { branchesInUse, openParents };
  }

  private async projectOf(
    task: Candidate,
    cache: Map<string, ProjectRow | null>,
  ): Promise<ProjectRow | null> {
    if (!task.projectId) return null;
    if (!cache.has(task.projectId)) cache.set(task.projectId, await this.deps.projects.find(task.projectId));
    return cache.get(task.projectId) ?? null;
  }
}

function cursorOf(task: Candidate): CleanupCursor {
  return { updatedAt: task.cursorAt, id: task.id };
}
