/**
 * The fake forge serves real bare repositories over git smart HTTP: a clone and a push with the
 * forge token work (Basic auth as Gaffer's git layer sends it), the same without the token or with
 * a wrong one is refused, a release created through the API lands as a tag in the served
 * repository, and git traffic stays out of the API request log.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commitStaged, stage } from '../src/platform/git/commit.js';
import { GitError } from '../src/platform/git/errors.js';
import { lsRemote, push } from '../src/platform/git/remote.js';
import { cloneRepo, gitText, openRepo, resolveRef } from '../src/platform/git/repo.js';
import {
  recordingRunner,
  seedBareRemote,
  TEST_IDENTITY,
  tempDirs,
  writeFiles,
} from '../src/platform/git/test-support.js';
import { type FakeForge, startFakeForge } from './support/fake-forge/index.js';

const dirs = tempDirs('gaffer-fake-forge-');
let forge: FakeForge | undefined;
afterEach(async () => {
  await forge?.close();
  forge = undefined;
  dirs.cleanup();
});

async function servedRepo() {
  const root = dirs.make();
  const { runner } = recordingRunner(join(root, 'home'));
  const bare = await seedBareRemote(runner, join(root, 'shop.git'));
  forge = await startFakeForge();
  forge.serveGit('acme', 'shop', bare);
  return { root, runner, bare, forge, url: forge.gitUrl('acme', 'shop') };
}

describe('git smart HTTP of the fake forge', () => {
  it('clones and pushes with the token', async () => {
    const { root, runner, forge, url } = await servedRepo();
    expect(url).toBe(`${forge.url}/git/acme/shop.git`);
    const auth = { token: forge.token, url };
    const repo = await cloneRepo(runner, { url, dir: join(root, 'clone') }, { auth });
    writeFiles(repo.dir, { 'feature.txt': 'new\n' });
    await stage(repo);
    const sha = await commitStaged(repo, { message: 'Feature', author: TEST_IDENTITY });
    await push(repo, { refspecs: ['HEAD:refs/heads/feature/x'] });
    const refs = await lsRemote(repo, { heads: true });
    expect(refs.find((ref) => ref.ref === 'refs/heads/feature/x')?.sha).toBe(sha);
    expect(forge.requests).toEqual([]);
  });

  it('refuses a clone without the token or with a wrong one', async () => {
    const { root, runner, forge, url } = await servedRepo();
    await expect(cloneRepo(runner, { url, dir: join(root, 'anonymous') })).rejects.toBeInstanceOf(GitError);
    await expect(
      cloneRepo(runner, { url, dir: join(root, 'wrong') }, { auth: { token: 'not-the-token', url } }),
    ).rejects.toBeInstanceOf(GitError);
    const unknown = forge.gitUrl('acme', 'nothing');
    await expect(
      cloneRepo(
        runner,
        { url: unknown, dir: join(root, 'unknown') },
        { auth: { token: forge.token, url: unknown } },
      ),
    ).rejects.toBeInstanceOf(GitError);
  });

  it('merges a pull request into the served repository, and refuses one without commits or a branch', async () => {
    const { root, runner, forge, url, bare } = await servedRepo();
    const repo = await cloneRepo(
      runner,
      { url, dir: join(root, 'clone') },
      { auth: { token: forge.token, url } },
    );
    writeFiles(repo.dir, { 'feature.txt': 'new\n' });
    await stage(repo);
    const feature = await commitStaged(repo, { message: 'Feature', author: TEST_IDENTITY });
    await push(repo, { refspecs: ['HEAD:refs/heads/feature/x', 'HEAD~1:refs/heads/empty'] });
    const api = (method: string, path: string, body: unknown) =>
      fetch(`${forge.githubApiUrl}/repos/acme/shop${path}`, {
        method,
        headers: { authorization: `token ${forge.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const refused = await api('POST', '/pulls', { head: 'empty', base: 'main', title: 'Nothing' });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      errors: [{ message: 'No commits between main and empty' }],
    });
    expect((await api('POST', '/pulls', { head: 'gone', base: 'main', title: 'Gone' })).status).toBe(422);
    const opened = await api('POST', '/pulls', { head: 'feature/x', base: 'main', title: 'Feature' });
    expect(await opened.json()).toMatchObject({ number: 1, head: { ref: 'feature/x', sha: feature } });

    const merged = await api('PUT', '/pulls/1/merge', {
      merge_method: 'merge',
      commit_title: 'Merge feature',
    });
    const { sha } = (await merged.json()) as { sha: string };
    const main = openRepo(runner, bare);
    expect(await resolveRef(main, 'refs/heads/main')).toBe(sha);
    expect(await gitText(main, ['log', '-1', '--format=%P%n%s', 'main'])).toContain(
      `${feature}\nMerge feature`,
    );
  });

  it('puts the tag of a release created through the API into the served repository', async () => {
    const { root, runner, forge, url } = await servedRepo();
    const auth = { token: forge.token, url };
    const repo = await cloneRepo(runner, { url, dir: join(root, 'clone') }, { auth });
    const head = (await lsRemote(repo, { heads: true })).find((ref) => ref.ref === 'refs/heads/main')!.sha;
    const created = await fetch(`${forge.githubApiUrl}/repos/acme/shop/releases`, {
      method: 'POST',
      headers: { authorization: `Bearer ${forge.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tag_name: 'v1.0.0', target_commitish: 'main', name: 'v1.0.0', body: 'notes' }),
    });
    expect(created.status).toBe(201);
    const tags = await lsRemote(repo, { tags: true });
    expect(tags.find((ref) => ref.ref === 'refs/tags/v1.0.0')?.sha).toBe(head);
    expect(forge.releases('acme', 'shop')).toMatchObject([{ tag_name: 'v1.0.0', target_commitish: 'main' }]);
  });
});
