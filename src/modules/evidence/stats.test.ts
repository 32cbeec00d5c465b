import { describe, expect, it } from 'vitest';
import { describeRate, MIN_SAMPLE, quantile, separated, wilson } from './stats.js';

describe('the Wilson score interval', () => {
  // Known values (Newcombe 1998, table I; R's prop.test(correct = FALSE) gives the same).
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0, 0.1611],
    [1, 29, 0.0061, 0.1718],
    [29, 29, 0.883, 1],
  ])('%i of %i is [%f, %f]', (successes, n, low, high) => {
    const interval = wilson(successes, n)!;
    expect(interval.rate).toBeCloseTo(successes / n, 10);
    expect(interval.low).toBeCloseTo(low, 4);
    expect(interval.high).toBeCloseTo(high, 4);
  });

  it('has no interval for no observations, and refuses what is not a sample', () => {
    expect(wilson(0, 0)).toBeNull();
    expect(() => wilson(5, 4)).toThrow(RangeError);
    expect(() => wilson(-1, 4)).toThrow(RangeError);
  });
});

describe('quantiles', () => {
  it('interpolates between order statistics as R and NumPy do (type 7)', () => {
    const sample = [15, 20, 35, 40, 50];
    expect(quantile(sample, 0.5)).toBe(35);
    expect(quantile(sample, 0.9)).toBeCloseTo(46, 10);
    expect(quantile(sample, 0.4)).toBeCloseTo(29, 10);
    expect(quantile([3, 1, 2, 4], 0.5)).toBe(2.5);
    expect(quantile([7], 0.9)).toBe(7);
    expect(quantile([], 0.5)).toBeNull();
    expect(() => quantile([1], 1.5)).toThrow(RangeError);
  });
});

describe('the separation rule', () => {
  it('names the better arm only where the intervals do not overlap', () => {
    expect(separated(wilson(82, 100), wilson(55, 100))).toBe('a');
    expect(separated(wilson(55, 100), wilson(82, 100))).toBe('b');
    expect(separated(wilson(60, 100), wilson(55, 100))).toBeNull();
  });

  it('names nobody below the minimum sample, however far apart', () => {
    expect(separated(wilson(MIN_SAMPLE - 1, MIN_SAMPLE - 1), wilson(0, 50))).toBeNull();
  });

  it('says a rate in words, or that there is not enough data', () => {
    expect(describeRate(wilson(82, 100), 100)).toBe('82 % [73–88]');
    expect(describeRate(wilson(3, 4), 4)).toBe('not enough data (n = 4)');
  });
});
