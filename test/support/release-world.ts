/**
 * The release manager's world for the app-level suites: a bare repository (the service's own,
 * project `gaffer`) with the ladder dev → staging → prod and release 0.1.0 on prod (tagged
 * v0.1.0), served by the fake forge over git smart HTTP, which also answers CI and releases; the
 * project pointing at it; and small HTTP helpers for the release routes.
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Config } from '../../src/config.js';
import { GitRunner, gitText, openRepo } from '../../src/platform/git/index.js';
import { commitToRemote, seedBareRemote, tempDirs } from '../../src/platform/git/test-support.js';
import type { TestApp } from './app.js';
import type { FakeForge } from './fake-forge/index.js';

export const OWNER = 'acme';
export const REPO = 'gaffer';
export const WORKFLOW = 'ci.yml';

/** Release manager settings of the suites: on, a floor of 3 commits, CI polled every second. */
export const RELEASE_CONFIG: Partial<Config> = {
  releaseManagerEnabled: true,
  releaseMinCommits: 3,
  releaseCiPollSeconds: 1,
  releaseCiTimeoutSeconds: 120,
  releaseProject: 'gaffer',
  releaseManagerIntervalSeconds: 86_400,
  releaseGitName: 'Gaffer Release Manager',
  releaseGitEmail: 'release-manager@gaffer.localhost',
};

export const pkg = (version: string) => `{\n  "name": "gaffer",\n  "version": "${version}"\n}\n`;
export const CHANGELOG_010 =
  '# Changelog\n\nAll notable changes to Gaffer.\n\n## [Unreleased]\n\n## [0.1.0] - 2026-01-01\n\n### Added\n\n- The first release.\n';

export interface ReleaseRepo {
  bare: string;
  runner: GitRunner;
  /** Runs git on the bare remote. */
  git(args: string[]): Promise<string>;
  /** Pushes a commit to `branch` of the remote. */
  commit(branch: string, files: Record<string, string>, message: string): Promise<string>;
  tip(branch: string): Promise<string>;
  /** Every ref of the remote with its sha: equal before and after means the remote is unchanged. */
  refs(): Promise<string>;
  cleanup(): void;
}

export async function seedReleaseRepo(): Promise<ReleaseRepo> {
  const dirs = tempDirs('gaffer-release-world-');
  const runner = new GitRunner({ home: join(dirs.make(), 'home') });
  const bare = await seedBareRemote(
    runner,
    join(dirs.make(), 'gaffer.git'),
    [
      { message: 'feat: first', files: { 'package.json': pkg('0.0.1'), 'README.md': '# Gaffer\n' } },
      {
        message: 'chore(release): 0.1.0',
        files: {
          'package.json': pkg('0.1.0'),
          'src/version.ts': "export const VERSION = '0.1.0';\n",
          'CHANGELOG.md': CHANGELOG_010,
        },
      },
    ],
    'prod',
  );
  const git = (args: string[]) => gitText(openRepo(runner, bare), args);
  await git(['tag', 'v0.1.0', 'prod']);
  await git(['branch', 'staging', 'prod']);
  await git(['branch', 'dev', 'prod']);
  await git(['symbolic-ref', 'HEAD', 'refs/heads/dev']);
  return {
    bare,
    runner,
    git,
    async commit(branch, files, message) {
      await commitToRemote(runner, bare, branch, files, message);
      return git(['rev-parse', branch]);
    },
    tip: (branch) => git(['rev-parse', branch]),
    refs: () => git(['for-each-ref', '--format=%(refname) %(objectname)']),
    cleanup: () => dirs.cleanup(),
  };
}

/** The `POST /api/projects` body of the `gaffer` project on the fake forge, with the ladder. */
export function gafferProject(forge: FakeForge, ladder = true): Record<string, unknown> {
  return {
    slug: 'gaffer',
    name: 'Gaffer',
    git_url: forge.gitUrl(OWNER, REPO),
    git_provider: 'github',
    forge_api_url: forge.githubApiUrl,
    git_token: forge.token,
    default_branch: ladder ? 'dev' : 'prod',
    ...(ladder
      ? {
          environments: [
            { name: 'dev', branch: 'dev' },
            { name: 'staging', branch: 'staging' },
            { name: 'prod', branch: 'prod' },
          ],
        }
      : {}),
  };
}

/** Adds a completed (or running) CI run of the release workflow for `sha`. */
export function ciRun(
  forge: FakeForge,
  sha: string,
  conclusion: 'success' | 'failure' | null,
  options: { branch?: string; attempt?: number } = {},
) {
  return forge.addRun({
    owner: OWNER,
    repo: REPO,
    workflow: WORKFLOW,
    branch: options.branch ?? 'dev',
    headSha: sha,
    conclusion,
    ...(options.attempt ? { attempt: options.attempt } : {}),
    ...(conclusion === null ? { status: 'in_progress' as const } : {}),
    name: 'CI',
  });
}

/** A JSON answer, read loosely by assertions. */
// biome-ignore lint/suspicious/noExplicitAny: test assertions walk JSON answers freely
export type Json = any;

/** Anything that answers HTTP like an injected Fastify app or a real server. */
export interface ReleaseClient {
  request(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Json }>;
}

export interface ProposalBody {
  task_id: string;
  title: string;
  status: string;
  version: string;
  tag: string;
  bump: string;
  bump_rule: string;
  execute_status: string | null;
  execute_detail: string | null;
  execute_in_flight: boolean;
  execute_step: string | null;
  commit_sha: string | null;
  release_url: string | null;
  attempts: number;
  report: Record<string, Json>;
}

export const releaseRoutes = (client: ReleaseClient) => ({
  proposal: () => client.request('GET', '/api/release/proposal'),
  approve: () => client.request('POST', '/api/release/proposal/approve'),
  reject: (required_changes: string) =>
    client.request('POST', '/api/release/proposal/reject', { required_changes }),
  runNow: () => client.request('POST', '/api/board-programs/release_manager/run-now'),
});

/** Polls the GET until `done` says so (or fails with the last answer). */
export async function waitForProposal(
  client: ReleaseClient,
  done: (answer: { status: number; body: Json }) => boolean,
  timeoutMs = 30_000,
): Promise<{ status: number; body: Json }> {
  const deadline = Date.now() + timeoutMs;
  let last = await client.request('GET', '/api/release/proposal');
  while (!done(last) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    last = await client.request('GET', '/api/release/proposal');
  }
  expect(done(last), `last answer: ${last.status} ${JSON.stringify(last.body)}`).toBe(true);
  return last;
}

/** A client of an in-process app (Fastify inject) as `headers` says. */
export function injectClient(app: TestApp['app'], headers: Record<string, string>): ReleaseClient {
  return {
    async request(method, url, body) {
      const response = await app.inject({
        method,
        url,
        headers,
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
      });
      return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : null };
    },
  };
}
