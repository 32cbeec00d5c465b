/**
 * What a dispatch pass reads from the database: the open tasks it may route (with the facts the
 * routing needs — open dependencies, the sibling-sequence bar, subtasks, the work's author — and
 * the respawn breaker's row), the tasks each single-active agent holds, and the projects over
 * their monthly budget. Reads only; every change goes through the tasks service.
 */
import { and, asc, eq, inArray, isNotNull, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { SINGLE_ACTIVE_BUSY_STATES, type TaskStatus, TERMINAL_STATES } from '../lifecycle/index.js';
import { projects } from '../projects/index.js';
import { tasks } from '../tasks/index.js';
import type { UsageService } from '../usage/index.js';
import { type BreakerRow, lastProgressEventId, type ProgressMarks } from './breaker.js';
import type { DispatchTask } from './routing.js';
import { dispatchTaskSpawns } from './schema.js';

/** The statuses a pass looks at (blocked, backlog and the CEO's desk are nobody's to spawn for). */
export const DISPATCHABLE_STATUSES: readonly TaskStatus[] = [
  'pending',
  'claimed',
  'in_progress',
  'verifying',
  'needs_revision',
  'paused',
  'awaiting_qa',
  'awaiting_documentation',
  'awaiting_pr_review',
  'awaiting_pm_review',
];

/** Most tasks one pass considers (the most urgent first). */
export const CANDIDATE_LIMIT = 500;

export interface Candidate extends DispatchTask {
  marks: ProgressMarks;
  breaker: BreakerRow | null;
}

const terminal = sql.raw(TERMINAL_STATES.map((status) => `'${status}'`).join(', '));
const count = (query: ReturnType<typeof sql>) => query.mapWith(Number);

export async function loadCandidates(db: Db, limit = CANDIDATE_LIMIT): Promise<Candidate[]> {
  const rows = await db
    .select({
      id: tasks.id,
      title: tasks.title,
      status: tasks.status,
      team: tasks.team,
      taskType: tasks.taskType,
      complexity: tasks.complexity,
      priority: tasks.priority,
      assignedTo: tasks.assignedTo,
      activeClaimantId: tasks.activeClaimantId,
      parentTaskId: tasks.parentTaskId,
      projectId: tasks.projectId,
      markers: tasks.markers,
      lastHeartbeatAt: tasks.lastHeartbeatAt,
      lastEventId: lastProgressEventId,
      openDependencies: count(sql`(
        select count(*) from tasks d
        where d.id = any("tasks"."dependency_ids") and d.status not in (${terminal})
      )`),
      sequenceHeld: sql<boolean>`(
        "tasks"."parent_task_id" is not null and "tasks"."sequence" > 0 and exists (
          select 1 from tasks s
          where s.parent_task_id = "tasks"."parent_task_id" and s.id <> "tasks"."id"
            and s.sequence < "tasks"."sequence" and s.status not in (${terminal})
        )
      )`.mapWith(Boolean),
      subtasks: count(sql`(select count(*) from tasks c where c.parent_task_id = "tasks"."id")`),
      openSubtasks: count(sql`(
        select count(*) from tasks c where c.parent_task_id = "tasks"."id" and c.status not in (${terminal})
      )`),
      spawns: dispatchTaskSpawns.spawns,
      seenEventId: dispatchTaskSpawns.lastEventId,
      seenHeartbeatAt: dispatchTaskSpawns.heartbeatAt,
      stalledAt: dispatchTaskSpawns.stalledAt,
      tracked: dispatchTaskSpawns.taskId,
    })
    .from(tasks)
    .leftJoin(dispatchTaskSpawns, eq(dispatchTaskSpawns.taskId, tasks.id))
    .where(and(inArray(tasks.status, [...DISPATCHABLE_STATUSES]), eq(tasks.held, false)))
    .orderBy(asc(tasks.priority), asc(tasks.sequence), asc(tasks.createdAt))
    .limit(limit);
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

/**
 * Per agent, the tasks it holds as the single-active rule counts them: owned in a busy state, or
 * claimed (any open status).
 */
export async function loadHeldTasks(db: Db): Promise<Map<string, Set<string>>> {
  const rows = await db
    .select({
      id: tasks.id,
      assignedTo: tasks.assignedTo,
      claimant: tasks.activeClaimantId,
      status: tasks.status,
    })
    .from(tasks)
    .where(
      or(
        and(isNotNull(tasks.assignedTo), inArray(tasks.status, [...SINGLE_ACTIVE_BUSY_STATES])),
        and(isNotNull(tasks.activeClaimantId), notInArray(tasks.status, [...TERMINAL_STATES])),
      ),
    );
  const held = new Map<string, Set<string>>();
  const add = (agentId: string, taskId: string) => {
    const set = held.get(agentId) ?? new Set<string>();
    set.add(taskId);
    held.set(agentId, set);
  };
  for (const row of rows) {
    if (row.assignedTo && (SINGLE_ACTIVE_BUSY_STATES as readonly string[]).includes(row.status)) {
      add(row.assignedTo, row.id);
    }
    if (row.claimant) add(row.claimant, row.id);
  }
  return held;
}

export interface ProjectBudget {
  id: string;
  slug: string;
  capUsd: number;
  spentUsd: number;
}

/** Projects with a monthly budget and what they spent this (UTC) month. */
export async function projectBudgets(db: Db, usage: UsageService, now: Date): Promise<ProjectBudget[]> {
  const rows = await db
    .select({ id: projects.id, slug: projects.slug, cap: projects.monthlyBudgetUsd })
    .from(projects)
    .where(isNotNull(projects.monthlyBudgetUsd));
  const spent = await usage.spendByProjectMonth(
    rows.map((row) => row.id),
    now,
  );
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    capUsd: row.cap!,
    spentUsd: spent.get(row.id) ?? 0,
  }));
}

export const overBudget = (budget: Pick<ProjectBudget, 'capUsd' | 'spentUsd'>): boolean =>
  budget.spentUsd >= budget.capUsd;
