/**
 * Builds the REST forge of a repository from what a project says: provider, git URL (owner and
 * repository are its last two path segments, `.git` stripped; scp-like `git@host:owner/repo.git`
 * too) and an optional API base URL. Without one the base is the provider's default:
 * https://api.github.com for github.com, `https://<host>/api/v3` for GitHub Enterprise, and
 * `https://<host>/api/v1` for Gitea/Forgejo (plain http is kept for a loopback git URL).
 */

import { GiteaForge } from './gitea.js';
import { GITHUB_API_URL, GitHubForge } from './github.js';
import type { RetryOptions } from './retry.js';
import { type Forge, ForgeError } from './types.js';

export type RestProvider = 'github' | 'gitea';

export interface CreateForgeInput {
  provider: RestProvider;
  /** The REST base URL; null or absent for the provider's default. */
  apiUrl?: string | null;
  gitUrl: string;
  /** The token, asked for at every call; null when none is configured. */
  token: () => Promise<string | null>;
  retry?: RetryOptions;
}

export interface RepoLocation {
  /** `https:` or `http:` for web URLs; null for ssh and scp-like remotes. */
  scheme: 'https:' | 'http:' | null;
  /** Host name, with the port for web URLs. */
  host: string;
  owner: string;
  repo: string;
}

const SCP_LIKE = /^[A-Za-z0-9._-]+@([A-Za-z0-9.-]+):(.+)$/;
const GITHUB_HOSTS = new Set(['github.com', 'www.github.com']);

/** Host, owner and repository of a remote git URL, or null when it names none. */
export function parseRepoLocation(gitUrl: string): RepoLocation | null {
  const url = gitUrl.trim();
  let scheme: RepoLocation['scheme'] = null;
  let host: string;
  let path: string;
  const scp = url.includes('://') ? null : SCP_LIKE.exec(url);
  if (scp) {
    host = scp[1]!.toLowerCase();
    path = scp[2]!;
  } else {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    if (parsed.protocol === 'https:' || parsed.protocol === 'http:') {
      scheme = parsed.protocol;
      host = parsed.host.toLowerCase();
    } else if (parsed.protocol === 'ssh:') {
      host = parsed.hostname.toLowerCase();
    } else {
      return null;
    }
    try {
      path = decodeURIComponent(parsed.pathname);
    } catch {
      return null;
    }
  }
  const segments = path
    .replace(/\.git\/*$/, '')
    .split('/')
    .filter(Boolean);
  const repo = segments.at(-1);
  const owner = segments.at(-2);
  if (!host || !owner || !repo) return null;
  return { scheme, host, owner, repo };
}

/** The provider's default REST base URL for a repository host. */
export function defaultApiUrl(provider: RestProvider, location: RepoLocation): string {
  const scheme = location.scheme ?? 'https:';
  const host = location.scheme ? location.host : location.host.replace(/:\d+$/, '');
  if (provider === 'github') {
    return GITHUB_HOSTS.has(host) ? GITHUB_API_URL : `${scheme}//${host}/api/v3`;
  }
  return `${scheme}//${host}/api/v1`;
}

export function createForge(input: CreateForgeInput): Forge {
  const location = parseRepoLocation(input.gitUrl);
  if (!location) {
    throw new ForgeError('invalid_input', 'the git URL names no owner/repository', {
      provider: input.provider,
    });
  }
  const apiUrl = input.apiUrl?.trim() || defaultApiUrl(input.provider, location);
  const options = {
    owner: location.owner,
    repo: location.repo,
    apiUrl,
    token: input.token,
    ...(input.retry ? { retry: input.retry } : {}),
  };
  return input.provider === 'github' ? new GitHubForge(options) : new GiteaForge(options);
}
