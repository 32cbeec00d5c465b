/**
 * Rate-limit groups, pure. Most routes share the general per-client limit; auth-sensitive and
 * expensive routes get the tighter `sensitive` limit with a counter of their own.
 */
export type RouteGroup = 'general' | 'sensitive';

/** "METHOD /pattern" of the routes in the sensitive group. */
export const SENSITIVE_ROUTES: readonly string[] = [
  // The panel sign-in exchanges a CEO token for a session: a token-guessing target.
  'POST /api/auth/session',
  // Capped, resumable, but each call walks and deletes remote branches.
  'POST /api/git/branches/cleanup',
  // Release decisions: single-flight and expensive (CI gate, tagging, publishing).
  'POST /api/release/proposal/approve',
  'POST /api/release/proposal/reject',
];

export function routeGroup(method: string | readonly string[], url: string): RouteGroup {
  const methods = [method].flat();
  return methods.some((m) => SENSITIVE_ROUTES.includes(`${m.toUpperCase()} ${url}`))
    ? 'sensitive'
    : 'general';
}
