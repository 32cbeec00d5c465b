/**
 * The maintenance-pause state of the three scopes, shared by the header control and the banner so
 * they never disagree. Live: a MAINTENANCE_PAUSE_CHANGED frame carries the scope's row, written
 * straight into the cache (and the route is refetched, see live/invalidation.ts); polled every 30 s
 * only while the socket is down.
 */
import { useQueryClient } from '@tanstack/react-query';
import { $api } from '../../api/client';
import type { paths } from '../../api/schema';
import { useLiveEvent, usePollInterval } from '../../live/live';

export type PauseList =
  paths['/api/maintenance-pause']['get']['responses'][200]['content']['application/json'];
export type PauseRow = PauseList['scopes'][number];
export type Scope = PauseRow['scope'];

export const SCOPES: { scope: Scope; label: string; description: string }[] = [
  {
    scope: 'dispatch',
    label: 'Delivery dispatch',
    description: 'The task dispatcher: no new tasks are claimed or started.',
  },
  {
    scope: 'board_programs',
    label: 'Board programs',
    description:
      'The board-program runner (CI-watch, dependency-update, release-manager cycles): no new cycles.',
  },
  {
    scope: 'engines',
    label: 'Originating engines',
    description: 'The interval-driven engine sweeps (CI-watch, dependency checks, release readiness).',
  },
];

export const scopeLabel = (scope: Scope) => SCOPES.find((s) => s.scope === scope)?.label ?? scope;

const PAUSES = $api.queryOptions('get', '/api/maintenance-pause');

export function usePauses() {
  const queryClient = useQueryClient();
  useLiveEvent('MAINTENANCE_PAUSE_CHANGED', (frame) => {
    const { type: _type, ...row } = frame;
    queryClient.setQueryData<PauseList>(PAUSES.queryKey, (list) =>
      list
        ? {
            scopes: list.scopes.map((s) =>
              s.scope === row.scope ? { ...s, ...(row as Partial<PauseRow>) } : s,
            ),
          }
        : list,
    );
  });
  return $api.useQuery('get', '/api/maintenance-pause', undefined, {
    refetchInterval: usePollInterval(30_000),
  });
}
