/**
 * The sums of outcome rows that an experiment arm's or a route's figures are made of (ArmSums, but
 * the runs, which each counts its own way), as select columns over `task_outcomes`; and the runs as
 * the outcome rows count them (the scorecards' and the route advice's).
 */
import { sql } from 'drizzle-orm';
import { taskOutcomes } from './schema.js';

export function outcomeSums() {
  const o = taskOutcomes;
  const done = sql`${o.end} in ('merged', 'accepted')`;
  return {
    tasks: sql<number>`count(*)::int`,
    ended: sql<number>`count(${o.end})::int`,
    qa_n: sql<number>`count(${o.qaFirstPass})::int`,
    qa_first: sql<number>`count(*) filter (where ${o.qaFirstPass})::int`,
    rework: sql<number>`coalesce(sum(${o.reworkRounds}) filter (where ${o.end} is not null), 0)::int`,
    findings: sql<number>`coalesce(sum(${o.findingsBlocker} + ${o.findingsMajor} + ${o.findingsMinor} + ${o.findingsNit}) filter (where ${o.end} is not null), 0)::int`,
    cost: sql<number>`coalesce(sum(${o.costUsd}), 0)::float8`,
    accepted: sql<number>`count(*) filter (where ${done})::int`,
    accepted_cost: sql<number>`coalesce(sum(${o.costUsd}) filter (where ${done}), 0)::float8`,
  };
}

export function outcomeRunSums() {
  const o = taskOutcomes;
  return {
    runs: sql<number>`coalesce(sum(${o.runs}), 0)::int`,
    failed_on_start: sql<number>`coalesce(sum(${o.runsFailedOnStart}), 0)::int`,
  };
}
