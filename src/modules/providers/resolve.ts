/** The routing rule: an agent runs its own route, else its role's, else the global one. Pure. */

export type RouteScope = 'global' | 'role' | 'agent';

export interface RouteEntry<P = string> {
  scope: RouteScope;
  /** '' for global, the role, or the agent's UUID. */
  subject: string;
  provider: P;
  model: string | null;
}

export function resolveRoute<P>(
  agent: { id: string; role: string },
  routes: readonly RouteEntry<P>[],
): RouteEntry<P> | null {
  const find = (scope: RouteScope, subject: string) =>
    routes.find((route) => route.scope === scope && route.subject === subject) ?? null;
  return find('agent', agent.id) ?? find('role', agent.role) ?? find('global', '');
}
