/**
 * `exclude_paths` (spec, Limits): an excluded path skips only the WAF and behavioural tracking;
 * IP bans and rate limits still apply to it. A prefix matches itself and what lies below it
 * (`/docs` covers `/docs/json`, not `/docsx`).
 */

/** `/docs/../.env` is not under /docs: a path that steps up (or hides it in an escape) is never excluded. */
const STEPS_UP = /\.\.|%2e/i;

/** The matcher for a list of prefixes, normalised once. */
export function excludedPathMatcher(prefixes: readonly string[]): (rawUrl: string) => boolean {
  if (prefixes.length === 0) return () => false;
  const everything = prefixes.includes('/');
  const bare = prefixes.map((prefix) => (prefix.endsWith('/') ? prefix.slice(0, -1) : prefix));
  const below = bare.map((prefix) => `${prefix}/`);
  return (rawUrl) => {
    const end = rawUrl.indexOf('?');
    const path = end === -1 ? rawUrl : rawUrl.slice(0, end);
    if (STEPS_UP.test(path)) return false;
    if (everything) return true;
    for (let i = 0; i < bare.length; i++) {
      if (path === bare[i] || path.startsWith(below[i]!)) return true;
    }
    return false;
  };
}

export function isExcludedPath(rawUrl: string, prefixes: readonly string[]): boolean {
  return excludedPathMatcher(prefixes)(rawUrl);
}
