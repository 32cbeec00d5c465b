/**
 * The GitHub provider through real Octokit against the fake forge's GitHub REST: CI run selection
 * for a branch and a commit, retries on 5xx and rate limits, abort, the token rules, pull requests
 * and releases.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeForge, startFakeForge } from '../../../test/support/fake-forge/index.js';
import { GitHubForge } from './github.js';
import { ForgeError } from './types.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const repo = { owner: 'acme', repo: 'shop' };
let fake: FakeForge;
let forge: GitHubForge;

beforeEach(async () => {
  fake = await startFakeForge();
  forge = github();
});
afterEach(() => fake.close());

function github(token: () => Promise<string | null> = async () => fake.token, baseDelayMs = 5) {
  return new GitHubForge({ ...repo, apiUrl: fake.githubApiUrl, token, retry: { baseDelayMs } });
}

const ciRun = (
  headSha: string,
  conclusion: 'success' | 'failure' | null,
  more: Record<string, unknown> = {},
) => fake.addRun({ ...repo, workflow: 'ci.yml', branch: 'main', headSha, conclusion, ...more });

describe('branch CI', () => {
  it('asks for the last 20 completed runs of the workflow on the branch, with the API version', async () => {
    const run = ciRun(A, 'failure');
    expect(await forge.branchCiStatus('main', 'ci.yml')).toEqual({
      conclusion: 'failure',
      runUrl: `${fake.url}/acme/shop/actions/runs/${run.id}`,
      runName: 'CI',
      headSha: A,
    });
    expect(fake.requests).toMatchObject([
      {
        method: 'GET',
        path: '/api/v3/repos/acme/shop/actions/workflows/ci.yml/runs',
        query: { branch: 'main', status: 'completed', per_page: '20' },
        headers: { 'x-github-api-version': '2022-11-28' },
        authorized: true,
      },
    ]);
  });

  it('lets a green re-run supersede a red first attempt', async () => {
    ciRun(B, 'failure');
    const rerun = ciRun(B, 'success', { attempt: 2 });
    expect(await forge.branchCiStatus('main', 'ci.yml')).toMatchObject({
      conclusion: 'success',
      runUrl: `${fake.url}/acme/shop/actions/runs/${rerun.id}`,
    });
  });

  it('never lets a green run on an older commit mask a red head', async () => {
    ciRun(A, 'success', { attempt: 2 });
    ciRun(B, 'failure');
    expect(await forge.branchCiStatus('main', 'ci.yml')).toMatchObject({ conclusion: 'failure', headSha: B });
  });

  it('reads only the named workflow, only the branch, and only completed runs', async () => {
    ciRun(A, 'success');
    fake.addRun({ ...repo, workflow: 'nightly.yml', branch: 'main', headSha: B, conclusion: 'failure' });
    ciRun(B, 'failure', { branch: 'feature/x' });
    ciRun(B, null, { status: 'in_progress' });
    expect(await forge.branchCiStatus('main', 'ci.yml')).toMatchObject({ conclusion: 'success', headSha: A });
    expect(await forge.branchCiStatus('main', 'nightly.yml')).toMatchObject({ conclusion: 'failure' });
  });

  it('knows nothing of a workflow without runs', async () => {
    expect(await forge.branchCiStatus('main', 'ci.yml')).toEqual({
      conclusion: 'unknown',
      runUrl: null,
      runName: null,
      headSha: null,
    });
    ciRun(A, null, { status: 'queued' });
    expect((await forge.branchCiStatus('main', 'ci.yml')).conclusion).toBe('unknown');
  });
});

describe('commit CI', () => {
  it('is pending while a run of the commit is in progress, then its newest attempt', async () => {
    ciRun(A, 'failure');
    const rerun = ciRun(A, null, { attempt: 2, status: 'in_progress' });
    expect(await forge.commitCiStatus(A, 'ci.yml')).toMatchObject({ conclusion: 'pending', headSha: A });
    fake.updateRun(rerun.id, { conclusion: 'success' });
    expect(await forge.commitCiStatus(A, 'ci.yml')).toMatchObject({ conclusion: 'success', headSha: A });
    expect(fake.requests.at(-1)).toMatchObject({
      path: '/api/v3/repos/acme/shop/actions/workflows/ci.yml/runs',
      query: { head_sha: A },
    });
  });

  it('is scoped to the workflow when named, all workflows otherwise; unknown without runs', async () => {
    ciRun(A, 'success');
    fake.addRun({
      ...repo,
      workflow: 'lint.yml',
      branch: 'main',
      headSha: A,
      conclusion: 'failure',
      name: 'Lint',
    });
    expect((await forge.commitCiStatus(A, 'ci.yml')).conclusion).toBe('success');
    expect(await forge.commitCiStatus(A)).toMatchObject({ conclusion: 'failure', runName: 'Lint' });
    expect(fake.requests.at(-1)).toMatchObject({
      path: '/api/v3/repos/acme/shop/actions/runs',
      query: { head_sha: A },
    });
    expect(await forge.commitCiStatus(B)).toMatchObject({ conclusion: 'unknown', headSha: B });
    expect(await forge.commitCiStatus(B, 'never.yml')).toMatchObject({ conclusion: 'unknown' });
  });
});

describe('retries, rate limits and abort', () => {
  it('answers once after a 500 followed by a 200', async () => {
    ciRun(A, 'failure');
    fake.failNext({ status: 500 });
    expect((await forge.branchCiStatus('main', 'ci.yml')).conclusion).toBe('failure');
    expect(fake.requests).toHaveLength(2);
  });

  it('answers at once when the scripted failures are cleared', async () => {
    fake.failNext({ status: 500, times: 5 });
    fake.clearFailures();
    expect(await forge.getPullRequest(1)).toBeNull();
    expect(fake.requests).toHaveLength(1);
  });

  it('waits out a 429 with Retry-After, then answers', async () => {
    ciRun(A, 'success');
    fake.failNext({ status: 429, retryAfterSeconds: 1 });
    const started = Date.now();
    expect((await forge.branchCiStatus('main', 'ci.yml')).conclusion).toBe('success');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(fake.requests).toHaveLength(2);
  });

  it('raises rate_limited when the rate limit outlasts the attempts (GitHub 403 with no quota left)', async () => {
    fake.failNext({ status: 403, times: 3, retryAfterSeconds: 0 });
    const error = await forge.branchCiStatus('main', 'ci.yml').catch((e) => e);
    expect(error).toBeInstanceOf(ForgeError);
    expect(error).toMatchObject({ code: 'rate_limited', details: { status: 403 } });
    expect(error.details.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(fake.requests).toHaveLength(3);
  });

  it('raises unavailable when server errors outlast the attempts', async () => {
    fake.failNext({ status: 502, times: 5 });
    await expect(forge.getPullRequest(1)).rejects.toMatchObject({ code: 'unavailable' });
    expect(fake.requests).toHaveLength(3);
  });

  it('retries a forge that cannot be reached, then raises unavailable', async () => {
    const gone = await startFakeForge();
    await gone.close();
    const unreachable = new GitHubForge({
      ...repo,
      apiUrl: gone.githubApiUrl,
      token: async () => 't',
      retry: { baseDelayMs: 5 },
    });
    await expect(unreachable.branchCiStatus('main', 'ci.yml')).rejects.toMatchObject({
      code: 'unavailable',
      details: { status: null, attempts: 3 },
    });
  });

  it('stops at once when the signal aborts, during a request or a backoff', async () => {
    fake.latencyMs = 5000;
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled')), 50);
    const started = Date.now();
    await expect(forge.branchCiStatus('main', 'ci.yml', controller.signal)).rejects.toThrow('cancelled');
    fake.latencyMs = 0;
    fake.failNext({ status: 503 });
    const slow = github(async () => fake.token, 10_000);
    const second = new AbortController();
    setTimeout(() => second.abort(new Error('cancelled again')), 100);
    await expect(slow.getRelease('v1.0.0', second.signal)).rejects.toThrow('cancelled again');
    expect(Date.now() - started).toBeLessThan(3000);
  });
});

describe('the token', () => {
  it('is asked for at each call: none is unauthorized without a request, a wrong one is refused', async () => {
    let token: string | null = null;
    const flaky = github(async () => token);
    await expect(flaky.branchCiStatus('main', 'ci.yml')).rejects.toMatchObject({ code: 'unauthorized' });
    expect(fake.requests).toHaveLength(0);
    token = 'ghp_wrong';
    await expect(flaky.getRelease('v1')).rejects.toMatchObject({
      code: 'unauthorized',
      details: { status: 401 },
    });
    token = fake.token;
    expect(await flaky.getRelease('v1')).toBeNull();
  });
});

describe('pull requests', () => {
  it('opens one, answers the open one again, lists and merges it with the given method and title', async () => {
    const pull = await forge.openPullRequest({
      head: 'feature/x',
      base: 'main',
      title: 'Add x',
      body: 'Why',
    });
    expect(pull).toEqual({
      number: 1,
      url: `${fake.url}/acme/shop/pull/1`,
      state: 'open',
      head: 'feature/x',
      base: 'main',
      title: 'Add x',
      body: 'Why',
      mergeSha: null,
    });
    expect(
      await forge.openPullRequest({ head: 'feature/x', base: 'main', title: 'Again', body: '' }),
    ).toEqual(pull);
    expect(fake.pulls('acme', 'shop')).toHaveLength(1);
    expect(fake.requests.find((r) => r.method === 'GET' && r.path.endsWith('/pulls'))?.query).toMatchObject({
      state: 'open',
      head: 'acme:feature/x',
    });
    expect(await forge.listOpenPullRequests('feature/x')).toEqual([pull]);
    expect(await forge.listOpenPullRequests('other')).toEqual([]);

    const { sha } = await forge.mergePullRequest(1, { method: 'squash', commitTitle: 'feat: x' });
    expect(fake.pulls('acme', 'shop')[0]).toMatchObject({
      merged: true,
      merge_method: 'squash',
      merge_commit_sha: sha,
    });
    expect(await forge.getPullRequest(1)).toMatchObject({ state: 'merged', mergeSha: sha });
    await expect(forge.mergePullRequest(1, { method: 'squash' })).rejects.toMatchObject({
      code: 'not_open',
      details: { mergeSha: sha },
    });
    expect(await forge.listOpenPullRequests('feature/x')).toEqual([]);
  });

  it('reports unknown numbers, conflicts and refusals', async () => {
    expect(await forge.getPullRequest(42)).toBeNull();
    await expect(forge.mergePullRequest(42, { method: 'merge' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await forge.openPullRequest({ head: 'feature/y', base: 'main', title: 'Y', body: '' });
    fake.pulls('acme', 'shop')[0]!.mergeable = false;
    await expect(forge.mergePullRequest(1, { method: 'merge' })).rejects.toMatchObject({
      code: 'merge_conflict',
    });
    await expect(
      forge.openPullRequest({ head: 'main', base: 'main', title: 'Z', body: '' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
    });
  });
});

describe('releases', () => {
  it('reads none, creates one at the target commit, reads it back, and refuses the same tag twice', async () => {
    expect(await forge.getRelease('v1.0.0')).toBeNull();
    ciRun(A, 'success');
    const release = await forge.createRelease({
      tag: 'v1.0.0',
      target: 'main',
      name: 'v1.0.0',
      body: 'Notes',
    });
    expect(release).toEqual({
      tag: 'v1.0.0',
      name: 'v1.0.0',
      body: 'Notes',
      url: `${fake.url}/acme/shop/releases/tag/v1.0.0`,
      sha: A,
    });
    expect(fake.releases('acme', 'shop')).toMatchObject([
      { tag_name: 'v1.0.0', target_commitish: 'main', body: 'Notes' },
    ]);
    expect(await forge.getRelease('v1.0.0')).toEqual(release);
    const again = await forge
      .createRelease({ tag: 'v1.0.0', target: B, name: 'again', body: '' })
      .catch((e) => e);
    expect(again).toBeInstanceOf(ForgeError);
    expect(again).toMatchObject({ code: 'already_exists', details: { tag: 'v1.0.0' } });
    expect(await forge.createRelease({ tag: 'v1.1.0', target: B, name: '', body: '' })).toMatchObject({
      sha: B,
      name: 'v1.1.0',
    });
  });
});
