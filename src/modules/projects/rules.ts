/**
 * Field rules of a project, as pure functions: slugs, branch names, the CI-watch workflow, the
 * dependency-update lockfile paths, the agents' network allowlist, the forge API URL and commands.
 * Each returns a problem message (or a list of field problems) instead of throwing.
 */

import type { FieldProblem } from '../../platform/http/errors.js';
import { isUuid } from '../../platform/ids.js';
import { allowListProblems, parseAllowEntry } from '../../platform/process/index.js';

const SLUG = /^[a-z0-9-]{1,50}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

export const DEFAULT_CI_WATCH_WORKFLOW = 'ci.yml';

/** Slugs of projects and products: 1–50 of a-z, 0-9 and -, never UUID-shaped (ids and slugs share lookups). */
export function slugProblem(slug: string): string | null {
  if (!SLUG.test(slug)) return 'must be 1–50 characters of a-z, 0-9 and -';
  if (isUuid(slug)) return 'must not look like a UUID';
  return null;
}

/** A repository-relative path: not absolute, no `..` segment, no backslashes or control characters. */
export function relativePathProblem(path: string): string | null {
  if (!path) return 'must not be empty';
  if (path.length > 300) return 'must be at most 300 characters';
  if (CONTROL.test(path) || path.includes('\\')) return 'contains a character that is not allowed';
  if (path.startsWith('/') || path.startsWith('~') || /^[A-Za-z]:/.test(path)) return 'must be relative';
  if (path.split('/').includes('..')) return 'must not contain ".."';
  return null;
}

/** The workflow file that scopes the CI-watch signal, e.g. `ci.yml` or `.github/workflows/ci.yml`. */
export function workflowProblem(workflow: string): string | null {
  if (/\s/.test(workflow)) return 'must not contain spaces';
  return relativePathProblem(workflow);
}

/**
 * `dep_update_paths`: comma-separated lockfile paths, each relative without `..`. Stored trimmed and
 * joined with commas; nothing left means null (paths inferred from the package manager).
 */
export function normalizeDepUpdatePaths(
  value: string | null,
  field = 'body.dep_update_paths',
): { paths: string | null; problems: FieldProblem[] } {
  if (value === null) return { paths: null, problems: [] };
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const problems: FieldProblem[] = [];
  for (const part of parts) {
    const problem = relativePathProblem(part);
    if (problem) problems.push({ field, message: `"${part}" ${problem}` });
  }
  return { paths: parts.length > 0 ? [...new Set(parts)].join(',') : null, problems };
}

/** The most entries a project's agent network allowlist may hold (the API schema's `maxItems`). */
export const MAX_AGENT_NETWORK_ALLOW = 100;

/**
 * `agent_network_allow`: hosts the project's agents may reach besides their model, in the egress
 * proxy's own grammar (one grammar, so what is stored is what the proxy will understand). Entries
 * are trimmed and blank ones dropped; a later entry that means the same as an earlier one (same
 * host, port and wildcard, however spelled) is dropped, the order otherwise kept as given. Every
 * entry the grammar refuses is one problem naming it and why.
 */
export function normalizeAgentNetworkAllow(
  value: readonly string[],
  field = 'body.agent_network_allow',
): { entries: string[]; problems: FieldProblem[] } {
  const trimmed = value.map((entry) => entry.trim()).filter(Boolean);
  const problems = allowListProblems(trimmed).map(({ entry, why }) => ({
    field,
    message: `"${entry}": ${why}`,
  }));
  if (problems.length > 0) return { entries: trimmed, problems };
  const seen = new Set<string>();
  const entries: string[] = [];
  for (const text of trimmed) {
    const { host, port, wildcard } = parseAllowEntry(text);
    const key = `${wildcard ? '*.' : ''}${host} ${port ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push(text);
  }
  return { entries, problems };
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An https base URL without credentials (plain http only on loopback, where the token cannot leak). */
export function forgeApiUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) return 'must be an https URL (http only on loopback)';
  if (url.username || url.password) return 'must not carry credentials; set git_token instead';
  return null;
}

/** Commands are trimmed; an empty one means none. */
export function normalizeCommand(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}
