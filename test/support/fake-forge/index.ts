/**
 * A fake code-hosting forge on loopback for tests: GitHub REST under `/api/v3` (the GitHub
 * Enterprise shape, so Octokit with `baseUrl` talks to it unchanged) and Gitea REST under
 * `/api/v1`, over one scriptable state — Actions workflow runs (answered to Gitea as combined
 * commit statuses), pull requests, releases — plus rate-limit and failure scripting, latency, a
 * request log, repository creation (`/user/repos`, `/orgs/:org/repos`), and git smart HTTP of real bare repositories (`git http-backend`) behind the token.
 *
 *   const forge = await startFakeForge();
 *   forge.addRun({ owner: 'acme', repo: 'shop', workflow: 'ci.yml', branch: 'main', headSha, conclusion: 'failure' });
 *   // project: { git_provider: 'github', forge_api_url: forge.githubApiUrl, git_token: forge.token, ... }
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveGitRequest } from './git-http.js';
import { handleApiRequest } from './router.js';
import {
  type AddRunInput,
  FakeForgeState,
  type FakePull,
  type FakeRelease,
  type FakeRepository,
  type FakeRun,
  type LoggedRequest,
  type RunConclusion,
  type RunStatus,
} from './state.js';

export { FAKE_FORGE_USER } from './repos.js';
export type {
  AddRunInput,
  FakePull,
  FakeRelease,
  FakeRepository,
  FakeRun,
  LoggedRequest,
  RunConclusion,
  RunStatus,
};

export interface FailNextInput {
  /** Only requests whose path (e.g. `/api/v3/repos/acme/shop/actions/...`) matches; default every API request. */
  pathPattern?: RegExp;
  /**
   * 500/502/503 server errors, 404, 429 (with `Retry-After` when `retryAfterSeconds` is given), or
   * 403 — GitHub's primary rate limit: `x-ratelimit-remaining: 0` and `x-ratelimit-reset` in `retryAfterSeconds` (default 1).
   */
  status: 500 | 502 | 503 | 429 | 404 | 403;
  /** How many matching requests fail (default 1). */
  times?: number;
  retryAfterSeconds?: number;
}

export interface FakeForge {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `url + '/api/v3'`: a project's forge_api_url for provider github. */
  readonly githubApiUrl: string;
  /** `url + '/api/v1'`: a project's forge_api_url for provider gitea. */
  readonly giteaApiUrl: string;
  /** The only token the fake accepts. */
  readonly token: string;
  /** Delay before every API answer; settable at any time. */
  latencyMs: number;
  /** Every API request seen (git smart-HTTP requests are not), oldest first. */
  readonly requests: LoggedRequest[];
  /** Adds a workflow run; the newest added is the newest. */
  addRun(input: AddRunInput): FakeRun;
  updateRun(runId: number, change: { status?: RunStatus; conclusion?: RunConclusion | null }): FakeRun;
  failNext(input: FailNextInput): void;
  /** Drops every scripted failure not yet used up. */
  clearFailures(): void;
  resetRequests(): void;
  /** Releases created through the API (their tags also land in a served repository). */
  releases(owner: string, repo: string): FakeRelease[];
  /** Pull requests opened through the API; set `mergeable = false` on one to make its merge refused. */
  pulls(owner: string, repo: string): FakePull[];
  /** Serves a bare repository over git smart HTTP at `gitUrl(owner, repo)`, behind the token. */
  serveGit(owner: string, repo: string, bareRepoPath: string): void;
  gitUrl(owner: string, repo: string): string;
  /** Repositories created on the fake (through the API or `createRepository`), by owner and name. */
  repository(owner: string, name: string): FakeRepository | undefined;
  /** Creates a served repository as if someone had made it on the forge (a README commit on main). */
  createRepository(owner: string, name: string): FakeRepository;
  close(): Promise<void>;
}

export async function startFakeForge(
  options: { latencyMs?: number; token?: string } = {},
): Promise<FakeForge> {
  const token = options.token ?? 'fake-forge-token';
  let latencyMs = options.latencyMs ?? 0;
  const sleepers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
    });

  const state = new FakeForgeState();
  let url = '';
  const server = createServer((req, res) => {
    if (serveGitRequest(state, token, req, res)) return;
    handleApiRequest({ state, token, webUrl: url, latencyMs: () => latencyMs, sleep }, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    githubApiUrl: `${url}/api/v3`,
    giteaApiUrl: `${url}/api/v1`,
    token,
    get latencyMs() {
      return latencyMs;
    },
    set latencyMs(value: number) {
      latencyMs = value;
    },
    get requests() {
      return state.requests;
    },
    addRun: (input) => state.addRun(input),
    updateRun: (runId, change) => state.updateRun(runId, change),
    failNext(input) {
      state.failures.push({
        status: input.status,
        times: input.times ?? 1,
        ...(input.pathPattern ? { pathPattern: input.pathPattern } : {}),
        ...(input.retryAfterSeconds !== undefined ? { retryAfterSeconds: input.retryAfterSeconds } : {}),
      });
    },
    clearFailures() {
      state.failures.length = 0;
    },
    resetRequests() {
      state.requests.length = 0;
    },
    releases: (owner, repo) => state.releases(owner, repo),
    pulls: (owner, repo) => state.pulls(owner, repo),
    serveGit: (owner, repo, bareRepoPath) => state.serve(owner, repo, bareRepoPath),
    gitUrl: (owner, repo) => `${url}/git/${owner}/${repo}.git`,
    repository: (owner, name) => state.repository(owner, name),
    createRepository(owner, name) {
      const made = state.createRepository(owner, name, { autoInit: true });
      if (!made) throw new Error(`${owner}/${name} exists on the fake forge already`);
      return made;
    },
    async close() {
      for (const wake of [...sleepers]) wake();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      state.cleanup();
    },
  };
}
