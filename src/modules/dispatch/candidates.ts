/**
 * What a dispatch pass reads from the database: the open tasks it may route (with the facts the
 * routing needs — open dependencies, the sibling-sequence bar, subtasks, the work's author — and
 * the respawn breaker's row) and the projects over their monthly budget, through the named reads
 * of the tasks and projects modules. Reads only; every change goes through the tasks service.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { AGENT_TURN_STATES, type TaskStatus } from '../lifecycle/index.js';
import { budgetedProjects } from '../projects/index.js';
import { dispatchCandidates } from '../tasks/index.js';
import type { UsageService } from '../usage/index.js';
import type { BreakerRow, ProgressMarks } from './breaker.js';
import type { DispatchTask } from './routing.js';
import { dispatchTaskSpawns } from './schema.js';

/** Most tasks one pass considers (the most urgent first). */
export const CANDIDATE_LIMIT = 500;

export interface Candidate extends DispatchTask {
  marks: ProgressMarks;
  breaker: BreakerRow | null;
}

export async function loadCandidates(db: Db, limit = CANDIDATE_LIMIT): Promise<Candidate[]> {
  // Tasks own most of the statement (rows, facts, order, limit), so it is their read; our breaker row joins in.
  const rows = await dispatchCandidates(db, {
    statuses: AGENT_TURN_STATES,
    limit,
    joined: {
      table: dispatchTaskSpawns,
      on: (taskId) => eq(dispatchTaskSpawns.taskId, taskId),
      fields: {
        spawns: dispatchTaskSpawns.spawns,
        seenEventId: dispatchTaskSpawns.lastEventId,
        seenHeartbeatAt: dispatchTaskSpawns.heartbeatAt,
        stalledAt: dispatchTaskSpawns.stalledAt,
        tracked: dispatchTaskSpawns.taskId,
      },
    },
  });
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    status: row.status as TaskStatus,
    team: row.team,
    taskType: row.taskType,
    complexity: row.complexity,
    priority: row.priority,
    assignedTo: row.assignedTo,
    activeClaimantId: row.activeClaimantId,
    parentTaskId: row.parentTaskId,
    projectId: row.projectId,
    author: typeof row.markers.original_developer === 'string' ? row.markers.original_developer : null,
    openDependencies: row.openDependencies,
    sequenceHeld: row.sequenceHeld,
    subtasks: row.subtasks,
    openSubtasks: row.openSubtasks,
    marks: { lastEventId: row.lastEventId, lastHeartbeatAt: row.lastHeartbeatAt },
    breaker: row.tracked
      ? {
          spawns: row.spawns ?? 0,
          seen: { lastEventId: row.seenEventId, lastHeartbeatAt: row.seenHeartbeatAt },
          stalledAt: row.stalledAt,
        }
      : null,
  }));
}

export interface ProjectBudget {
  id: string;
  slug: string;
  capUsd: number;
  spentUsd: number;
}

/** Projects with a monthly budget and what they spent this (UTC) month. */
export async function projectBudgets(db: Db, usage: UsageService, now: Date): Promise<ProjectBudget[]> {
  const rows = await budgetedProjects(db);
  const spent = await usage.spendByProjectMonth(
    rows.map((row) => row.id),
    now,
  );
  return rows.map((row) => ({ ...row, spentUsd: spent.get(row.id) ?? 0 }));
}

export const overBudget = (budget: Pick<ProjectBudget, 'capUsd' | 'spentUsd'>): boolean =>
  budget.spentUsd >= budget.capUsd;
