/**
 * Analytics periods (pure): `24h`, `7d`, `30d`; the window a period covers ending now, the equal
 * window before it (for the trend), and the zero-filled buckets of a time series (hours for 24h,
 * UTC days otherwise).
 */

export const PERIODS = ['24h', '7d', '30d'] as const;
export type Period = (typeof PERIODS)[number];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export const PERIOD_MS: Readonly<Record<Period, number>> = {
  '24h': DAY_MS,
  '7d': 7 * DAY_MS,
  '30d': 30 * DAY_MS,
};

export interface PeriodWindows {
  /** Start of the period (inclusive); the period ends at `end`. */
  start: Date;
  end: Date;
  /** Start of the equal window before it, which ends at `start` (exclusive). */
  previousStart: Date;
}

export function periodWindows(period: Period, now: Date): PeriodWindows {
  const length = PERIOD_MS[period];
  return {
    start: new Date(now.getTime() - length),
    end: now,
    previousStart: new Date(now.getTime() - 2 * length),
  };
}

export type Bucket = 'hour' | 'day';

export interface SeriesBuckets {
  bucket: Bucket;
  /** Bucket length in ms. */
  size: number;
  /** Bucket starts, oldest first; the last one holds `now`. */
  starts: Date[];
}

/** 24 hourly buckets for 24h, 7 or 30 UTC-day buckets otherwise. */
export function seriesBuckets(period: Period, now: Date): SeriesBuckets {
  const hourly = period === '24h';
  const size = hourly ? HOUR_MS : DAY_MS;
  const count = hourly ? 24 : PERIOD_MS[period] / DAY_MS;
  const last = Math.floor(now.getTime() / size) * size;
  const starts = Array.from({ length: count }, (_, i) => new Date(last - (count - 1 - i) * size));
  return { bucket: hourly ? 'hour' : 'day', size, starts };
}

/** % change of `current` against `previous`, 1 decimal: previous 0 and current > 0 → 100; both 0 → 0. */
export function trendPct(current: number, previous: number): number {
  if (previous <= 0) return current > 0 ? 100 : 0;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}
