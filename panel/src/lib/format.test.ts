import { describe, expect, it } from 'vitest';
import { actorName, durationLabel, formatCountdown, formatTokens, formatUsd, relativeTime } from './format';

describe('formatCountdown', () => {
  it('shows the largest units with zero-padded smaller ones', () => {
    expect(formatCountdown(42_000)).toBe('42s');
    expect(formatCountdown(4 * 60_000 + 5_000)).toBe('4m 05s');
    expect(formatCountdown(3 * 3_600_000 + 12 * 60_000 + 4_000)).toBe('3h 12m 04s');
    expect(formatCountdown(14 * 86_400_000)).toBe('14d 00h 00m 00s');
    expect(formatCountdown(86_400_000 + 3_600_000 + 1_000)).toBe('1d 01h 00m 01s');
  });

  it('rounds partial seconds up, so a live countdown never shows 0s while time is left', () => {
    expect(formatCountdown(1)).toBe('1s');
    expect(formatCountdown(59_001)).toBe('1m 00s');
    expect(formatCountdown(4 * 3_600_000 - 1)).toBe('4h 00m 00s');
  });

  it('stops at 0s once the deadline has passed', () => {
    expect(formatCountdown(0)).toBe('0s');
    expect(formatCountdown(-5_000)).toBe('0s');
  });
});

describe('relativeTime', () => {
  const now = new Date('2026-11-25T12:00:00Z');
  const ago = (ms: number) => relativeTime(new Date(now.getTime() - ms), now);
  it('says how long ago, coarsely', () => {
    expect(ago(10_000)).toBe('just now');
    expect(ago(3 * 60_000)).toBe('3 min ago');
    expect(ago(5 * 3_600_000)).toBe('5 h ago');
    expect(ago(2 * 86_400_000)).toBe('2 d ago');
    expect(ago(-10 * 60_000)).toBe('in 10 min');
  });
});

describe('durationLabel', () => {
  it('names the pause durations', () => {
    expect([0.5, 1, 4, 36, 24, 72, 336].map(durationLabel)).toEqual([
      '30 min',
      '1 h',
      '4 h',
      '36 h',
      '1 day',
      '3 days',
      '14 days',
    ]);
  });
});

describe('actorName', () => {
  it('names the CEO and keeps other ids', () => {
    expect(actorName('00000000-0000-0000-0000-000000000001')).toBe('ceo');
    expect(actorName('be-dev-1')).toBe('be-dev-1');
    expect(actorName(null)).toBe('unknown');
  });
});

describe('usage figures', () => {
  it('shows dollars with precision where amounts are small', () => {
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(0.0042)).toBe('$0.0042');
    expect(formatUsd(0.2)).toBe('$0.20');
    expect(formatUsd(12.5)).toBe('$12.50');
    expect(formatUsd(1234.4)).toBe('$1,234');
  });

  it('shortens token counts', () => {
    expect(formatTokens(950)).toBe('950');
    expect(formatTokens(1234)).toBe('1.23k');
    expect(formatTokens(12_345)).toBe('12.3k');
    expect(formatTokens(4_560_000)).toBe('4.56M');
    expect(formatTokens(190_000)).toBe('190k');
    expect(formatTokens(2_000_000)).toBe('2M');
  });
});
