import { describe, expect, it } from 'vitest';
import { retryAfterSeconds } from './retry-after.js';

const NOW = Date.parse('2026-11-25T09:00:00Z');

describe('retryAfterSeconds', () => {
  it('reads delta-seconds, rounding a fraction up', () => {
    expect(retryAfterSeconds({ 'retry-after': '30' }, NOW)).toBe(30);
    expect(retryAfterSeconds({ 'retry-after': ' 1.2 ' }, NOW)).toBe(2);
    expect(retryAfterSeconds({ 'retry-after': '0' }, NOW)).toBe(0);
  });

  it('reads an HTTP-date as the seconds from now, a past date as 0', () => {
    expect(retryAfterSeconds({ 'retry-after': 'Wed, 25 Nov 2026 09:01:30 GMT' }, NOW)).toBe(90);
    expect(retryAfterSeconds({ 'retry-after': 'Wed, 25 Nov 2026 08:59:00 GMT' }, NOW)).toBe(0);
  });

  it('prefers retry-after-ms, in whole seconds rounded up', () => {
    expect(retryAfterSeconds({ 'retry-after-ms': '1500', 'retry-after': '60' }, NOW)).toBe(2);
    expect(retryAfterSeconds({ 'retry-after-ms': 'soon', 'retry-after': '7' }, NOW)).toBe(7);
  });

  it('reads a fetch Headers object', () => {
    expect(retryAfterSeconds(new Headers({ 'Retry-After': '12' }), NOW)).toBe(12);
  });

  it('is undefined when absent or unreadable', () => {
    expect(retryAfterSeconds({}, NOW)).toBeUndefined();
    expect(retryAfterSeconds(undefined, NOW)).toBeUndefined();
    expect(retryAfterSeconds({ 'retry-after': 'later' }, NOW)).toBeUndefined();
    expect(retryAfterSeconds({ 'retry-after': '-5' }, NOW)).toBeUndefined();
  });
});
