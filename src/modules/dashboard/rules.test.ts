import { describe, expect, it } from 'vitest';
import { dayKeys, median, provenanceOf, runMadeProgress, teamHealth } from './rules.js';

describe('team health', () => {
  it('is ok with nothing stuck, slow with a little, critical with three or more or most of the work', () => {
    expect(teamHealth({ open: 5, blocked: 0, stalled: 0 })).toBe('ok');
    expect(teamHealth({ open: 5, blocked: 1, stalled: 1 })).toBe('slow');
    expect(teamHealth({ open: 10, blocked: 2, stalled: 1 })).toBe('critical');
    expect(teamHealth({ open: 1, blocked: 1, stalled: 0 })).toBe('critical');
    expect(teamHealth({ open: 2, blocked: 1, stalled: 0 })).toBe('slow');
  });
});

describe('provenance', () => {
  it('tells the CEO’s roots from agents’ and engines’', () => {
    expect(provenanceOf({ source: 'manual', creatorRole: 'ceo' })).toBe('human');
    expect(provenanceOf({ source: 'prompter', creatorRole: 'prompter' })).toBe('human');
    expect(provenanceOf({ source: 'manual', creatorRole: 'main_pm' })).toBe('agent');
    expect(provenanceOf({ source: 'ci_watch', creatorRole: 'system' })).toBe('engine');
    expect(provenanceOf({ source: 'dep_update', creatorRole: 'ceo' })).toBe('engine');
    expect(provenanceOf({ source: 'manual', creatorRole: 'system' })).toBe('engine');
  });
});

describe('run progress', () => {
  const run = { startedAt: new Date(1000), endedAt: new Date(2000) };
  it('counts a signal inside the run, ends included, and nothing outside it', () => {
    expect(runMadeProgress(run, [new Date(1000)])).toBe(true);
    expect(runMadeProgress(run, [new Date(2000)])).toBe(true);
    expect(runMadeProgress(run, [new Date(999), new Date(2001)])).toBe(false);
    expect(runMadeProgress(run, [])).toBe(false);
  });
});

describe('median and day keys', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(median([])).toBeNull();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it('lists the UTC days of a window ending today, oldest first', () => {
    expect(dayKeys(new Date('2026-03-01T05:00:00Z'), 3)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
  });
});
