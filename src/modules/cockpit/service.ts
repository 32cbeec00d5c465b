/**
 * The CEO's business summary: the charter's north star and objectives, delivery (open work,
 * completions and their quality over 30 days), spend (30 days, the month's projection against the
 * company cap) and the signals worth attention.
 */
import type { Clock } from '../../platform/clock.js';
import type { Objective } from '../company-goals/index.js';
import { hours, median } from '../dashboard/index.js';
import { monthWindow } from '../usage/index.js';
import type { CockpitDeps } from './deps.js';
import { firstPassYield, projectMonth, type Signal, signalsOf } from './rules.js';

export interface CockpitSummary {
  north_star: string;
  objectives: Objective[];
  delivery: {
    in_flight: number;
    blocked: number;
    awaiting_ceo: number;
    completed_30d: number;
    median_lead_time_hours: number | null;
    first_pass_yield: number | null;
  };
  spend: {
    spend_30d_usd: number;
    month_to_date_usd: number;
    projected_month_usd: number;
    monthly_cap_usd: number | null;
    over_budget: boolean;
  };
  signals: Signal[];
}

const DAY_MS = 86_400_000;
/** Open states that are not in flight: not started yet, stuck, or waiting on the CEO. */
const NOT_IN_FLIGHT: readonly string[] = ['backlog', 'blocked', 'awaiting_ceo_approval'];

const usd = (value: number) => Math.round(value * 100) / 100;

export class CockpitService {
  constructor(
    private readonly deps: CockpitDeps,
    private readonly clock: Clock,
  ) {}

  async summary(): Promise<CockpitSummary> {
    const now = this.clock.now();
    const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const month = monthWindow(now);
    const { metrics } = this.deps.tasks;
    const spend = this.deps.usage.service;
    const [
      goals,
      counts,
      completed,
      stalled,
      cap,
      spent30,
      monthToDate,
      last7,
      blockedLastWeek,
      blockedWeekBefore,
    ] = await Promise.all([
      this.deps.companyGoals.service.get(),
      metrics.openCounts(),
      metrics.completedBetween(ago(30), now),
      this.deps.dispatch.stalledTasks(200),
      this.deps.settings.service.get('company_monthly_budget_usd'),
      spend.spendBetween(ago(30), now),
      spend.spendBetween(month.start, now),
      spend.spendBetween(ago(7), now),
      metrics.entriesInto('blocked', ago(7), now),
      metrics.entriesInto('blocked', ago(14), ago(7)),
    ]);
    const count = (pick: (status: string) => boolean) =>
      counts.filter((row) => pick(row.status)).reduce((sum, row) => sum + row.count, 0);
    const projected = projectMonth({ monthToDate, last7Days: last7, now, monthEnd: month.end });
    const awaitingCeo = count((status) => status === 'awaiting_ceo_approval');
    const lead = median(completed.map((task) => task.completedAt.getTime() - task.createdAt.getTime()));
    return {
      north_star: goals.north_star,
      objectives: goals.objectives,
      delivery: {
        in_flight: count((status) => !NOT_IN_FLIGHT.includes(status)),
        blocked: count((status) => status === 'blocked'),
        awaiting_ceo: awaitingCeo,
        completed_30d: completed.length,
        median_lead_time_hours: lead === null ? null : hours(lead),
        first_pass_yield: firstPassYield(completed),
      },
      spend: {
        spend_30d_usd: usd(spent30),
        month_to_date_usd: usd(monthToDate),
        projected_month_usd: usd(projected),
        monthly_cap_usd: cap,
        over_budget: cap !== null && monthToDate >= cap,
      },
      signals: signalsOf({
        monthToDate,
        projected,
        cap,
        stalled: stalled.length,
        awaitingCeo,
        blockedLastWeek,
        blockedWeekBefore,
      }),
    };
  }
}
