/**
 * Git remote URLs a project may use, and the provider they imply. Accepted: `https://host/owner/repo(.git)`
 * (no credentials in the URL: the token goes in `git_token`), plain `http://` only on a loopback host
 * (127.0.0.1, localhost, [::1] — a forge on this machine, where the token cannot leak; its provider is
 * never inferred, so it must be set explicitly), `ssh://[user@]host[:port]/path`,
 * scp-like `user@host:owner/repo.git`, and local bare repositories as `file:///abs/path` or `/abs/path`.
 * Pure functions, no I/O.
 */

export const GIT_PROVIDERS = ['github', 'gitea', 'local'] as const;
export type GitProvider = (typeof GIT_PROVIDERS)[number];

export interface ParsedGitUrl {
  kind: 'https' | 'http' | 'ssh' | 'local';
  /** Lowercased host name; null for local repositories. */
  host: string | null;
}

const MAX_LENGTH = 500;
const SCP_LIKE = /^([A-Za-z0-9._-]+)@([A-Za-z0-9.-]+):([^\s]+)$/;
const GITHUB_HOSTS = new Set(['github.com', 'www.github.com']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether a URL host name (as `URL.hostname` spells it) is this machine. */
export const isLoopbackHost = (hostname: string): boolean => LOOPBACK_HOSTS.has(hostname.toLowerCase());

/** The URL's kind and host, or a reason it is not a usable git remote. */
export function parseGitUrl(url: string): ParsedGitUrl | { problem: string } {
  if (url.length === 0 || url.length > MAX_LENGTH) return { problem: `must be 1–${MAX_LENGTH} characters` };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\s\u0000-\u001f\u007f]/.test(url))
    return { problem: 'must not contain spaces or control characters' };
  if (url.startsWith('/')) {
    return hasDotDot(url) ? { problem: 'a local path must not contain ".."' } : { kind: 'local', host: null };
  }
  const scp = SCP_LIKE.exec(url);
  if (scp && !url.includes('://')) {
    const path = scp[3]!;
    if (path.startsWith('-') || hasDotDot(path)) return { problem: 'the repository path is not valid' };
    return { kind: 'ssh', host: scp[2]!.toLowerCase() };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: 'must be an https, ssh or file URL, git@host:owner/repo.git, or an absolute path' };
  }
  const path = parsed.pathname.replace(/^\/+/, '');
  switch (parsed.protocol) {
    case 'https:':
    case 'http:':
      if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
        return {
          problem: 'use https (plain http would expose the git token; it is allowed on loopback only)',
        };
      }
      if (parsed.username || parsed.password) {
        return { problem: 'must not carry credentials; set git_token instead' };
      }
      if (!parsed.hostname || !path || hasDotDot(path))
        return { problem: 'must name a host and a repository path' };
      return { kind: parsed.protocol === 'http:' ? 'http' : 'https', host: parsed.hostname.toLowerCase() };
    case 'ssh:':
      if (parsed.password) return { problem: 'must not carry a password' };
      if (!parsed.hostname || !path || hasDotDot(path))
        return { problem: 'must name a host and a repository path' };
      return { kind: 'ssh', host: parsed.hostname.toLowerCase() };
    case 'file:':
      if (parsed.hostname && parsed.hostname !== 'localhost') return { problem: 'a file URL must be local' };
      if (!path || hasDotDot(parsed.pathname)) return { problem: 'must name an absolute path' };
      return { kind: 'local', host: null };
    default:
      return { problem: `the ${parsed.protocol.replace(':', '')} scheme is not supported` };
  }
}

export const isParsed = (result: ParsedGitUrl | { problem: string }): result is ParsedGitUrl =>
  'kind' in result;

/**
 * The provider a URL implies: github.com → github, a local repository → local, anything else
 * (another host, a loopback http URL) unknown.
 */
export function inferProvider(url: string): GitProvider | null {
  const parsed = parseGitUrl(url);
  if (!isParsed(parsed)) return null;
  if (parsed.kind === 'local') return 'local';
  if (parsed.kind === 'http') return null;
  return parsed.host && GITHUB_HOSTS.has(parsed.host) ? 'github' : null;
}

/** Why an explicit provider does not fit the URL, or null when it does. */
export function providerMismatch(provider: GitProvider, url: string): string | null {
  const parsed = parseGitUrl(url);
  if (!isParsed(parsed)) return null;
  if (provider === 'local' && parsed.kind !== 'local')
    return 'provider local needs a file:// URL or an absolute path';
  if (provider !== 'local' && parsed.kind === 'local') return `provider ${provider} needs a remote URL`;
  return null;
}

function hasDotDot(path: string): boolean {
  return path.split('/').includes('..');
}
