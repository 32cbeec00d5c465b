import { describe, expect, it } from 'vitest';
import {
  CSV_HEADER,
  formatRate,
  groupLabel,
  humanDuration,
  intervalBar,
  notEnough,
  type Scorecard,
  scorecardsCsv,
  sortRows,
} from './format';

const card = (key: string | null, over: Partial<Scorecard> = {}): Scorecard => ({
  key,
  tasks: 4,
  enough: false,
  first_pass_qa: null,
  mean_rework_rounds: null,
  findings_per_task: null,
  claim_to_end_seconds: { p50: null, p90: null },
  cost_usd: 0,
  cost_per_merged_root: null,
  cost_per_accepted_subtask: null,
  failure_on_start: null,
  runs: 0,
  ...over,
});

describe('a rate with its interval', () => {
  it('reads as the rate then its 95 % interval, in whole per cent', () => {
    expect(formatRate({ rate: 0.82, low: 0.7, high: 0.9, n: 40 })).toBe('82 % [70–90]');
    expect(formatRate({ rate: 1, low: 0.7225, high: 1, n: 10 })).toBe('100 % [72–100]');
    expect(formatRate({ rate: 0, low: 0, high: 0.2775, n: 10 })).toBe('0 % [0–28]');
  });

  it('draws the interval as a band from low to high with the mark at the rate', () => {
    expect(intervalBar({ rate: 0.82, low: 0.7, high: 0.9, n: 40 })).toEqual({
      left: 70,
      width: expect.closeTo(20, 10),
      mark: 82,
    });
    // A band never vanishes, and never leaves the bar.
    expect(intervalBar({ rate: 1, low: 1, high: 1, n: 10 })).toEqual({ left: 99, width: 1, mark: 100 });
    expect(intervalBar({ rate: 0, low: 0, high: 0, n: 10 })).toEqual({ left: 0, width: 1, mark: 0 });
    expect(intervalBar({ rate: 1.2, low: -0.1, high: 1.1, n: 10 })).toEqual({
      left: 0,
      width: 100,
      mark: 100,
    });
  });

  it('says why there is no rate below the sample size', () => {
    expect(notEnough(4, 10)).toBe('not enough data (n = 4 of 10)');
  });
});

describe('durations for people', () => {
  it('uses the two largest units', () => {
    expect(humanDuration(null)).toBe('—');
    expect(humanDuration(42.4)).toBe('42 s');
    expect(humanDuration(12 * 60 + 10)).toBe('12 min');
    expect(humanDuration(3 * 3600 + 5 * 60)).toBe('3 h 05 min');
    expect(humanDuration(2 * 86_400 + 4 * 3600 + 59)).toBe('2 d 4 h');
  });
});

describe('group names', () => {
  const names = {
    agents: new Map([['6a0b4f3e-0000-4000-8000-000000000001', 'be-dev-1']]),
    projects: new Map([['7c1d0000-0000-4000-8000-000000000002', 'Shop']]),
  };
  it('names agents by slug, projects by name, roles in words, and a null key "not known"', () => {
    expect(groupLabel('agent', '6a0b4f3e-0000-4000-8000-000000000001', names)).toBe('be-dev-1');
    expect(groupLabel('agent', 'ffffffff-0000-4000-8000-000000000009', names)).toBe('ffffffff');
    expect(groupLabel('project', '7c1d0000-0000-4000-8000-000000000002', names)).toBe('Shop');
    expect(groupLabel('role', 'main_pm', names)).toBe('main pm');
    expect(groupLabel('model', 'claude-sonnet-4', names)).toBe('claude-sonnet-4');
    expect(groupLabel('cli', null, names)).toBe('not known');
  });
});

describe('the table order', () => {
  const rows = [
    card('qa', { tasks: 3, cost_per_accepted_subtask: 0.5 }),
    card('developer', { tasks: 3, cost_per_accepted_subtask: null }),
    card('main_pm', { tasks: 1, cost_per_accepted_subtask: 2 }),
  ];
  const keys = (sorted: Scorecard[]) => sorted.map((row) => row.key);
  const label = (row: Scorecard) => row.key ?? 'not known';

  it('sorts by a figure either way, rows without one last, ties in the server order', () => {
    expect(keys(sortRows(rows, 'tasks', 'desc', label))).toEqual(['qa', 'developer', 'main_pm']);
    expect(keys(sortRows(rows, 'tasks', 'asc', label))).toEqual(['main_pm', 'qa', 'developer']);
    expect(keys(sortRows(rows, 'cost_per_accepted_subtask', 'desc', label))).toEqual([
      'main_pm',
      'qa',
      'developer',
    ]);
    expect(keys(sortRows(rows, 'cost_per_accepted_subtask', 'asc', label))).toEqual([
      'qa',
      'main_pm',
      'developer',
    ]);
  });

  it('sorts by name', () => {
    expect(keys(sortRows(rows, 'group', 'asc', label))).toEqual(['developer', 'main_pm', 'qa']);
    expect(keys(sortRows(rows, 'group', 'desc', label))).toEqual(['qa', 'main_pm', 'developer']);
  });
});

describe('the CSV', () => {
  it('has a header row and plain numbers, empty where there is no figure', () => {
    const csv = scorecardsCsv(
      [
        card('developer', {
          tasks: 12,
          enough: true,
          first_pass_qa: { rate: 0.75, low: 0.5, high: 0.9, n: 12 },
          mean_rework_rounds: 0.25,
          findings_per_task: { blocker: 0, major: 0.5, minor: 1, nit: 0 },
          claim_to_end_seconds: { p50: 600, p90: 3600 },
          cost_usd: 12.5,
          cost_per_accepted_subtask: 1.0416666666666667,
          runs: 14,
        }),
        card(null, { tasks: 2 }),
      ],
      (row) => (row.key === null ? 'not known' : `a "${row.key}", really`),
    );
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(CSV_HEADER.join(','));
    expect(lines[1]).toBe(
      '"a ""developer"", really",developer,12,true,0.75,0.5,0.9,12,0.25,0,0.5,1,0,600,3600,12.5,,1.04166666667,,,,14',
    );
    expect(lines[2]).toBe('not known,,2,false,,,,,,,,,,,,0,,,,,,0');
    expect(lines).toHaveLength(3);
  });
});
