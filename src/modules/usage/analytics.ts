/**
 * The usage analytics the /api/usage routes answer: the summary of a period with its trend against
 * the window before, the zero-filled time series, the breakdowns by agent, team, model and role,
 * and the month's projection against the company cap. Each figure is one aggregate query over the
 * ledger (an index on `at` bounds every scan to the windows asked for).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Clock } from '../../platform/clock.js';
import { type Db, queryRows } from '../../platform/db/client.js';
import { monthWindow } from './month.js';
import { type Period, periodWindows, seriesBuckets, trendPct } from './periods.js';
import { roundUsd } from './prices.js';

export interface TokenTotals {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  total_tokens: number;
  cost_usd: number;
}

export interface UsageSummary extends TokenTotals {
  period: Period;
  calls: number;
  trend_pct: number;
  previous: { total_tokens: number; cost_usd: number };
}

export interface SeriesPoint {
  at: string;
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost_usd: number;
}

export interface UsageSeries {
  period: Period;
  bucket: 'hour' | 'day';
  points: SeriesPoint[];
}

export const BREAKDOWNS = ['agent', 'team', 'model', 'role'] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];

export interface BreakdownRow extends TokenTotals {
  key: string;
  label: string;
  pct_of_total: number;
}

export interface UsageBreakdown {
  period: Period;
  rows: BreakdownRow[];
}

export interface UsageProjection {
  basis_days: 7;
  cost_7d_usd: number;
  avg_daily_cost_usd: number;
  projected_month_usd: number;
  month_to_date_usd: number;
  monthly_cap_usd: number | null;
  over_budget: boolean;
}

const iso = (at: Date) => sql`${at.toISOString()}::timestamptz`;
const num = (value: unknown): number => Number(value ?? 0);
const DAY_MS = 86_400_000;

/** The same aggregate over a window, for the current window and the one before it in one scan. */
export function summarySql(start: Date, end: Date, previousStart: Date): SQL {
  const current = sql`at >= ${iso(start)}`;
  return sql`select
    coalesce(sum(input_tokens) filter (where ${current}), 0) as input_tokens,
    coalesce(sum(output_tokens) filter (where ${current}), 0) as output_tokens,
    coalesce(sum(cache_read_tokens) filter (where ${current}), 0) as cache_read_tokens,
    coalesce(sum(cache_write_tokens) filter (where ${current}), 0) as cache_write_tokens,
    coalesce(sum(cost_usd) filter (where ${current}), 0) as cost_usd,
    count(*) filter (where ${current}) as calls,
    coalesce(sum(input_tokens + output_tokens + cache_read_tokens + cache_write_tokens)
      filter (where not ${current}), 0) as previous_tokens,
    coalesce(sum(cost_usd) filter (where not ${current}), 0) as previous_cost
  from usage_records
  where at >= ${iso(previousStart)} and at <= ${iso(end)}`;
}

const TOKEN_COLUMNS = sql`coalesce(sum(input_tokens), 0) as input_tokens,
    coalesce(sum(output_tokens), 0) as output_tokens,
    coalesce(sum(cache_read_tokens), 0) as cache_read_tokens,
    coalesce(sum(cache_write_tokens), 0) as cache_write_tokens,
    coalesce(sum(cost_usd), 0) as cost_usd`;

interface TotalsRow {
  input_tokens: unknown;
  output_tokens: unknown;
  cache_read_tokens: unknown;
  cache_write_tokens: unknown;
  cost_usd: unknown;
}

function totals(row: TotalsRow | undefined): TokenTotals {
  const input = num(row?.input_tokens);
  const output = num(row?.output_tokens);
  const cacheRead = num(row?.cache_read_tokens);
  const cacheWrite = num(row?.cache_write_tokens);
  return {
    input_tokens: input,
    output_tokens: output,
    cache_read_tokens: cacheRead,
    cache_write_tokens: cacheWrite,
    total_tokens: input + output + cacheRead + cacheWrite,
    cost_usd: roundUsd(num(row?.cost_usd)),
  };
}

/** `main_pm` → `Main pm`. */
const humanise = (key: string) => key.charAt(0).toUpperCase() + key.slice(1).replaceAll('_', ' ');

const GROUPS: Readonly<Record<Breakdown, { key: SQL; label: SQL; none: string }>> = {
  agent: {
    key: sql`u.agent_id::text`,
    label: sql`coalesce(max(a.name), max(a.slug), 'Removed agent')`,
    none: 'No agent',
  },
  team: { key: sql`u.agent_team`, label: sql`u.agent_team`, none: 'No team' },
  model: { key: sql`u.model`, label: sql`u.model`, none: 'Unknown model' },
  role: { key: sql`u.agent_role`, label: sql`u.agent_role`, none: 'No role' },
};

export class UsageAnalytics {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly monthlyCap: () => Promise<number | null>,
  ) {}

  async summary(period: Period): Promise<UsageSummary> {
    const { start, end, previousStart } = periodWindows(period, this.clock.now());
    const [row] = await queryRows<
      TotalsRow & { calls: unknown; previous_tokens: unknown; previous_cost: unknown }
    >(this.db, summarySql(start, end, previousStart));
    const current = totals(row);
    const previous = { total_tokens: num(row?.previous_tokens), cost_usd: roundUsd(num(row?.previous_cost)) };
    return {
      period,
      ...current,
      calls: num(row?.calls),
      trend_pct: trendPct(current.cost_usd, previous.cost_usd),
      previous,
    };
  }

  /** Hourly (24h) or daily buckets, zero-filled, oldest first; `agentId` narrows it to one agent. */
  async timeSeries(period: Period, agentId: string | null): Promise<UsageSeries> {
    const now = this.clock.now();
    const { bucket, size, starts } = seriesBuckets(period, now);
    const bucketOf = sql`floor(extract(epoch from at) * 1000 / ${size})::bigint`;
    const rows = await queryRows<TotalsRow & { bucket: unknown }>(
      this.db,
      sql`select ${bucketOf} as bucket, ${TOKEN_COLUMNS}
        from usage_records
        where at >= ${iso(starts[0]!)} and at <= ${iso(now)}
          ${agentId ? sql`and agent_id = ${agentId}` : sql``}
        group by 1`,
    );
    const byBucket = new Map(rows.map((row) => [num(row.bucket) * size, totals(row)]));
    return {
      period,
      bucket,
      points: starts.map((start) => {
        const figures = byBucket.get(start.getTime());
        return {
          at: start.toISOString(),
          input_tokens: figures?.input_tokens ?? 0,
          output_tokens: figures?.output_tokens ?? 0,
          total_tokens: figures?.total_tokens ?? 0,
          cost_usd: figures?.cost_usd ?? 0,
        };
      }),
    };
  }

  /** The period's usage per agent, team, model or role, costliest first. */
  async breakdown(by: Breakdown, period: Period): Promise<UsageBreakdown> {
    const { start, end } = periodWindows(period, this.clock.now());
    const group = GROUPS[by];
    const rows = await queryRows<TotalsRow & { key: string | null; label: string | null }>(
      this.db,
      sql`select ${group.key} as key, ${group.label} as label, ${TOKEN_COLUMNS}
        from usage_records u
        ${by === 'agent' ? sql`left join agents a on a.id = u.agent_id` : sql``}
        where u.at >= ${iso(start)} and u.at <= ${iso(end)}
        group by 1`,
    );
    const figures = rows.map((row) => ({ row, totals: totals(row) }));
    const totalCost = figures.reduce((sum, entry) => sum + entry.totals.cost_usd, 0);
    const totalTokens = figures.reduce((sum, entry) => sum + entry.totals.total_tokens, 0);
    return {
      period,
      rows: figures
        .map(({ row, totals: t }) => ({
          key: row.key ?? 'none',
          label:
            row.key === null
              ? group.none
              : by === 'team' || by === 'role'
                ? humanise(row.label ?? row.key)
                : (row.label ?? row.key),
          ...t,
          pct_of_total: share(t, totalCost, totalTokens),
        }))
        .sort(
          (a, b) => b.cost_usd - a.cost_usd || b.total_tokens - a.total_tokens || a.key.localeCompare(b.key),
        ),
    };
  }

  /** The last 7 days' daily average carried to the end of the month, against the company cap. */
  async projection(): Promise<UsageProjection> {
    const now = this.clock.now();
    const month = monthWindow(now);
    const weekStart = new Date(now.getTime() - 7 * DAY_MS);
    const [row] = await queryRows<{ week: unknown; month: unknown }>(
      this.db,
      sql`select
          coalesce(sum(cost_usd) filter (where at >= ${iso(weekStart)}), 0) as week,
          coalesce(sum(cost_usd) filter (where at >= ${iso(month.start)}), 0) as month
        from usage_records
        where at >= ${iso(weekStart < month.start ? weekStart : month.start)} and at <= ${iso(now)}`,
    );
    const cost7d = roundUsd(num(row?.week));
    const monthToDate = roundUsd(num(row?.month));
    const avgDaily = roundUsd(cost7d / 7);
    const daysLeft = (month.end.getTime() - now.getTime()) / DAY_MS;
    const cap = await this.monthlyCap();
    return {
      basis_days: 7,
      cost_7d_usd: cost7d,
      avg_daily_cost_usd: avgDaily,
      projected_month_usd: roundUsd(monthToDate + (cost7d / 7) * daysLeft),
      month_to_date_usd: monthToDate,
      monthly_cap_usd: cap,
      over_budget: cap !== null && monthToDate >= cap,
    };
  }
}

/** A row's share of the period, in % (1 decimal): by cost, or by tokens when nothing cost anything. */
function share(row: TokenTotals, totalCost: number, totalTokens: number): number {
  if (totalCost > 0) return Math.round((row.cost_usd / totalCost) * 1000) / 10;
  if (totalTokens > 0) return Math.round((row.total_tokens / totalTokens) * 1000) / 10;
  return 0;
}
