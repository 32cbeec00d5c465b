/**
 * The typed API client: openapi-fetch over the types generated from the server's OpenAPI document
 * (schema.d.ts, `npm run panel:types`), and openapi-react-query hooks over it. Every call goes to
 * the same origin with the session cookie; there are no hand-written per-route modules.
 *
 *   const pauses = $api.useQuery('get', '/api/maintenance-pause');
 *   const resume = $api.useMutation('delete', '/api/maintenance-pause/{scope}');
 *
 * Query keys are `[method, path, init]`, so `queryKey('get', '/api/tasks')` invalidates every
 * task list whatever its filters.
 */
import { QueryClient } from '@tanstack/react-query';
import createFetchClient from 'openapi-fetch';
import createClient from 'openapi-react-query';
import type { paths } from './schema';
import { noteSignedOut } from './session';

export type { paths };

export const fetchClient = createFetchClient<paths>({ baseUrl: '', credentials: 'same-origin' });

// A 401 anywhere means the session is gone (expired, signed out): the app shows the sign-in page.
fetchClient.use({
  onResponse({ response }) {
    if (response.status === 401) noteSignedOut();
    return undefined;
  },
});

export const $api = createClient(fetchClient);

/** The key prefix of every query on one route: pass it to `invalidateQueries`. */
export function queryKey<P extends keyof paths>(method: 'get', path: P): readonly [string, P] {
  return [method, path] as const;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Freshness comes from live events (and polling while the socket is down), not from timers.
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) => failures < 1 && !isClientError(error),
      },
    },
  });
}

function isClientError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'error' in error;
}
