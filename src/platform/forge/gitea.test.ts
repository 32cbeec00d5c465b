/**
 * The Gitea/Forgejo provider against the fake forge's Gitea REST: combined commit status mapped
 * onto CI conclusions, pull requests (open, duplicate, list, merge with `Do`), releases and tags,
 * retries, and the token rules.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeForge, startFakeForge } from '../../../test/support/fake-forge/index.js';
import { GiteaForge } from './gitea.js';
import { ForgeError } from './types.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const repo = { owner: 'acme', repo: 'shop' };
let fake: FakeForge;
let forge: GiteaForge;

beforeEach(async () => {
  fake = await startFakeForge();
  forge = gitea();
});
afterEach(() => fake.close());

function gitea(token: () => Promise<string | null> = async () => fake.token) {
  return new GiteaForge({ ...repo, apiUrl: fake.giteaApiUrl, token, retry: { baseDelayMs: 5 } });
}

const run = (
  headSha: string,
  conclusion: 'success' | 'failure' | 'startup_failure' | null,
  more: Record<string, unknown> = {},
) => fake.addRun({ ...repo, workflow: 'ci.yml', branch: 'main', headSha, conclusion, ...more });

describe('CI from the combined commit status', () => {
  it('maps success, failure, error and pending, for a branch and a commit', async () => {
    const green = run(A, 'success');
    expect(await forge.branchCiStatus('main', 'ci.yml')).toEqual({
      conclusion: 'success',
      runUrl: `${fake.url}/acme/shop/actions/runs/${green.id}`,
      runName: 'CI / build (push)',
      headSha: A,
    });
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: '/api/v1/repos/acme/shop/commits/main/status',
      authorized: true,
    });
    const red = fake.addRun({
      ...repo,
      workflow: 'lint.yml',
      branch: 'main',
      headSha: A,
      conclusion: 'failure',
      name: 'Lint',
    });
    expect(await forge.commitCiStatus(A)).toMatchObject({
      conclusion: 'failure',
      runUrl: `${fake.url}/acme/shop/actions/runs/${red.id}`,
      runName: 'Lint / build (push)',
    });
    run(B, 'startup_failure');
    expect(await forge.commitCiStatus(B, 'ci.yml')).toMatchObject({ conclusion: 'failure', headSha: B });
    run(B, null, { attempt: 2, status: 'in_progress' });
    expect((await forge.branchCiStatus('main', 'ci.yml')).conclusion).toBe('pending');
  });

  it('knows nothing of a commit without statuses or a ref the forge does not know', async () => {
    expect(await forge.commitCiStatus(A)).toMatchObject({ conclusion: 'unknown', runUrl: null, headSha: A });
    expect(await forge.branchCiStatus('nowhere', 'ci.yml')).toEqual({
      conclusion: 'unknown',
      runUrl: null,
      runName: null,
      headSha: null,
    });
  });

  it('retries a 503 and answers once', async () => {
    run(A, 'failure');
    fake.failNext({ status: 503, pathPattern: /\/status$/ });
    expect((await forge.branchCiStatus('main', 'ci.yml')).conclusion).toBe('failure');
    expect(fake.requests).toHaveLength(2);
  });

  it('raises rate_limited after repeated 429s', async () => {
    fake.failNext({ status: 429, times: 3, retryAfterSeconds: 0 });
    await expect(forge.commitCiStatus(A)).rejects.toMatchObject({
      code: 'rate_limited',
      details: { retryAfterSeconds: 1 },
    });
  });
});

describe('abort', () => {
  it('stops a slow request as soon as the signal aborts', async () => {
    fake.latencyMs = 5000;
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled')), 50);
    const started = Date.now();
    await expect(forge.commitCiStatus(A, undefined, controller.signal)).rejects.toThrow('cancelled');
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('the token', () => {
  it('is sent as `token …`; none is unauthorized without a request, a wrong one is refused', async () => {
    await expect(gitea(async () => null).getPullRequest(1)).rejects.toMatchObject({ code: 'unauthorized' });
    expect(fake.requests).toHaveLength(0);
    await expect(gitea(async () => 'wrong').getPullRequest(1)).rejects.toMatchObject({
      code: 'unauthorized',
      details: { status: 401 },
    });
  });
});

describe('pull requests', () => {
  it('opens, answers the open one on a duplicate, lists by head and merges with Do', async () => {
    const pull = await forge.openPullRequest({
      head: 'feature/x',
      base: 'main',
      title: 'Add x',
      body: 'Why',
    });
    expect(pull).toEqual({
      number: 1,
      url: `${fake.url}/acme/shop/pulls/1`,
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
    await forge.openPullRequest({ head: 'feature/y', base: 'main', title: 'Y', body: '' });
    expect((await forge.listOpenPullRequests('feature/x')).map((p) => p.number)).toEqual([1]);

    const { sha } = await forge.mergePullRequest(1, { method: 'squash' });
    expect(fake.pulls('acme', 'shop')[0]).toMatchObject({
      merged: true,
      merge_method: 'squash',
      merge_commit_sha: sha,
    });
    expect(await forge.getPullRequest(1)).toMatchObject({ state: 'merged', mergeSha: sha });
    await expect(forge.mergePullRequest(1, { method: 'merge' })).rejects.toMatchObject({
      code: 'not_open',
      details: { mergeSha: sha },
    });
    fake.pulls('acme', 'shop')[1]!.mergeable = false;
    await expect(forge.mergePullRequest(2, { method: 'merge' })).rejects.toMatchObject({
      code: 'merge_conflict',
    });
    expect(await forge.getPullRequest(9)).toBeNull();
  });
});

describe('releases', () => {
  it('reads none, creates one, reads it back with its commit, refuses the same tag twice', async () => {
    expect(await forge.getRelease('v2.0.0')).toBeNull();
    run(A, 'success');
    const release = await forge.createRelease({ tag: 'v2.0.0', target: 'main', name: 'Two', body: 'Notes' });
    expect(release).toEqual({
      tag: 'v2.0.0',
      name: 'Two',
      body: 'Notes',
      url: `${fake.url}/acme/shop/releases/tag/v2.0.0`,
      sha: A,
    });
    expect(await forge.getRelease('v2.0.0')).toEqual(release);
    const again = await forge
      .createRelease({ tag: 'v2.0.0', target: 'main', name: '', body: '' })
      .catch((e) => e);
    expect(again).toBeInstanceOf(ForgeError);
    expect(again.code).toBe('already_exists');
  });
});
