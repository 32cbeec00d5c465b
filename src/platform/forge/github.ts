/**
 * GitHub (github.com or GitHub Enterprise, through `apiUrl`) over REST with Octokit: Actions
 * workflow runs for CI, pull requests and releases of one repository. The token is asked for at
 * every call (a missing one is ForgeError `unauthorized` then, not at construction), every request
 * carries the caller's AbortSignal, and transport failures go through the shared retry policy.
 */
import { Octokit } from '@octokit/rest';
import { branchStatusFromRuns, commitStatusFromRuns } from './ci-selection.js';
import { classifyTransport, failureOf, hasValidationCode, statusOf } from './http-failure.js';
import { type RetryOptions, withRetries } from './retry.js';
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

export const GITHUB_API_URL = 'https://api.github.com';
const API_VERSION = '2022-11-28';
const RUN_WINDOW = 20;
const SILENT_LOG = { debug() {}, info() {}, warn() {}, error() {} };

export interface RestForgeOptions {
  owner: string;
  repo: string;
  /** REST base URL (default per provider). */
  apiUrl?: string | null;
  /** The token, asked for at every call; null means none is configured. */
  token: () => Promise<string | null>;
  retry?: RetryOptions;
}

type Call = { headers: Record<string, string>; request: { signal: AbortSignal | undefined } };

interface RawPull {
  number: number;
  html_url: string;
  state: string;
  title: string;
  body?: string | null;
  merged_at: string | null;
  merge_commit_sha: string | null;
  head: { ref: string };
  base: { ref: string };
}

export class GitHubForge implements Forge {
  readonly provider = 'github' as const;
  private readonly octokit: Octokit;
  private readonly owner: string;
  private readonly repo: string;

  constructor(private readonly options: RestForgeOptions) {
    this.owner = options.owner;
    this.repo = options.repo;
    this.octokit = new Octokit({
      baseUrl: (options.apiUrl || GITHUB_API_URL).replace(/\/+$/, ''),
      userAgent: 'gaffer',
      log: SILENT_LOG,
    });
  }

  async branchCiStatus(branch: string, workflow: string, signal?: AbortSignal): Promise<CiStatus> {
    const runs = await this.call(signal, { notFound: null }, (call) =>
      this.octokit.rest.actions.listWorkflowRuns({
        owner: this.owner,
        repo: this.repo,
        workflow_id: workflow,
        branch,
        status: 'completed',
        per_page: RUN_WINDOW,
        ...call,
      }),
    );
    return runs ? branchStatusFromRuns(runs.data.workflow_runs) : UNKNOWN_CI;
  }

  async commitCiStatus(sha: string, workflow?: string, signal?: AbortSignal): Promise<CiStatus> {
    const scope = { owner: this.owner, repo: this.repo, head_sha: sha, per_page: 100 };
    const runs = await this.call(signal, { notFound: null }, (call) =>
      workflow
        ? this.octokit.rest.actions.listWorkflowRuns({ ...scope, workflow_id: workflow, ...call })
        : this.octokit.rest.actions.listWorkflowRunsForRepo({ ...scope, ...call }),
    );
    return runs ? commitStatusFromRuns(runs.data.workflow_runs, sha) : { ...UNKNOWN_CI, headSha: sha };
  }

  async openPullRequest(input: OpenPullRequestInput, signal?: AbortSignal): Promise<PullRequest> {
    try {
      const created = await this.call(signal, {}, (call) =>
        this.octokit.rest.pulls.create({
          owner: this.owner,
          repo: this.repo,
          head: input.head,
          base: input.base,
          title: input.title,
          body: input.body,
          ...call,
        }),
      );
      return pullView(created!.data);
    } catch (error) {
      const open =
        error instanceof ForgeError &&
        error.code === 'invalid_input' &&
        /already exists/i.test(error.message);
      if (!open) throw error;
      const existing = (await this.listOpenPullRequests(input.head, signal)).find(
        (p) => p.base === input.base,
      );
      if (!existing) throw error;
      return existing;
    }
  }

  async getPullRequest(number: number, signal?: AbortSignal): Promise<PullRequest | null> {
    const found = await this.call(signal, { notFound: null }, (call) =>
      this.octokit.rest.pulls.get({ owner: this.owner, repo: this.repo, pull_number: number, ...call }),
    );
    return found ? pullView(found.data) : null;
  }

  async listOpenPullRequests(head: string, signal?: AbortSignal): Promise<PullRequest[]> {
    const listed = await this.call(signal, {}, (call) =>
      this.octokit.rest.pulls.list({
        owner: this.owner,
        repo: this.repo,
        state: 'open',
        head: `${this.owner}:${head}`,
        sort: 'created',
        direction: 'asc',
        per_page: 100,
        ...call,
      }),
    );
    return listed!.data
      .map(pullView)
      .filter((pull) => pull.head === head)
      .sort((a, b) => a.number - b.number);
  }

  async mergePullRequest(
    number: number,
    input: MergePullRequestInput,
    signal?: AbortSignal,
  ): Promise<{ sha: string }> {
    const pull = openForMerge(await this.getPullRequest(number, signal), number);
    try {
      const merged = await this.call(signal, {}, (call) =>
        this.octokit.rest.pulls.merge({
          owner: this.owner,
          repo: this.repo,
          pull_number: number,
          merge_method: input.method,
          commit_title: input.commitTitle?.trim() || `${pull.title} (#${number})`,
          ...(input.commitMessage !== undefined ? { commit_message: input.commitMessage } : {}),
          ...call,
        }),
      );
      return { sha: merged!.data.sha };
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
        `pull request #${number} cannot be merged: ${error instanceof Error ? error.message : ''}`,
        {
          status,
        },
      );
    }
  }

  async getRelease(tag: string, signal?: AbortSignal): Promise<Release | null> {
    const found = await this.call(signal, { notFound: null }, (call) =>
      this.octokit.rest.repos.getReleaseByTag({ owner: this.owner, repo: this.repo, tag, ...call }),
    );
    if (!found) return null;
    return this.releaseView(found.data, signal);
  }

  async createRelease(input: CreateReleaseInput, signal?: AbortSignal): Promise<Release> {
    const created = await this.call(
      signal,
      {
        onError: (error) =>
          hasValidationCode(validationData(error), 'already_exists') ? alreadyExists(input.tag) : null,
      },
      (call) =>
        this.octokit.rest.repos.createRelease({
          owner: this.owner,
          repo: this.repo,
          tag_name: input.tag,
          target_commitish: input.target,
          name: input.name,
          body: input.body,
          ...call,
        }),
    );
    return this.releaseView(
      created!.data,
      signal,
      /^[0-9a-f]{40}$/i.test(input.target) ? input.target : null,
    );
  }

  private async releaseView(
    data: { tag_name: string; name: string | null; body?: string | null; html_url: string },
    signal?: AbortSignal,
    knownSha: string | null = null,
  ): Promise<Release> {
    const sha =
      knownSha ??
      (await this.call(signal, {}, (call) =>
        this.octokit.rest.repos.getCommit({
          owner: this.owner,
          repo: this.repo,
          ref: data.tag_name,
          ...call,
        }),
      ))!.data.sha;
    return {
      tag: data.tag_name,
      name: data.name || data.tag_name,
      body: data.body ?? '',
      url: data.html_url,
      sha,
    };
  }

  /**
   * One API call: the token, the version header and the signal, the retry policy, then errors
   * mapped — a 404 to `notFound` when given (null = "absent"), else through `onError`, else by status.
   */
  private async call<T>(
    signal: AbortSignal | undefined,
    rules: { notFound?: null; onError?: (error: unknown) => ForgeError | null },
    request: (call: Call) => Promise<T>,
  ): Promise<T | null> {
    const token = await this.options.token();
    if (!token) {
      throw new ForgeError('unauthorized', `no token is configured for ${this.owner}/${this.repo}`);
    }
    const call: Call = {
      headers: { authorization: `token ${token}`, 'x-github-api-version': API_VERSION },
      request: { signal },
    };
    try {
      return await withRetries(() => request(call), classifyTransport, this.options.retry, signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if ('notFound' in rules && statusOf(error) === 404) return null;
      throw rules.onError?.(error) ?? failureOf(error, signal);
    }
  }
}

function pullView(raw: RawPull): PullRequest {
  const state = raw.merged_at ? 'merged' : raw.state === 'open' ? 'open' : 'closed';
  return {
    number: raw.number,
    url: raw.html_url,
    state,
    head: raw.head.ref,
    base: raw.base.ref,
    title: raw.title,
    body: raw.body ?? '',
    mergeSha: state === 'merged' ? raw.merge_commit_sha : null,
  };
}

function validationData(error: unknown): unknown {
  return statusOf(error) === 422 ? (error as { response?: { data?: unknown } }).response?.data : null;
}

function alreadyExists(tag: string): ForgeError {
  return new ForgeError('already_exists', `a release of tag ${tag} already exists`, { tag });
}
