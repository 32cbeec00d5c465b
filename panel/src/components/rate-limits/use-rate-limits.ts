/**
 * The providers parked on a rate limit or overload, shared by the banner and anything else that
 * shows them. Live: RATE_LIMIT_HIT puts the entry in the cache and RATE_LIMIT_LIFTED takes it out
 * (and the route is refetched, see live/invalidation.ts); polled every 15 s while the socket is down.
 */
import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../api/client';
import type { paths } from '../../api/schema';
import { useLiveEvent, usePollInterval } from '../../live/live';

export type RateLimits =
  paths['/api/system/rate-limits']['get']['responses'][200]['content']['application/json'];
export type RateLimitEntry = RateLimits['entries'][number];

const RATE_LIMITS = $api.queryOptions('get', '/api/system/rate-limits');

const bySoonestResume = (a: RateLimitEntry, b: RateLimitEntry) => a.resume_at.localeCompare(b.resume_at);

export function useRateLimits() {
  const queryClient = useQueryClient();
  const update = (change: (entries: RateLimitEntry[]) => RateLimitEntry[]) =>
    queryClient.setQueryData<RateLimits>(RATE_LIMITS.queryKey, (list) =>
      list ? { entries: change(list.entries).sort(bySoonestResume) } : list,
    );
  useLiveEvent('RATE_LIMIT_HIT', (frame) => {
    const { type: _type, ...entry } = frame as unknown as RateLimitEntry & { type: string };
    update((entries) => [...entries.filter((e) => e.provider !== entry.provider), entry]);
  });
  useLiveEvent('RATE_LIMIT_LIFTED', (frame) => {
    update((entries) => entries.filter((e) => e.provider !== frame.provider));
  });
  return $api.useQuery('get', '/api/system/rate-limits', undefined, {
    refetchInterval: usePollInterval(15_000),
  });
}
