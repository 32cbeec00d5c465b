/**
 * `POST /api/git/branches/cleanup`: deletes the remote branch (and the agents' local worktrees and
 * branches, through the workspaces service) of tasks that are completed or cancelled and still
 * record a branch. Oldest first by (updated_at, id), at most `limit` tasks per call, resumable with
 * the opaque cursor the previous answer handed out. A branch already gone on the remote counts as
 * deleted, so a sweep may be repeated. Task rows are not changed. Never the default branch, a
 * ladder rung or a protected branch (see cleanup-rules.ts for every reason a branch stays).
 */
import { and, asc, eq, inArray, isNotNull, notInArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { Identity } from '../../platform/http/auth/identity.js';
import { forbidden, unprocessable } from '../../platform/http/errors.js';
import { messageOf } from '../../platform/message-of.js';
import { TERMINAL_STATES } from '../lifecycle/index.js';
import type { ProjectRow } from '../projects/index.js';
import { type TaskRow, tasks } from '../tasks/index.js';
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
    const conditions: SQL[] = [inArray(tasks.status, [...TERMINAL_STATES]), isNotNull(tasks.branchName)];
    if (filter.projectId) conditions.push(eq(tasks.projectId, filter.projectId));
    if (filter.team) conditions.push(eq(tasks.team, filter.team));
    if (filter.cursor) {
      conditions.push(
        sql`(${tasks.updatedAt}, ${tasks.id}) > (${filter.cursor.updatedAt}::timestamptz, ${filter.cursor.id}::uuid)`,
      );
    }
    const rows = await this.deps.db
      .select({
        task: tasks,
        cursorAt: sql<string>`to_char(${tasks.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      })
      .from(tasks)
      .where(and(...conditions))
      .orderBy(asc(tasks.updatedAt), asc(tasks.id))
      .limit(filter.limit + 1);
    return rows.map((row) => ({ ...row.task, branchName: row.task.branchName!, cursorAt: row.cursorAt }));
  }

  /** Which of the candidates' branches an open task still records, and which candidates have an open child. */
  private async facts(candidates: readonly Candidate[]) {
    const branchesInUse = new Set<string>();
    const openParents = new Set<string>();
    if (candidates.length === 0) return { branchesInUse, openParents };
    const open = notInArray(tasks.status, [...TERMINAL_STATES]);
    const holders = await this.deps.db
      .select({ projectId: tasks.projectId, branch: tasks.branchName })
      .from(tasks)
      .where(and(open, inArray(tasks.branchName, [...new Set(candidates.map((t) => t.branchName))])));
    for (const holder of holders) branchesInUse.add(`${holder.projectId}\u0000${holder.branch}`);
    const children = await this.deps.db
      .select({ parentId: tasks.parentTaskId })
      .from(tasks)
      .where(
        and(
          open,
          inArray(
            tasks.parentTaskId,
            candidates.map((t) => t.id),
          ),
        ),
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
