/**
 * Pure helpers of the Workforce page (no React): a rate with its 95 % Wilson interval as words and
 * as the geometry of its bar, durations for people, what a group is called, the table's order and
 * its CSV. Unit-tested in format.test.ts.
 */
import type { paths } from '../../api/client';
import { formatUsd } from '../../lib/format';

type ScorecardsAnswer =
  paths['/api/workforce/scorecards']['get']['responses'][200]['content']['application/json'];
export type Scorecard = ScorecardsAnswer['groups'][number];
export type Interval = NonNullable<Scorecard['first_pass_qa']>;

const pct = (x: number) => Math.round(x * 100);

/** A rate for people: "82 % [70–90]" (the rate, then its 95 % interval, in whole per cent). */
export function formatRate(interval: Interval): string {
  return `${pct(interval.rate)} % [${pct(interval.low)}–${pct(interval.high)}]`;
}

/** What a group below the sample size shows instead of its rates. */
export function notEnough(n: number, minSample: number): string {
  return `not enough data (n = ${n} of ${minSample})`;
}

/**
 * The interval bar's geometry in per cent of its width: the span from low to high (at least 1 % wide,
 * so a zero-width interval is still seen) and the mark at the rate, all clamped to [0, 100].
 */
export function intervalBar(interval: Interval): { left: number; width: number; mark: number } {
  const clamp = (x: number) => Math.min(100, Math.max(0, x * 100));
  const left = clamp(Math.min(interval.low, interval.high));
  const right = clamp(Math.max(interval.low, interval.high));
  const width = Math.max(1, right - left);
  return { left: Math.min(left, 100 - width), width, mark: clamp(interval.rate) };
}

/** A duration for people, two units at most: "42 s", "12 min", "3 h 05 min", "2 d 4 h"; "—" when unknown. */
export function humanDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  const days = Math.floor(hours / 24);
  return `${days} d ${hours % 24} h`;
}

/** Dollars, or "—" when there is nothing to divide by. */
export const usdOrDash = (value: number | null): string => (value === null ? '—' : formatUsd(value));

/** Findings per task, all severities together (the order of the findings column). */
export const findingsTotal = (f: Scorecard['findings_per_task']): number | null =>
  f === null ? null : f.blocker + f.major + f.minor + f.nit;

export const GROUPINGS = ['role', 'cli', 'model', 'agent', 'project'] as const;
export type Grouping = (typeof GROUPINGS)[number];

export interface Names {
  /** Agent id → slug. */
  agents: ReadonlyMap<string, string>;
  /** Project id → name. */
  projects: ReadonlyMap<string, string>;
}

/** How a group is named: an agent by its slug, a project by its name, a role in words; null: "not known". */
export function groupLabel(by: Grouping, key: string | null, names: Names): string {
  if (key === null) return 'not known';
  if (by === 'agent') return names.agents.get(key) ?? key.slice(0, 8);
  if (by === 'project') return names.projects.get(key) ?? key.slice(0, 8);
  if (by === 'role') return key.replaceAll('_', ' ');
  return key;
}

/** The columns the table sorts by. */
export const SORTS = [
  'group',
  'tasks',
  'first_pass_qa',
  'rework',
  'findings',
  'claim_to_end',
  'cost_per_merged_root',
  'cost_per_accepted_subtask',
  'failure_on_start',
] as const;
export type SortKey = (typeof SORTS)[number];
export type Direction = 'asc' | 'desc';

/** The value a row sorts by in a column (null: no figure, always last). */
function sortValue(row: Scorecard, key: SortKey, label: string): number | string | null {
  switch (key) {
    case 'group':
      return label;
    case 'tasks':
      return row.tasks;
    case 'first_pass_qa':
      return row.first_pass_qa?.rate ?? null;
    case 'rework':
      return row.mean_rework_rounds;
    case 'findings':
      return findingsTotal(row.findings_per_task);
    case 'claim_to_end':
      return row.claim_to_end_seconds.p50;
    case 'cost_per_merged_root':
      return row.cost_per_merged_root;
    case 'cost_per_accepted_subtask':
      return row.cost_per_accepted_subtask;
    case 'failure_on_start':
      return row.failure_on_start?.rate ?? null;
  }
}

/**
 * The rows in a column's order; rows without a figure stay last whichever the direction, and ties
 * keep the server's order (most tasks first).
 */
export function sortRows<T extends Scorecard>(
  rows: readonly T[],
  key: SortKey,
  direction: Direction,
  labelOf: (row: T) => string,
): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, value: sortValue(row, key, labelOf(row)) }))
    .sort((a, b) => {
      if (a.value === null || b.value === null) {
        if (a.value === b.value) return a.index - b.index;
        return a.value === null ? 1 : -1;
      }
      const order =
        typeof a.value === 'string' || typeof b.value === 'string'
          ? String(a.value).localeCompare(String(b.value))
          : a.value - b.value;
      return order !== 0 ? sign * order : a.index - b.index;
    })
    .map(({ row }) => row);
}

/** The natural first direction of a column: names A→Z, figures largest first. */
export const firstDirection = (key: SortKey): Direction => (key === 'group' ? 'asc' : 'desc');

export const CSV_HEADER = [
  'group',
  'key',
  'tasks',
  'enough_data',
  'first_pass_qa_rate',
  'first_pass_qa_low',
  'first_pass_qa_high',
  'first_pass_qa_n',
  'mean_rework_rounds',
  'findings_blocker_per_task',
  'findings_major_per_task',
  'findings_minor_per_task',
  'findings_nit_per_task',
  'claim_to_end_p50_seconds',
  'claim_to_end_p90_seconds',
  'cost_usd',
  'cost_per_merged_root_usd',
  'cost_per_accepted_subtask_usd',
  'failure_on_start_rate',
  'failure_on_start_low',
  'failure_on_start_high',
  'runs',
] as const;

/** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
function field(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = typeof value === 'number' ? String(Number(value.toPrecision(12))) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The table as shown (its rows in its order) as CSV: a header row, then plain numbers (empty: none). */
export function scorecardsCsv(rows: readonly Scorecard[], labelOf: (row: Scorecard) => string): string {
  const lines = rows.map((row) =>
    [
      labelOf(row),
      row.key,
      row.tasks,
      row.enough,
      row.first_pass_qa?.rate ?? null,
      row.first_pass_qa?.low ?? null,
      row.first_pass_qa?.high ?? null,
      row.first_pass_qa?.n ?? null,
      row.mean_rework_rounds,
      row.findings_per_task?.blocker ?? null,
      row.findings_per_task?.major ?? null,
      row.findings_per_task?.minor ?? null,
      row.findings_per_task?.nit ?? null,
      row.claim_to_end_seconds.p50,
      row.claim_to_end_seconds.p90,
      row.cost_usd,
      row.cost_per_merged_root,
      row.cost_per_accepted_subtask,
      row.failure_on_start?.rate ?? null,
      row.failure_on_start?.low ?? null,
      row.failure_on_start?.high ?? null,
      row.runs,
    ]
      .map(field)
      .join(','),
  );
  return `${[CSV_HEADER.join(','), ...lines].join('\r\n')}\r\n`;
}
