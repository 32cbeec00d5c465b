/** The git operations against real repositories: a bare remote on disk, clones and worktrees of it. */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitStaged, hasStagedChanges, stage, workingTreeStatus } from './commit.js';
import { listTree, showFileAt } from './content.js';
import { diffFiles, diffPatch, diffStat, logBetween, mergeBase } from './history.js';
import { mergeInto } from './merge.js';
import {
  createTag,
  deleteRemoteBranch,
  listTags,
  lsRemote,
  push,
  pushTag,
  readRemoteTag,
  remoteBranchSha,
} from './remote.js';
import {
  checkoutBranch,
  cloneRepo,
  createBranch,
  currentBranch,
  fetchRemote,
  type GitRepo,
  gitText,
  listBranches,
  resolveRef,
  revParse,
} from './repo.js';
import { GitRunner } from './runner.js';
import { commitToRemote, seedBareRemote, tempDirs, writeFiles } from './test-support.js';
import { addWorktree, listWorktrees, openWorktree, pruneWorktrees, removeWorktree } from './worktree.js';

const dirs = tempDirs();
let runner: GitRunner;
let remote: string;
let clone: GitRepo;
const dev = { name: 'be-dev-1', email: 'be-dev-1@agents.gaffer.local' };

beforeEach(async () => {
  const root = dirs.make();
  runner = new GitRunner({ home: join(root, 'home') });
  remote = await seedBareRemote(runner, join(root, 'remote.git'), [
    { message: 'Initial commit', files: { 'README.md': '# Seed\n', 'src/app.ts': 'export const a = 1;\n' } },
  ]);
  clone = await cloneRepo(runner, { url: remote, dir: join(root, 'clone') });
});
afterEach(() => dirs.cleanup());

async function commitFiles(repo: GitRepo, files: Record<string, string | Buffer>, message: string) {
  writeFiles(repo.dir, files);
  await stage(repo);
  return commitStaged(repo, { message, author: dev });
}

describe('clone, worktree, commit, push', () => {
  it('round-trips a commit made in a worktree to the bare remote', async () => {
    const path = await addWorktree(clone, {
      path: join(clone.dir, '..', 'wt'),
      branch: 'feature/backend/abcd1234',
      startPoint: 'origin/main',
    });
    const tree = { ...clone, dir: path };
    expect(await currentBranch(tree)).toBe('feature/backend/abcd1234');
    writeFileSync(join(path, 'src/new.ts'), 'export const b = 2;\n');
    expect(await workingTreeStatus(tree)).toEqual([{ code: '??', path: 'src/new.ts' }]);
    await stage(tree);
    expect(await hasStagedChanges(tree)).toBe(true);
    const sha = await commitStaged(tree, { message: '[abcd1234] Add the b constant', author: dev });
    await push(tree, { refspecs: ['HEAD:refs/heads/feature/backend/abcd1234'] });

    expect(await remoteBranchSha(clone, 'feature/backend/abcd1234')).toBe(sha);
    const [entry] = await logBetween(clone, { base: 'origin/main', head: sha });
    expect(entry).toMatchObject({ sha, subject: '[abcd1234] Add the b constant', authorName: 'be-dev-1' });
    expect(await currentBranch(clone)).toBe('main');

    const worktrees = await listWorktrees(clone);
    expect(worktrees.map((w) => w.branch)).toEqual(['main', 'feature/backend/abcd1234']);
    await removeWorktree(clone, path, { force: true });
    await pruneWorktrees(clone);
    expect(existsSync(path)).toBe(false);
    expect(await listWorktrees(clone)).toHaveLength(1);
  });

  it("opens a worktree from its clone's admin directory, never from the link the agent could rewrite", async () => {
    const path = await addWorktree(clone, {
      path: join(clone.dir, '..', 'wt-link'),
      branch: 'feature/backend/feed0001',
      startPoint: 'origin/main',
    });
    // The agent replaces the link with a repository of its own whose config runs its program.
    const planted = join(path, 'planted.git');
    execFileSync('git', ['init', '--quiet', '--bare', planted]);
    execFileSync('git', ['--git-dir', planted, 'config', 'core.fsmonitor', `touch ${join(path, 'pwned')}`]);
    execFileSync('git', [
      '--git-dir',
      planted,
      'config',
      'filter.evil.clean',
      `touch ${join(path, 'pwned')}`,
    ]);
    writeFileSync(join(path, '.gitattributes'), '* filter=evil\n');
    rmSync(join(path, '.git'));
    writeFileSync(join(path, '.git'), `gitdir: ${planted}\n`);
    writeFileSync(join(path, 'src/new.ts'), 'export const c = 3;\n');

    const tree = openWorktree(runner, clone.dir, path);
    await stage(tree, ['src/new.ts']);
    const sha = await commitStaged(tree, { message: '[feed0001] Add c', author: dev });
    expect(existsSync(join(path, 'pwned'))).toBe(false);
    expect(await gitText(clone, ['rev-parse', 'refs/heads/feature/backend/feed0001'])).toBe(sha);
    expect(() => openWorktree(runner, clone.dir, join(clone.dir, '..', 'elsewhere'))).toThrow(
      /not a worktree/,
    );
  });

  it('clones a single branch shallowly without a checkout', async () => {
    await commitToRemote(runner, remote, 'develop', { 'dev.txt': 'x\n' }, 'Develop work', 'main');
    const shallow = await cloneRepo(runner, {
      url: `file://${remote}`,
      dir: join(clone.dir, '..', 'shallow'),
      branch: 'develop',
      depth: 1,
      noCheckout: true,
    });
    expect(existsSync(join(shallow.dir, 'dev.txt'))).toBe(false);
    expect(await logBetween(shallow, { head: 'HEAD' })).toHaveLength(1);
  });

  it('lists local and remote branches, creates and checks out branches', async () => {
    await commitToRemote(runner, remote, 'develop', { 'dev.txt': 'x\n' }, 'Develop work', 'main');
    await fetchRemote(clone, { prune: true });
    expect((await listBranches(clone, { remote: 'origin' })).map((b) => b.name)).toEqual(['develop', 'main']);
    await createBranch(clone, 'topic', { startPoint: 'origin/develop', checkout: true });
    expect(await currentBranch(clone)).toBe('topic');
    await checkoutBranch(clone, 'main');
    expect((await listBranches(clone)).map((b) => b.name)).toEqual(['main', 'topic']);
    expect(await resolveRef(clone, 'topic')).toBe(await revParse(clone, 'origin/develop'));
    expect(await resolveRef(clone, 'no-such-branch')).toBeNull();
  });

  it('deletes a remote branch, and deleting one already gone is not an error', async () => {
    await commitToRemote(runner, remote, 'doomed', { 'd.txt': 'd\n' }, 'Doomed', 'main');
    await deleteRemoteBranch(clone, 'doomed');
    expect(await remoteBranchSha(clone, 'doomed')).toBeNull();
    await deleteRemoteBranch(clone, 'doomed');
    expect((await lsRemote(clone, { heads: true })).map((r) => r.ref)).toEqual(['refs/heads/main']);
  });
});

describe('history and content', () => {
  it('summarises a branch against its base: files, line counts, commits', async () => {
    await createBranch(clone, 'work', { checkout: true, startPoint: 'origin/main' });
    await commitFiles(
      clone,
      { 'src/app.ts': 'export const a = 10;\nexport const c = 3;\n' },
      'Change a, add c',
    );
    await commitFiles(
      clone,
      { 'docs/guide.md': 'one\ntwo\nthree\n', 'logo.bin': Buffer.from([0, 1, 2]) },
      'Docs',
    );
    rmSync(join(clone.dir, 'README.md'));
    await stage(clone);
    await commitStaged(clone, { message: 'Drop the readme', author: dev });

    const files = await diffFiles(clone, { base: 'origin/main', head: 'HEAD' });
    expect(files).toEqual([
      { path: 'README.md', status: 'deleted', insertions: 0, deletions: 1, binary: false },
      { path: 'docs/guide.md', status: 'added', insertions: 3, deletions: 0, binary: false },
      { path: 'logo.bin', status: 'added', insertions: 0, deletions: 0, binary: true },
      { path: 'src/app.ts', status: 'modified', insertions: 2, deletions: 1, binary: false },
    ]);
    const commits = await logBetween(clone, { base: 'origin/main', head: 'HEAD' });
    expect(commits.map((c) => c.subject)).toEqual(['Drop the readme', 'Docs', 'Change a, add c']);
    expect(await diffStat(clone, { base: 'origin/main', head: 'HEAD' })).toMatch(
      /4 files changed, 5 insertions\(\+\), 2 deletions\(-\)/,
    );
    const capped = await diffPatch(clone, { base: 'origin/main', head: 'HEAD' }, 50);
    expect(capped.truncated).toBe(true);
    expect(capped.patch).toMatch(/diff truncated at 50 characters/);
    expect(await mergeBase(clone, 'origin/main', 'HEAD')).toBe(await revParse(clone, 'origin/main'));
  });

  it('reads a file at a ref, tells binary from text, and lists trees', async () => {
    await commitFiles(clone, { 'img.png': Buffer.from([137, 80, 78, 71, 0, 0]) }, 'Image');
    expect(await showFileAt(clone, 'HEAD', 'src/app.ts')).toEqual({
      kind: 'text',
      text: 'export const a = 1;\n',
      size: 20,
    });
    expect(await showFileAt(clone, 'HEAD', 'img.png')).toEqual({ kind: 'binary', size: 6 });
    expect(await showFileAt(clone, 'HEAD', 'missing.txt')).toBeNull();
    expect(await showFileAt(clone, 'HEAD', 'src')).toBeNull();
    expect(await showFileAt(clone, 'HEAD', 'src/app.ts', { maxBytes: 5 })).toEqual({
      kind: 'too_large',
      size: 20,
    });
    await expect(showFileAt(clone, 'HEAD', '../etc/passwd')).rejects.toMatchObject({
      failure: 'bad_argument',
    });

    const top = await listTree(clone, 'HEAD');
    expect(top.map((e) => [e.path, e.type])).toEqual([
      ['README.md', 'blob'],
      ['img.png', 'blob'],
      ['src', 'tree'],
    ]);
    const all = await listTree(clone, 'HEAD', { recursive: true, path: 'src' });
    expect(all).toMatchObject([{ path: 'src/app.ts', type: 'blob', size: 20 }]);
  });
});

describe('merge', () => {
  async function branchWith(name: string, files: Record<string, string>) {
    await createBranch(clone, name, { checkout: true, startPoint: 'main' });
    await commitFiles(clone, files, `Work on ${name}`);
    await checkoutBranch(clone, 'main');
  }

  it('squashes a branch into one commit on the target', async () => {
    await branchWith('feat', { 'a.txt': 'a\n' });
    await createBranch(clone, 'feat', { force: true, checkout: true, startPoint: 'feat' });
    await commitFiles(clone, { 'b.txt': 'b\n' }, 'More work');
    await checkoutBranch(clone, 'main');
    const outcome = await mergeInto(clone, {
      source: 'feat',
      method: 'squash',
      message: 'Feat (#1)',
      identity: dev,
    });
    expect(outcome.outcome).toBe('merged');
    const [top, ...rest] = await logBetween(clone, { base: 'origin/main', head: 'main' });
    expect(rest).toHaveLength(0);
    expect(top!.subject).toBe('Feat (#1)');
    expect((await diffFiles(clone, { base: 'origin/main', head: 'main' })).map((f) => f.path)).toEqual([
      'a.txt',
      'b.txt',
    ]);
    const again = await mergeInto(clone, {
      source: 'main',
      method: 'squash',
      message: 'noop',
      identity: dev,
    });
    expect(again.outcome).toBe('up_to_date');
  });

  it('makes a merge commit with no-ff', async () => {
    await branchWith('feat', { 'a.txt': 'a\n' });
    const outcome = await mergeInto(clone, {
      source: 'feat',
      method: 'no-ff',
      message: 'Merge feat',
      identity: dev,
    });
    expect(outcome.outcome).toBe('merged');
    const head = await runner.text(['log', '-1', '--format=%P%x1f%s'], { cwd: clone.dir });
    const [parents, subject] = head.split('\x1f');
    expect(parents!.split(' ')).toHaveLength(2);
    expect(subject).toBe('Merge feat');
  });

  it('answers a conflict with the files and leaves the target clean', async () => {
    await branchWith('left', { 'src/app.ts': 'export const a = 2;\n' });
    await commitFiles(clone, { 'src/app.ts': 'export const a = 3;\n' }, 'Main moves on');
    const before = await revParse(clone, 'HEAD');
    for (const method of ['squash', 'no-ff'] as const) {
      const outcome = await mergeInto(clone, {
        source: 'left',
        method,
        message: 'Merge left',
        identity: dev,
      });
      expect(outcome).toEqual({ outcome: 'conflict', files: ['src/app.ts'] });
      expect(await revParse(clone, 'HEAD')).toBe(before);
      expect(await workingTreeStatus(clone)).toEqual([]);
    }
  });
});

describe('tags', () => {
  it('creates annotated and lightweight tags, pushes one and reads it back from the remote', async () => {
    const head = await revParse(clone, 'HEAD');
    await createTag(clone, {
      name: 'v0.1.0',
      target: 'HEAD',
      message: 'Release 0.1.0\n\nNotes.',
      identity: dev,
    });
    await createTag(clone, { name: 'light', target: 'HEAD' });
    const tags = await listTags(clone);
    expect(tags.map((t) => [t.name, t.annotated, t.sha])).toEqual([
      ['light', false, head],
      ['v0.1.0', true, head],
    ]);
    expect(tags[1]!.message).toBe('Release 0.1.0\n\nNotes.');
    await pushTag(clone, 'v0.1.0');

    const other = await cloneRepo(runner, { url: remote, dir: join(clone.dir, '..', 'other') });
    await runner.run(['tag', '-d', 'v0.1.0'], { cwd: other.dir, okExitCodes: [1] });
    const read = await readRemoteTag(other, 'v0.1.0');
    expect(read).toMatchObject({ name: 'v0.1.0', annotated: true, sha: head, taggerName: 'be-dev-1' });
    expect(await readRemoteTag(other, 'v9.9.9')).toBeNull();
  });
});

const hasGpg = (() => {
  try {
    execFileSync('gpg', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.skipIf(!hasGpg)('signed commits', () => {
  it('signs a commit with -S when asked', async () => {
    const gnupgHome = dirs.make();
    chmodSync(gnupgHome, 0o700);
    execFileSync(
      'gpg',
      [
        '--batch',
        '--passphrase',
        '',
        '--quick-gen-key',
        'Signer <signer@example.test>',
        'ed25519',
        'sign',
        'never',
      ],
      { env: { ...process.env, GNUPGHOME: gnupgHome }, stdio: 'ignore', timeout: 20_000 },
    );
    writeFiles(clone.dir, { 'signed.txt': 's\n' });
    await stage(clone);
    const sha = await commitStaged(clone, {
      message: 'Signed work',
      author: { name: 'Signer', email: 'signer@example.test' },
      sign: { gnupgHome },
    });
    const status = await runner.text(['log', '-1', '--format=%G?', sha], { cwd: clone.dir, gnupgHome });
    expect(['G', 'U']).toContain(status);
    const unsigned = await runner.text(['log', '-1', '--format=%G?', 'origin/main'], {
      cwd: clone.dir,
      gnupgHome,
    });
    expect(unsigned).toBe('N');
  });
});
