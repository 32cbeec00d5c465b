/**
 * The usage views' data: the period in the URL (`?period=24h|7d|30d`, default 24h) and the usage
 * routes for it. Live: a USAGE_SNAPSHOT frame makes them stale (live/invalidation.ts); polled every
 * 30 s while the socket is down.
 */
import { useSearchParams } from 'react-router';
import { $api } from '../../api/client';
import type { paths } from '../../api/schema';
import { usePollInterval } from '../../live/live';

export const PERIODS = [
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
] as const;
export type Period = (typeof PERIODS)[number]['value'];

export type Summary = paths['/api/usage/summary']['get']['responses'][200]['content']['application/json'];
export type TimeSeries =
  paths['/api/usage/time-series']['get']['responses'][200]['content']['application/json'];
export type Breakdown = paths['/api/usage/by-agent']['get']['responses'][200]['content']['application/json'];
export type Projection =
  paths['/api/usage/projection']['get']['responses'][200]['content']['application/json'];

export const BREAKDOWNS = ['by-agent', 'by-team', 'by-model'] as const;
export type BreakdownKind = (typeof BREAKDOWNS)[number];

export function usePeriod(): [Period, (period: Period) => void] {
  const [search, setSearch] = useSearchParams();
  const asked = search.get('period');
  const period = PERIODS.find((p) => p.value === asked)?.value ?? '24h';
  const choose = (next: Period) =>
    setSearch(
      (previous) => {
        const params = new URLSearchParams(previous);
        if (next === '24h') params.delete('period');
        else params.set('period', next);
        return params;
      },
      { replace: true },
    );
  return [period, choose];
}

const POLL_MS = 30_000;

export function useUsageSummary(period: Period) {
  return $api.useQuery(
    'get',
    '/api/usage/summary',
    { params: { query: { period } } },
    {
      refetchInterval: usePollInterval(POLL_MS),
    },
  );
}

export function useUsageSeries(period: Period) {
  return $api.useQuery(
    'get',
    '/api/usage/time-series',
    { params: { query: { period } } },
    {
      refetchInterval: usePollInterval(POLL_MS),
    },
  );
}

export function useUsageBreakdown(kind: BreakdownKind, period: Period) {
  return $api.useQuery(
    'get',
    `/api/usage/${kind}`,
    { params: { query: { period } } },
    {
      refetchInterval: usePollInterval(POLL_MS),
    },
  );
}

export function useUsageProjection() {
  return $api.useQuery('get', '/api/usage/projection', undefined, {
    refetchInterval: usePollInterval(POLL_MS),
  });
}
