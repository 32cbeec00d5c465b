/**
 * Gitea and Forgejo over REST (`/api/v1`, `Authorization: token …`) with fetch: the combined
 * commit status for CI, pull requests and releases of one repository. Same contract as the GitHub
 * provider: token asked for at every call, AbortSignal on every request, the shared retry policy.
 * Gitea's commit status is combined over every check of the commit, so the workflow name of a CI
 * question does not narrow it.
 */
import { giteaConclusion } from './ci-selection.js';
import type { RestForgeOptions } from './github.js';
import { classifyTransport, failureOf, HttpStatusError, serverMessage, statusOf } from './http-failure.js';
import { withRetries } from './retry.js';
import {
  type CiStatus,
  type CreateReleaseInput,
  type Forge,
  ForgeError,
  type MergePullRequestInput,
  type OpenPullRequestInput,
  openForMerge,
  type PullRequest,
  type Release,
  UNKNOWN_CI,
} from './types.js';

const PAGE_LIMIT = 50;
const MAX_PAGES = 20;

interface RawPull {
  number: number;
  html_url: string;
  state: string;
  title: string;
  body?: string | null;
  merged?: boolean;
  merge_commit_sha?: string | null;
  head: { ref: string };
  base: { ref: string };
}

interface RawRelease {
  tag_name: string;
  name?: string | null;
  body?: string | null;
  html_url: string;
}

interface RawCombinedStatus {
  state?: string | null;
  sha?: string;
  total_count?: number;
  statuses?: { status?: string; target_url?: string | null; context?: string | null }[] | null;
}

type Query = Record<string, string | number>;

export class GiteaForge implements Forge {
  readonly provider = 'gitea' as const;
  private readonly base: string;

  constructor(private readonly options: RestForgeOptions & { apiUrl: string }) {
    this.base = `${options.apiUrl.replace(/\/+$/, '')}/repos/${encodeURIComponent(options.owner)}/${encodeURIComponent(options.repo)}`;
  }

  branchCiStatus(branch: string, _workflow: string, signal?: AbortSignal): Promise<CiStatus> {
    return this.combinedStatus(branch, signal);
  }

  commitCiStatus(sha: string, _workflow?: string, signal?: AbortSignal): Promise<CiStatus> {
    return this.combinedStatus(sha, signal);
  }

  async openPullRequest(input: OpenPullRequestInput, signal?: AbortSignal): Promise<PullRequest> {
    try {
      const created = await this.send<RawPull>('POST', '/pulls', signal, {
        body: { head: input.head, base: input.base, title: input.title, body: input.body },
      });
      return pullView(created!);
    } catch (error) {
      if (!(error instanceof ForgeError) || error.details?.status !== 409) throw error;
      const existing = (await this.listOpenPullRequests(input.head, signal)).find(
        (p) => p.base === input.base,
      );
      if (!existing) throw error;
      return existing;
    }
  }

  async getPullRequest(number: number, signal?: AbortSignal): Promise<PullRequest | null> {
    const found = await this.send<RawPull>('GET', `/pulls/${number}`, signal, { notFound: true });
    return found ? pullView(found) : null;
  }

  async listOpenPullRequests(head: string, signal?: AbortSignal): Promise<PullRequest[]> {
    const found: PullRequest[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const pulls = await this.send<RawPull[]>('GET', '/pulls', signal, {
        query: { state: 'open', limit: PAGE_LIMIT, page },
      });
      found.push(
        ...(pulls ?? []).map(pullView).filter((pull) => pull.head === head && pull.state === 'open'),
      );
      if (!pulls || pulls.length < PAGE_LIMIT) break;
    }
    return found.sort((a, b) => a.number - b.number);
  }

  async mergePullRequest(
    number: number,
    input: MergePullRequestInput,
    signal?: AbortSignal,
  ): Promise<{ sha: string }> {
    const pull = openForMerge(await this.getPullRequest(number, signal), number);
    try {
      await this.send('POST', `/pulls/${number}/merge`, signal, {
        body: {
          Do: input.method,
          MergeTitleField: input.commitTitle?.trim() || `${pull.title} (#${number})`,
          ...(input.commitMessage !== undefined ? { MergeMessageField: input.commitMessage } : {}),
        },
      });
    } catch (error) {
      const status = error instanceof ForgeError ? error.details?.status : null;
      if (status !== 405 && status !== 409) throw error;
      const now = await this.getPullRequest(number, signal);
      if (now && now.state !== 'open') {
        throw new ForgeError('not_open', `pull request #${number} is ${now.state}`, {
          mergeSha: now.mergeSha,
        });
      }
      throw new ForgeError(
        'merge_conflict',
        `pull request #${number} cannot be merged: ${(error as Error).message}`,
        {
          status,
        },
      );
    }
    const merged = await this.getPullRequest(number, signal);
    if (!merged?.mergeSha) throw new ForgeError('unavailable', `pull request #${number} has no merge commit`);
    return { sha: merged.mergeSha };
  }

  async getRelease(tag: string, signal?: AbortSignal): Promise<Release | null> {
    const found = await this.send<RawRelease>('GET', `/releases/tags/${encodeURIComponent(tag)}`, signal, {
      notFound: true,
    });
    return found ? this.releaseView(found, signal) : null;
  }

  async createRelease(input: CreateReleaseInput, signal?: AbortSignal): Promise<Release> {
    let created: RawRelease | null;
    try {
      created = await this.send<RawRelease>('POST', '/releases', signal, {
        body: { tag_name: input.tag, target_commitish: input.target, name: input.name, body: input.body },
      });
    } catch (error) {
      if (error instanceof ForgeError && error.details?.status === 409) {
        throw new ForgeError('already_exists', `a release of tag ${input.tag} already exists`, {
          tag: input.tag,
        });
      }
      throw error;
    }
    return this.releaseView(created!, signal, /^[0-9a-f]{40}$/i.test(input.target) ? input.target : null);
  }

  private async combinedStatus(ref: string, signal?: AbortSignal): Promise<CiStatus> {
    const combined = await this.send<RawCombinedStatus>(
      'GET',
      `/commits/${encodeURIComponent(ref)}/status`,
      signal,
      {
        notFound: true,
      },
    );
    if (!combined) return UNKNOWN_CI;
    const statuses = combined.statuses ?? [];
    const conclusion = giteaConclusion(combined.state, combined.total_count ?? statuses.length);
    if (conclusion === 'unknown') return { ...UNKNOWN_CI, headSha: combined.sha ?? null };
    const telling =
      statuses.find((s) =>
        conclusion === 'failure'
          ? s.status === 'failure' || s.status === 'error'
          : s.status === combined.state,
      ) ?? statuses[0];
    return {
      conclusion,
      runUrl: telling?.target_url || null,
      runName: telling?.context || null,
      headSha: combined.sha ?? null,
    };
  }

  private async releaseView(
    raw: RawRelease,
    signal?: AbortSignal,
    knownSha: string | null = null,
  ): Promise<Release> {
    let sha = knownSha;
    if (!sha) {
      const tag = await this.send<{ commit?: { sha?: string } }>(
        'GET',
        `/tags/${encodeURIComponent(raw.tag_name)}`,
        signal,
        {
          notFound: true,
        },
      );
      sha = tag?.commit?.sha ?? null;
    }
    if (!sha) throw new ForgeError('unavailable', `the tag of release ${raw.tag_name} is not on the forge`);
    return {
      tag: raw.tag_name,
      name: raw.name || raw.tag_name,
      body: raw.body ?? '',
      url: raw.html_url,
      sha,
    };
  }

  /** One API request with the token, retries and error mapping; a 404 is null when `notFound` is set. */
  private async send<T>(
    method: string,
    path: string,
    signal: AbortSignal | undefined,
    options: { query?: Query; body?: unknown; notFound?: boolean } = {},
  ): Promise<T | null> {
    const token = await this.options.token();
    if (!token) {
      throw new ForgeError(
        'unauthorized',
        `no token is configured for ${this.options.owner}/${this.options.repo}`,
      );
    }
    const url = new URL(`${this.base}${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
    try {
      return await withRetries(
        () => fetchJson<T>(url, method, token, options.body, signal),
        classifyTransport,
        this.options.retry,
        signal,
      );
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (options.notFound && statusOf(error) === 404) return null;
      throw failureOf(error, signal);
    }
  }
}

export async function fetchJson<T>(
  url: URL,
  method: string,
  token: string,
  body: unknown,
  signal: AbortSignal | undefined,
): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `token ${token}`,
      accept: 'application/json',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: signal ?? null,
  });
  const text = await response.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!response.ok) {
    throw new HttpStatusError(
      response.status,
      Object.fromEntries(response.headers),
      data,
      serverMessage(data),
    );
  }
  return data as T;
}

function pullView(raw: RawPull): PullRequest {
  const state = raw.merged ? 'merged' : raw.state === 'open' ? 'open' : 'closed';
  return {
    number: raw.number,
    url: raw.html_url,
    state,
    head: raw.head.ref,
    base: raw.base.ref,
    title: raw.title,
    body: raw.body ?? '',
    mergeSha: state === 'merged' ? (raw.merge_commit_sha ?? null) : null,
  };
}
