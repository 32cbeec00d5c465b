/**
 * The data of Settings → Models & agents: the providers, the routing, and one way to say what a
 * route ends up running (a route without a model runs its provider's default model).
 */
import { useQueryClient } from '@tanstack/react-query';
import { $api, queryKey } from '../../api/client';
import type { paths } from '../../api/schema';

type Json<P extends keyof paths, M extends 'get'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer B } } };
}
  ? B
  : never;

export type Provider = Json<'/api/providers', 'get'>['providers'][number];
export type Routing = Json<'/api/providers/routing', 'get'>;
export type Route = NonNullable<Routing['global']>;
export type DoctorFinding = Json<'/api/system/doctor', 'get'>['findings'][number];

export function useProviders() {
  return $api.useQuery('get', '/api/providers');
}

/**
 * After a write: the providers, the routing and the resolved routes are read again; the doctor's
 * findings (it probes each provider) are marked stale and read again where next shown.
 */
export function useRefreshModels() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      ...(
        [
          '/api/providers',
          '/api/providers/routing',
          '/api/providers/resolve',
          '/api/providers/{name}',
        ] as const
      ).map((path) => queryClient.invalidateQueries({ queryKey: queryKey('get', path) })),
      queryClient.invalidateQueries({ queryKey: queryKey('get', '/api/system/doctor'), refetchType: 'none' }),
    ]);
}

/** "anthropic · claude-sonnet-4-5", naming the provider's default when the route names no model. */
export function routeText(route: Route, providers: readonly Provider[]): string {
  if (route.model) return `${route.provider} · ${route.model}`;
  const fallback = providers.find((p) => p.name === route.provider)?.default_model;
  return fallback ? `${route.provider} · ${fallback} (its default)` : route.provider;
}
