/**
 * `exclude_paths` (spec, Limits): an excluded path skips only the WAF and behavioural tracking;
 * IP bans and rate limits still apply to it. A prefix matches itself and what lies below it
 * (`/docs` covers `/docs/json`, not `/docsx`).
 */
export function isExcludedPath(rawUrl: string, prefixes: readonly string[]): boolean {
  const path = rawUrl.split('?', 1)[0] ?? '';
  // `/docs/../.env` is not under /docs: a path that steps up (or hides it in an escape) is never excluded.
  if (/\.\.|%2e/i.test(path)) return false;
  return prefixes.some((prefix) => {
    if (prefix === '/') return true;
    const bare = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
    return path === bare || path.startsWith(`${bare}/`);
  });
}
