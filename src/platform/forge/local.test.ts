/**
 * The local forge on a real database and a bare repository on disk: pull requests recorded,
 * numbered and reused; squash and merge-commit merges landing on the remote's base; conflicts and
 * double merges refused; releases as annotated tags on the remote; no CI.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/stores.js';
import { systemClock } from '../clock.js';
import type { Database } from '../db/client.js';
import {
  cloneRepo,
  diffFiles,
  GitRunner,
  logBetween,
  lsRemote,
  openRepo,
  resolveRef,
  showFileAt,
} from '../git/index.js';
import { commitToRemote, seedBareRemote, tempDirs } from '../git/test-support.js';
import { LocalForge } from './local.js';
import { ForgeError } from './types.js';

let database: Database;
const dirs = tempDirs();
let runner: GitRunner;
let remote: string;
let forge: LocalForge;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  const root = dirs.make();
  runner = new GitRunner({ home: join(root, 'home') });
  remote = await seedBareRemote(runner, join(root, 'remote.git'), [
    { message: 'Initial commit', files: { 'README.md': '# Seed\n', 'app.txt': 'line 1\n' } },
  ]);
  forge = new LocalForge({
    db: database.db,
    clock: systemClock,
    runner,
    projectId: randomUUID(),
    remoteUrl: remote,
    workDir: join(root, 'forge-clone'),
  });
});
afterEach(() => dirs.cleanup());

const remoteRepo = () => openRepo(runner, remote);

describe('pull requests', () => {
  it('opens numbered pull requests and answers the open one again for the same head and base', async () => {
    await commitToRemote(runner, remote, 'feature/a', { 'a.txt': 'a\n' }, 'A', 'main');
    await commitToRemote(runner, remote, 'feature/b', { 'b.txt': 'b\n' }, 'B', 'main');
    const first = await forge.openPullRequest({
      head: 'feature/a',
      base: 'main',
      title: 'Add a',
      body: 'Body a',
    });
    const second = await forge.openPullRequest({ head: 'feature/b', base: 'main', title: 'Add b', body: '' });
    const again = await forge.openPullRequest({ head: 'feature/a', base: 'main', title: 'Other', body: '' });
    expect([first.number, second.number, again.number]).toEqual([1, 2, 1]);
    expect(first).toMatchObject({
      state: 'open',
      head: 'feature/a',
      base: 'main',
      title: 'Add a',
      mergeSha: null,
    });
    expect(first.url).toMatch(/\/pulls\/1$/);
    expect(await forge.getPullRequest(2)).toMatchObject({ title: 'Add b' });
    expect(await forge.getPullRequest(99)).toBeNull();
    expect((await forge.listOpenPullRequests('feature/a')).map((p) => p.number)).toEqual([1]);
  });

  it('refuses a head that is not on the remote or has nothing to merge', async () => {
    const missing = await forge
      .openPullRequest({ head: 'feature/missing', base: 'main', title: 'x', body: '' })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ForgeError);
    expect(missing).toMatchObject({ code: 'invalid_input' });
    await expect(
      forge.openPullRequest({ head: 'main', base: 'main', title: 'x', body: '' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await runner.run(['branch', 'same', 'main'], { cwd: remote });
    await expect(
      forge.openPullRequest({ head: 'same', base: 'main', title: 'x', body: '' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: 'no commits between main and same',
    });
    await expect(
      forge.openPullRequest({ head: '--upload-pack=evil', base: 'main', title: 'x', body: '' }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('squash-merges a pull request onto the base of the bare remote', async () => {
    await commitToRemote(runner, remote, 'feature/a', { 'a.txt': 'a\n' }, 'A one', 'main');
    await commitToRemote(runner, remote, 'feature/a', { 'a2.txt': 'a2\n' }, 'A two');
    const before = await resolveRef(remoteRepo(), 'main');
    const pull = await forge.openPullRequest({
      head: 'feature/a',
      base: 'main',
      title: '[abcd1234] Add a',
      body: 'Why.',
    });
    const { sha } = await forge.mergePullRequest(pull.number, { method: 'squash' });

    const after = openRepo(runner, remote);
    expect(await resolveRef(after, 'main')).toBe(sha);
    const landed = await logBetween(after, { base: before!, head: 'main' });
    expect(landed).toHaveLength(1);
    expect(landed[0]).toMatchObject({ subject: '[abcd1234] Add a (#1)', body: 'Why.', authorName: 'Gaffer' });
    expect((await diffFiles(after, { base: before!, head: 'main' })).map((f) => f.path)).toEqual([
      'a.txt',
      'a2.txt',
    ]);
    expect(await forge.getPullRequest(pull.number)).toMatchObject({ state: 'merged', mergeSha: sha });
    expect(await forge.listOpenPullRequests('feature/a')).toEqual([]);

    const twice = await forge.mergePullRequest(pull.number, { method: 'squash' }).catch((e: unknown) => e);
    expect(twice).toMatchObject({ code: 'not_open', details: { mergeSha: sha } });
    await expect(forge.mergePullRequest(42, { method: 'squash' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('makes a merge commit with the merge method, and merges onto a base that moved', async () => {
    await commitToRemote(runner, remote, 'feature/a', { 'a.txt': 'a\n' }, 'A', 'main');
    const pull = await forge.openPullRequest({ head: 'feature/a', base: 'main', title: 'Add a', body: '' });
    await commitToRemote(runner, remote, 'main', { 'other.txt': 'o\n' }, 'Someone else lands first');
    const { sha } = await forge.mergePullRequest(pull.number, { method: 'merge', commitTitle: 'Merge a' });
    const parents = await runner.text(['log', '-1', '--format=%P%x1f%s', sha], { cwd: remote });
    expect(parents.split('\x1f')[0]!.split(' ')).toHaveLength(2);
    expect(parents.split('\x1f')[1]).toBe('Merge a');
    expect(await showFileAt(remoteRepo(), 'main', 'other.txt')).toMatchObject({ kind: 'text' });
    expect(await showFileAt(remoteRepo(), 'main', 'a.txt')).toMatchObject({ kind: 'text' });
  });

  it('refuses a conflicting merge and leaves the base as it was', async () => {
    await commitToRemote(runner, remote, 'feature/a', { 'app.txt': 'from a\n' }, 'A', 'main');
    const pull = await forge.openPullRequest({
      head: 'feature/a',
      base: 'main',
      title: 'Change app',
      body: '',
    });
    await commitToRemote(runner, remote, 'main', { 'app.txt': 'from main\n' }, 'Main changes app');
    const before = await resolveRef(remoteRepo(), 'main');
    const error = await forge.mergePullRequest(pull.number, { method: 'squash' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'merge_conflict', details: { files: ['app.txt'] } });
    expect(await resolveRef(remoteRepo(), 'main')).toBe(before);
    expect(await forge.getPullRequest(pull.number)).toMatchObject({ state: 'open' });
  });
});

describe('CI and releases', () => {
  it('has no CI', async () => {
    expect(await forge.branchCiStatus('main', 'ci.yml')).toEqual({
      conclusion: 'unknown',
      runUrl: null,
      runName: null,
      headSha: null,
    });
    expect((await forge.commitCiStatus('abc')).conclusion).toBe('unknown');
  });

  it('creates a release as an annotated tag on the remote and reads it back', async () => {
    const head = await resolveRef(remoteRepo(), 'main');
    expect(await forge.getRelease('v1.0.0')).toBeNull();
    const release = await forge.createRelease({
      tag: 'v1.0.0',
      target: 'main',
      name: 'v1.0.0',
      body: '- first',
    });
    expect(release).toMatchObject({ tag: 'v1.0.0', name: 'v1.0.0', body: '- first', sha: head });
    const tags = await lsRemote(remoteRepo(), { remote: remote, tags: true });
    expect(tags.map((t) => t.ref)).toContain('refs/tags/v1.0.0');

    const other = new LocalForge({
      db: database.db,
      clock: systemClock,
      runner,
      projectId: randomUUID(),
      remoteUrl: remote,
      workDir: join(dirs.make(), 'fresh'),
    });
    expect(await other.getRelease('v1.0.0')).toMatchObject({ tag: 'v1.0.0', body: '- first', sha: head });
    await expect(
      other.createRelease({ tag: 'v1.0.0', target: 'main', name: 'again', body: '' }),
    ).rejects.toMatchObject({ code: 'already_exists' });
    const fromClone = await cloneRepo(runner, { url: remote, dir: join(dirs.make(), 'c') });
    expect(await resolveRef(fromClone, 'v1.0.0')).toBe(head);
  });
});
