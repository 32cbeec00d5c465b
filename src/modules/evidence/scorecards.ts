/**
 * Scorecards: the outcome rows of the tasks that ended in a period (merged, accepted or cancelled),
 * grouped by the owner's role, CLI, model, agent or the project, each group's figures summed in SQL
 * and turned into rates with intervals here (stats.ts). The tasks behind any figure are listed by
 * `scorecardTasks` with the same filter, so every number can be checked.
 */
import { and, eq, gte, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { taskStatusOf, taskTitleOf } from '../tasks/index.js';
import { taskOutcomes } from './schema.js';
import { type Interval, MIN_SAMPLE, wilson } from './stats.js';
import { outcomeRunSums } from './sums.js';

export const PERIODS = { '7d': 7, '30d': 30, '90d': 90 } as const;
export type Period = keyof typeof PERIODS;
export const GROUPINGS = ['role', 'cli', 'model', 'agent', 'project'] as const;
export type Grouping = (typeof GROUPINGS)[number];

const GROUP_COLUMN: Record<Grouping, SQL> = {
  role: sql`${taskOutcomes.ownerRole}`,
  cli: sql`${taskOutcomes.cli}`,
  model: sql`${taskOutcomes.model}`,
  agent: sql`${taskOutcomes.ownerAgentId}::text`,
  project: sql`${taskOutcomes.projectId}::text`,
};

export interface ScorecardFilter {
  period: Period;
  by: Grouping;
  /** Only the tasks whose owner has this role / whose project is this one. */
  role?: string;
  projectId?: string;
}

export interface Scorecard {
  /** The group's key (a role, a CLI, a model, an agent id, a project id); null: not known. */
  key: string | null;
  tasks: number;
  /** False below MIN_SAMPLE tasks: the rates are then null ("not enough data"). */
  enough: boolean;
  first_pass_qa: Interval | null;
  mean_rework_rounds: number | null;
  findings_per_task: { blocker: number; major: number; minor: number; nit: number } | null;
  claim_to_end_seconds: { p50: number | null; p90: number | null };
  cost_usd: number;
  cost_per_merged_root: number | null;
  cost_per_accepted_subtask: number | null;
  failure_on_start: Interval | null;
  runs: number;
}

/** The tasks that ended in the period up to `now`. */
export function endedIn(period: Period, now: Date): SQL {
  const since = new Date(now.getTime() - PERIODS[period] * 86_400_000);
  return and(isNotNull(taskOutcomes.end), gte(taskOutcomes.endedAt, since)) as SQL;
}

function where(filter: ScorecardFilter, now: Date): SQL {
  return and(
    endedIn(filter.period, now),
    filter.role ? eq(taskOutcomes.ownerRole, filter.role) : undefined,
    filter.projectId ? eq(taskOutcomes.projectId, filter.projectId) : undefined,
  ) as SQL;
}

interface GroupRow {
  key: string | null;
  tasks: number;
  qa_n: number;
  qa_first: number;
  rework: number;
  blocker: number;
  major: number;
  minor: number;
  nit: number;
  p50: number | null;
  p90: number | null;
  cost: number;
  merged_roots: number;
  merged_root_cost: number;
  accepted: number;
  accepted_cost: number;
  runs: number;
  failed_on_start: number;
}

export async function scorecards(db: Db, filter: ScorecardFilter, now: Date): Promise<Scorecard[]> {
  const key = GROUP_COLUMN[filter.by];
  const o = taskOutcomes;
  const claimToEnd = sql`extract(epoch from (${o.endedAt} - ${o.firstClaimedAt}))`;
  const done = sql`${o.end} in ('merged', 'accepted') and ${o.firstClaimedAt} is not null`;
  // A merged root's cost is its whole tree's: every task under it, whatever its group.
  const rootCost = sql`(select coalesce(sum(t.cost_usd), 0) from ${taskOutcomes} t where t.root_task_id = ${o.taskId})`;
  const rows = await db
    .select({
      key: sql<string | null>`${key}`,
      tasks: sql<number>`count(*)::int`,
      qa_n: sql<number>`count(${o.qaFirstPass})::int`,
      qa_first: sql<number>`count(*) filter (where ${o.qaFirstPass})::int`,
      rework: sql<number>`coalesce(sum(${o.reworkRounds}), 0)::int`,
      blocker: sql<number>`coalesce(sum(${o.findingsBlocker}), 0)::int`,
      major: sql<number>`coalesce(sum(${o.findingsMajor}), 0)::int`,
      minor: sql<number>`coalesce(sum(${o.findingsMinor}), 0)::int`,
      nit: sql<number>`coalesce(sum(${o.findingsNit}), 0)::int`,
      p50: sql<
        number | null
      >`(percentile_cont(0.5) within group (order by ${claimToEnd}) filter (where ${done}))::float8`,
      p90: sql<
        number | null
      >`(percentile_cont(0.9) within group (order by ${claimToEnd}) filter (where ${done}))::float8`,
      cost: sql<number>`coalesce(sum(${o.costUsd}), 0)::float8`,
      merged_roots: sql<number>`count(*) filter (where ${o.end} = 'merged' and ${o.isRoot})::int`,
      merged_root_cost: sql<number>`coalesce(sum(${rootCost}) filter (where ${o.end} = 'merged' and ${o.isRoot}), 0)::float8`,
      accepted: sql<number>`count(*) filter (where ${o.end} = 'accepted')::int`,
      accepted_cost: sql<number>`coalesce(sum(${o.costUsd}) filter (where ${o.end} = 'accepted'), 0)::float8`,
      ...outcomeRunSums(),
    })
    .from(o)
    .where(where(filter, now))
    .groupBy(key)
    .orderBy(sql`count(*) desc`, key);
  return (rows as GroupRow[]).map(scorecardOf);
}

const per = (total: number, n: number) => (n > 0 ? total / n : null);

function scorecardOf(row: GroupRow): Scorecard {
  const enough = row.tasks >= MIN_SAMPLE;
  return {
    key: row.key,
    tasks: row.tasks,
    enough,
    first_pass_qa: enough ? wilson(row.qa_first, row.qa_n) : null,
    mean_rework_rounds: enough ? row.rework / row.tasks : null,
    findings_per_task: enough
      ? {
          blocker: row.blocker / row.tasks,
          major: row.major / row.tasks,
          minor: row.minor / row.tasks,
          nit: row.nit / row.tasks,
        }
      : null,
    claim_to_end_seconds: { p50: row.p50, p90: row.p90 },
    cost_usd: row.cost,
    cost_per_merged_root: per(row.merged_root_cost, row.merged_roots),
    cost_per_accepted_subtask: per(row.accepted_cost, row.accepted),
    failure_on_start: row.runs >= MIN_SAMPLE ? wilson(row.failed_on_start, row.runs) : null,
    runs: row.runs,
  };
}

/** The measures whose tasks can be listed. */
export const MEASURES = [
  'tasks',
  'first_pass_qa',
  'qa_failed_first',
  'reworked',
  'with_findings',
  'merged_roots',
  'accepted',
  'failed_on_start',
] as const;
export type Measure = (typeof MEASURES)[number];

const MEASURE_FILTER: Record<Measure, SQL | undefined> = {
  tasks: undefined,
  first_pass_qa: sql`${taskOutcomes.qaFirstPass} = true`,
  qa_failed_first: sql`${taskOutcomes.qaFirstPass} = false`,
  reworked: sql`${taskOutcomes.reworkRounds} > 0`,
  with_findings: sql`${taskOutcomes.findingsBlocker} + ${taskOutcomes.findingsMajor} + ${taskOutcomes.findingsMinor} + ${taskOutcomes.findingsNit} > 0`,
  merged_roots: sql`${taskOutcomes.end} = 'merged' and ${taskOutcomes.isRoot}`,
  accepted: sql`${taskOutcomes.end} = 'accepted'`,
  failed_on_start: sql`${taskOutcomes.runsFailedOnStart} > 0`,
};

/** The tasks behind one group's measure (at most `limit`, newest first). */
export async function scorecardTasks(
  db: Db,
  filter: ScorecardFilter & { key: string | null; measure: Measure; limit: number },
  now: Date,
) {
  const key = GROUP_COLUMN[filter.by];
  return db
    .select({
      task_id: taskOutcomes.taskId,
      title: taskTitleOf(taskOutcomes.taskId),
      status: sql<string>`coalesce(${taskStatusOf(taskOutcomes.taskId)}, '')`,
      end: taskOutcomes.end,
      ended_at: taskOutcomes.endedAt,
      owner_agent_id: taskOutcomes.ownerAgentId,
      cli: taskOutcomes.cli,
      model: taskOutcomes.model,
      qa_first_pass: taskOutcomes.qaFirstPass,
      rework_rounds: taskOutcomes.reworkRounds,
      cost_usd: taskOutcomes.costUsd,
    })
    .from(taskOutcomes)
    .where(
      and(
        where(filter, now),
        filter.key === null ? sql`${key} is null` : sql`${key} = ${filter.key}`,
        MEASURE_FILTER[filter.measure],
      ),
    )
    .orderBy(sql`${taskOutcomes.endedAt} desc`)
    .limit(filter.limit);
}
