import { describe, expect, it } from 'vitest';
import { FILE_WINDOW, planWindow, splitLines, windowRequestProblems } from './file-window.js';

describe('splitLines', () => {
  it('ends the last line at a final newline and keeps inner empty lines', () => {
    expect(splitLines('a\n\nb\n')).toEqual(['a', '', 'b']);
    expect(splitLines('a\nb')).toEqual(['a', 'b']);
    expect(splitLines('')).toEqual([]);
    expect(splitLines('\n')).toEqual(['']);
  });
});

describe('planWindow', () => {
  it('answers a small file whole and caps a large one at 2000 lines', () => {
    expect(planWindow({}, 10)).toEqual({ window: { start: 1, end: 10, truncated: false } });
    expect(planWindow({}, 2000)).toEqual({ window: { start: 1, end: 2000, truncated: false } });
    expect(planWindow({}, 2001)).toEqual({ window: { start: 1, end: 2000, truncated: true } });
    expect(planWindow({}, 0)).toEqual({ window: { start: 1, end: 0, truncated: false } });
  });

  it('centres on a line with the default or given context, clamped to the file', () => {
    expect(planWindow({ line: 100 }, 500)).toEqual({ window: { start: 50, end: 150, truncated: false } });
    expect(planWindow({ line: 3, context: 5 }, 6)).toEqual({
      window: { start: 1, end: 6, truncated: false },
    });
    expect(planWindow({ line: 7, context: 0 }, 9)).toEqual({
      window: { start: 7, end: 7, truncated: false },
    });
    const widest = planWindow({ line: 5000, context: FILE_WINDOW.maxContext }, 10_000);
    expect(widest).toEqual({ window: { start: 4001, end: 5999, truncated: false } });
  });

  it('takes an explicit range, clamping its end to the file and capping it at 2000 lines', () => {
    expect(planWindow({ start: 5, end: 9 }, 100)).toEqual({ window: { start: 5, end: 9, truncated: false } });
    expect(planWindow({ start: 90, end: 500 }, 100)).toEqual({
      window: { start: 90, end: 100, truncated: false },
    });
    expect(planWindow({ start: 10 }, 100)).toEqual({ window: { start: 10, end: 100, truncated: false } });
    expect(planWindow({ end: 3 }, 100)).toEqual({ window: { start: 1, end: 3, truncated: false } });
    expect(planWindow({ start: 1001, end: 5000 }, 9000)).toEqual({
      window: { start: 1001, end: 3000, truncated: true },
    });
    expect(planWindow({ start: 2, end: 2001 }, 2001)).toEqual({
      window: { start: 2, end: 2001, truncated: false },
    });
  });

  it('refuses a line or start past the end of the file', () => {
    expect(planWindow({ line: 11 }, 10)).toEqual({
      problem: { field: 'query.line', message: 'line 11 is past the end of the file (10 lines)' },
    });
    expect(planWindow({ start: 11, end: 12 }, 10)).toMatchObject({ problem: { field: 'query.start' } });
  });
});

describe('windowRequestProblems', () => {
  it('refuses line with a range, context without line, and start after end', () => {
    expect(windowRequestProblems({ line: 3, start: 1 }).map((p) => p.field)).toEqual(['query.line']);
    expect(windowRequestProblems({ context: 3 }).map((p) => p.field)).toEqual(['query.context']);
    expect(windowRequestProblems({ start: 9, end: 3 })).toEqual([
      { field: 'query.start', message: 'start (9) is after end (3)' },
    ]);
    expect(windowRequestProblems({ start: 3, end: 3 })).toEqual([]);
    expect(windowRequestProblems({ line: 3, context: 2 })).toEqual([]);
  });
});
