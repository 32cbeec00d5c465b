import { describe, expect, it } from 'vitest';
import { firstPassYield, projectMonth, signalsOf } from './rules.js';

describe('the month projection', () => {
  it('adds the last 7 days’ daily average for each day left to the month so far', () => {
    const now = new Date('2026-04-21T00:00:00Z');
    const monthEnd = new Date('2026-05-01T00:00:00Z');
    expect(projectMonth({ monthToDate: 100, last7Days: 70, now, monthEnd })).toBe(200);
    expect(projectMonth({ monthToDate: 100, last7Days: 70, now: monthEnd, monthEnd })).toBe(100);
  });
});

describe('first-pass yield', () => {
  it('is the share completed without a revision, null with nothing completed', () => {
    expect(firstPassYield([])).toBeNull();
    expect(firstPassYield([{ revisions: 0 }, { revisions: 2 }, { revisions: 0 }])).toBe(0.6667);
  });
});

describe('signals', () => {
  const quiet = {
    monthToDate: 10,
    projected: 20,
    cap: null,
    stalled: 0,
    awaitingCeo: 0,
    blockedLastWeek: 1,
    blockedWeekBefore: 1,
  };
  it('says nothing when nothing needs attention', () => {
    expect(signalsOf(quiet)).toEqual([]);
  });
  it('names the budget (reached, else projected), stalls, the CEO’s desk and rising blocks', () => {
    expect(signalsOf({ ...quiet, cap: 15 }).map((s) => s.kind)).toEqual(['projected_over_budget']);
    expect(
      signalsOf({ ...quiet, cap: 10, stalled: 2, awaitingCeo: 1, blockedLastWeek: 3 }).map((s) => s.kind),
    ).toEqual(['over_budget', 'stalled_tasks', 'awaiting_ceo', 'blocked_rising']);
  });
});
