/**
 * The statistics the scorecards and experiments quote, as plain functions (no I/O): a rate with its
 * 95 % Wilson score interval, quantiles of a sample, and the rule that says one arm is better than
 * another only where their intervals do not overlap. Below MIN_SAMPLE a group has "not enough data"
 * rather than a rate.
 */

/** Fewer observations than this and a group shows no rate, only its count. */
export const MIN_SAMPLE = 10;

/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

export interface Interval {
  /** The observed share (successes / n). */
  rate: number;
  low: number;
  high: number;
  n: number;
}

/**
 * The Wilson score interval of `successes` out of `n` (Wilson 1927): unlike the normal
 * approximation it stays inside [0, 1] and is honest at small n and at rates near 0 or 1.
 * Null when n is 0.
 */
export function wilson(successes: number, n: number, z = Z95): Interval | null {
  if (!Number.isInteger(n) || n < 0 || successes < 0 || successes > n) {
    throw new RangeError(`wilson: ${successes} successes of ${n} is not a sample`);
  }
  if (n === 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { rate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half), n };
}

/**
 * The q-quantile (0 ≤ q ≤ 1) of `values` by linear interpolation between order statistics (Hyndman
 * and Fan's type 7, the default of R, NumPy and spreadsheets); null for an empty sample.
 */
export function quantile(values: readonly number[], q: number): number | null {
  if (q < 0 || q > 1) throw new RangeError(`quantile: q must be in [0, 1] (got ${q})`);
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const below = Math.floor(at);
  const above = Math.ceil(at);
  const low = sorted[below] as number;
  return low + ((sorted[above] as number) - low) * (at - below);
}

/** Which of two intervals is higher where they do not overlap; null where they do (no difference shown). */
export function separated(a: Interval | null, b: Interval | null): 'a' | 'b' | null {
  if (!a || !b || a.n < MIN_SAMPLE || b.n < MIN_SAMPLE) return null;
  if (a.low > b.high) return 'a';
  if (b.low > a.high) return 'b';
  return null;
}

/** A rate for people: "82 % [70–90]", or "not enough data (n = 4)" below MIN_SAMPLE. */
export function describeRate(interval: Interval | null, n: number): string {
  if (!interval || n < MIN_SAMPLE) return `not enough data (n = ${n})`;
  const pct = (x: number) => Math.round(x * 100);
  return `${pct(interval.rate)} % [${pct(interval.low)}–${pct(interval.high)}]`;
}
