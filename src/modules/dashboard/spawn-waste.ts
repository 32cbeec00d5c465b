/**
 * Spawn waste: the agent runs on a task that ended in the window with no progress signal inside
 * them — no audit row on their task by their agent between the run's start and end (a state
 * advance, a claim, a plan, a commit, a note, a review verdict with its evidence, a delegation) —
 * and what they cost, overall and by agent, team and task.
 */
import { unprocessable } from '../../platform/http/errors.js';
import type { Agent } from '../agents/index.js';
import type { DashboardDeps } from './deps.js';
import { runMadeProgress, usd } from './rules.js';

export interface WasteRow {
  key: string;
  label: string;
  runs: number;
  zero_progress_runs: number;
  zero_progress_cost_usd: number;
}

export interface SpawnWaste {
  days: number;
  total_runs: number;
  zero_progress_runs: number;
  total_cost_usd: number;
  zero_progress_cost_usd: number;
  zero_progress_cost_share: number;
  by_agent: WasteRow[];
  by_team: WasteRow[];
  by_task: WasteRow[];
}

/** Rows kept per task breakdown (the worst first). */
const TASK_ROWS = 50;

class Tally {
  private readonly rows = new Map<string, WasteRow>();

  add(key: string, label: string, zero: boolean, cost: number): void {
    const row = this.rows.get(key) ?? {
      key,
      label,
      runs: 0,
      zero_progress_runs: 0,
      zero_progress_cost_usd: 0,
    };
    row.runs += 1;
    if (zero) {
      row.zero_progress_runs += 1;
      row.zero_progress_cost_usd += cost;
    }
    this.rows.set(key, row);
  }

  /** Most zero-progress runs first, then the costliest, then by label. */
  sorted(limit = Number.POSITIVE_INFINITY): WasteRow[] {
    return [...this.rows.values()]
      .map((row) => ({ ...row, zero_progress_cost_usd: usd(row.zero_progress_cost_usd) }))
      .sort(
        (a, b) =>
          b.zero_progress_runs - a.zero_progress_runs ||
          b.zero_progress_cost_usd - a.zero_progress_cost_usd ||
          a.label.localeCompare(b.label),
      )
      .slice(0, limit);
  }
}

/** The roster member named by id or slug; 422 naming `query.agent` when there is none. */
export function agentNamed(roster: readonly Agent[], name: string): Agent {
  const agent = roster.find((a) => a.id === name || a.slug === name);
  if (!agent) {
    throw unprocessable('there is no such agent', [
      { field: 'query.agent', message: `no agent has the id or slug "${name}"` },
    ]);
  }
  return agent;
}

export async function spawnWaste(
  deps: DashboardDeps,
  window: { since: Date; until: Date; days: number },
  agentName?: string,
): Promise<SpawnWaste> {
  const roster = await deps.agents.service.list({ includeRetired: true });
  const only = agentName === undefined ? null : agentNamed(roster, agentName);
  const runs = (await deps.runtime.endedTaskRuns(window.since, window.until)).filter(
    (run) => !only || run.agentId === only.id,
  );
  const taskIds = [...new Set(runs.map((run) => run.taskId))];
  const lastEnd = new Date(Math.max(window.until.getTime(), ...runs.map((run) => run.endedAt.getTime())));
  const [signals, briefs, costs] = await Promise.all([
    deps.tasks.metrics.progressEvents(taskIds, window.since, lastEnd),
    deps.tasks.metrics.briefs(taskIds),
    deps.runSpend(runs),
  ]);
  const signalsOf = new Map<string, Date[]>();
  for (const signal of signals) {
    const key = `${signal.taskId}:${signal.actorId}`;
    signalsOf.set(key, [...(signalsOf.get(key) ?? []), signal.at]);
  }
  const agents = new Map(roster.map((agent) => [agent.id, agent]));
  const byAgent = new Tally();
  const byTeam = new Tally();
  const byTask = new Tally();
  let zeroRuns = 0;
  let totalCost = 0;
  let zeroCost = 0;
  for (const run of runs) {
    const zero = !runMadeProgress(run, signalsOf.get(`${run.taskId}:${run.agentId}`) ?? []);
    const cost = costs.get(run.id) ?? 0;
    totalCost += cost;
    if (zero) {
      zeroRuns += 1;
      zeroCost += cost;
    }
    const agent = agents.get(run.agentId);
    const team = agent?.team ?? 'none';
    byAgent.add(run.agentId, agent?.slug ?? run.agentId, zero, cost);
    byTeam.add(team, team, zero, cost);
    byTask.add(run.taskId, briefs.get(run.taskId)?.title ?? run.taskId, zero, cost);
  }
  return {
    days: window.days,
    total_runs: runs.length,
    zero_progress_runs: zeroRuns,
    total_cost_usd: usd(totalCost),
    zero_progress_cost_usd: usd(zeroCost),
    zero_progress_cost_share: totalCost > 0 ? Math.round((zeroCost / totalCost) * 10_000) / 10_000 : 0,
    by_agent: byAgent.sorted(),
    by_team: byTeam.sorted(),
    by_task: byTask.sorted(TASK_ROWS),
  };
}
