/** Budget months: UTC calendar months. */
import { describe, expect, it } from 'vitest';
import { monthKey, monthWindow } from './month.js';

describe('budget months', () => {
  it('are UTC calendar months, across the year end', () => {
    expect(monthWindow(new Date('2026-12-31T23:59:59.999Z'))).toEqual({
      start: new Date('2026-12-01T00:00:00.000Z'),
      end: new Date('2027-01-01T00:00:00.000Z'),
    });
    expect(monthKey(new Date('2026-03-01T00:00:00.000Z'))).toBe('2026-03');
    expect(monthKey(new Date('2026-02-28T23:30:00.000-01:00'))).toBe('2026-03');
  });
});
