/**
 * The dashboard's figures, each from the owning modules' named reads: the stalled-task feed (the
 * respawn breaker's), spawn waste (spawn-waste.ts), provenance of new tasks, the CEO overview (team
 * health, blockers, throughput, lead time) and recent activity (the tasks module's feed).
 */
import type { Clock } from '../../platform/clock.js';
import { ACTIVE_STATES } from '../lifecycle/index.js';
import type { TaskActivityView } from '../tasks/index.js';
import type { DashboardDeps } from './deps.js';
import { dayKeys, hours, median, provenanceOf, type TeamHealth, teamHealth } from './rules.js';
import { type SpawnWaste, spawnWaste } from './spawn-waste.js';

export interface StalledTaskView {
  task_id: string;
  title: string;
  assignee_id: string | null;
  assignee_slug: string | null;
  status: string;
  reason: string;
  stalled_since: string;
  stalled_seconds: number;
}

export interface ProvenanceView {
  days: number;
  total: number;
  human: number;
  agent: number;
  engine: number;
  human_rate: number;
}

export interface TeamHealthView {
  team: string;
  status: TeamHealth;
  open_tasks: number;
  active_tasks: number;
  blocked_tasks: number;
  stalled_tasks: number;
}

export interface BlockerView {
  task_id: string;
  title: string;
  team: string;
  assignee_slug: string | null;
  reason: string | null;
  blocked_since: string;
  blocked_seconds: number;
}

export interface OverviewView {
  days: number;
  teams: TeamHealthView[];
  blockers: BlockerView[];
  throughput: { date: string; completed: number }[];
  completed: number;
  median_lead_time_hours: number | null;
}

/** The delivery cells are always on the overview, with or without open work. */
const CELLS = ['backend', 'frontend', 'ux_ui'];
const ACTIVE: readonly string[] = ACTIVE_STATES;

const seconds = (from: Date, to: Date) => Math.max(0, Math.floor((to.getTime() - from.getTime()) / 1000));

export class DashboardService {
  constructor(
    private readonly deps: DashboardDeps,
    private readonly clock: Clock,
  ) {}

  private window(days: number) {
    const until = this.clock.now();
    return { since: new Date(until.getTime() - days * 86_400_000), until, days };
  }

  private async slugs(): Promise<Map<string, string>> {
    const roster = await this.deps.agents.service.list({ includeRetired: true });
    return new Map(roster.map((agent) => [agent.id, agent.slug]));
  }

  /** Open tasks the respawn breaker gave up on (and that made no progress since), oldest first. */
  async stalledTasks(): Promise<StalledTaskView[]> {
    const stalled = await this.deps.dispatch.stalledTasks(200);
    const [briefs, slugs] = await Promise.all([
      this.deps.tasks.metrics.briefs(stalled.map((s) => s.taskId)),
      this.slugs(),
    ]);
    const now = this.clock.now();
    return stalled.flatMap((stall) => {
      const brief = briefs.get(stall.taskId);
      if (!brief) return [];
      const assignee = brief.assignedTo ?? stall.agentId;
      return [
        {
          task_id: stall.taskId,
          title: brief.title,
          assignee_id: assignee,
          assignee_slug: assignee ? (slugs.get(assignee) ?? null) : null,
          status: brief.status,
          reason: stall.reason ?? 'breaker_tripped',
          stalled_since: stall.stalledAt.toISOString(),
          stalled_seconds: seconds(stall.stalledAt, now),
        },
      ];
    });
  }

  spawnWaste(days: number, agent?: string): Promise<SpawnWaste> {
    return spawnWaste(this.deps, this.window(days), agent);
  }

  /** Tasks created in the window by the source of their root ancestor. */
  async provenance(days: number): Promise<ProvenanceView> {
    const { since, until } = this.window(days);
    const roots = await this.deps.tasks.metrics.rootsOfCreated(since, until);
    const counts = { human: 0, agent: 0, engine: 0 };
    for (const root of roots) {
      counts[provenanceOf({ source: root.rootSource, creatorRole: root.rootCreatorRole })] += 1;
    }
    const total = roots.length;
    return {
      days,
      total,
      ...counts,
      human_rate: total > 0 ? Math.round((counts.human / total) * 10_000) / 10_000 : 0,
    };
  }

  /** Per-team health, the blockers, completions per day and the median lead time over the last `days` UTC days. */
  async overview(days: number): Promise<OverviewView> {
    // Whole UTC days: today and the `days - 1` before it.
    const until = this.clock.now();
    const keys = dayKeys(until, days);
    const since = new Date(`${keys[0]}T00:00:00.000Z`);
    const { metrics } = this.deps.tasks;
    const [counts, stalled, blocked, completed, slugs] = await Promise.all([
      metrics.openCounts(),
      this.deps.dispatch.stalledTasks(200),
      metrics.blocked(100),
      metrics.completedBetween(since, until),
      this.slugs(),
    ]);
    const stalledBriefs = await metrics.briefs(stalled.map((s) => s.taskId));
    const teams = new Map<string, TeamHealthView>();
    const team = (name: string) => {
      const row = teams.get(name) ?? {
        team: name,
        status: 'ok' as TeamHealth,
        open_tasks: 0,
        active_tasks: 0,
        blocked_tasks: 0,
        stalled_tasks: 0,
      };
      teams.set(name, row);
      return row;
    };
    for (const name of CELLS) team(name);
    for (const count of counts) {
      const row = team(count.team);
      row.open_tasks += count.count;
      if (ACTIVE.includes(count.status)) row.active_tasks += count.count;
      if (count.status === 'blocked') row.blocked_tasks += count.count;
    }
    for (const brief of stalledBriefs.values()) team(brief.team).stalled_tasks += 1;
    for (const row of teams.values()) {
      row.status = teamHealth({
        open: row.open_tasks,
        blocked: row.blocked_tasks,
        stalled: row.stalled_tasks,
      });
    }
    const perDay = new Map<string, number>();
    for (const task of completed) {
      const day = task.completedAt.toISOString().slice(0, 10);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    const lead = median(completed.map((task) => task.completedAt.getTime() - task.createdAt.getTime()));
    return {
      days,
      teams: [...teams.values()].sort((a, b) => a.team.localeCompare(b.team)),
      blockers: blocked.map((task) => ({
        task_id: task.id,
        title: task.title,
        team: task.team,
        assignee_slug: task.assignedTo ? (slugs.get(task.assignedTo) ?? null) : null,
        reason: task.reason,
        blocked_since: task.since.toISOString(),
        blocked_seconds: seconds(task.since, until),
      })),
      throughput: keys.map((date) => ({ date, completed: perDay.get(date) ?? 0 })),
      completed: completed.length,
      median_lead_time_hours: lead === null ? null : hours(lead),
    };
  }

  /** The newest task activity of the last `hours` hours (the tasks module's feed). */
  activity(windowHours: number, limit: number): Promise<TaskActivityView[]> {
    const since = new Date(this.clock.now().getTime() - windowHours * 3_600_000);
    return this.deps.tasks.service.activity(limit, undefined, since);
  }
}
