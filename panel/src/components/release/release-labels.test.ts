import { describe, expect, it } from 'vitest';
import { changeSummary, failureReason } from './release-labels';

describe('release labels', () => {
  it('names each failure, and nothing for a status that is not one', () => {
    expect(failureReason('failed_head_ci')).toBe('the head rung’s CI is not green (nothing was committed)');
    expect(failureReason('failed_something_new')).toBe('failed something new');
    expect(failureReason('running')).toBeNull();
    expect(failureReason(null)).toBeNull();
  });

  it('counts commits, feat and security first, and leaves out kinds without commits', () => {
    expect(
      changeSummary(12, [
        { kind: 'fix', count: 1 },
        { kind: 'chore', count: 0 },
        { kind: 'security', count: 1 },
        { kind: 'feat', count: 3 },
      ]),
    ).toBe('12 commits · 3 feat · 1 security · 1 fix');
    expect(changeSummary(1, [])).toBe('1 commit');
  });
});
