/**
 * Real git on a served bare repository, for the fake forge's API: resolve a ref, count commits
 * between two branches, merge a pull request (merge-tree, commit-tree, update-ref — no worktree
 * needed) and create a release tag. Synchronous `git` calls without a shell.
 */
import { spawnSync } from 'node:child_process';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Fake Forge',
  GIT_AUTHOR_EMAIL: 'noreply@fake-forge.test',
  GIT_COMMITTER_NAME: 'Fake Forge',
  GIT_COMMITTER_EMAIL: 'noreply@fake-forge.test',
};

function git(bare: string, args: string[]): { ok: boolean; out: string } {
  const result = spawnSync('git', ['--git-dir', bare, ...args], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: bare,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      ...IDENTITY,
    },
  });
  return { ok: result.status === 0, out: (result.stdout ?? '').trim() };
}

/** The commit a ref names in the repository, or undefined. */
export function revParse(bare: string, ref: string): string | undefined {
  const { ok, out } = git(bare, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  return ok && out ? out : undefined;
}

/** How many commits `head` has that `base` does not. */
export function commitsAhead(bare: string, base: string, head: string): number {
  const { ok, out } = git(bare, ['rev-list', '--count', `${base}..${head}`]);
  return ok ? Number(out) : 0;
}

/**
 * Merges branch `head` into branch `base` the way a forge does: a squash commit (one parent) or a
 * merge commit (two), moving `base` only if it did not move meanwhile. Null on a conflict.
 */
export function mergeBranches(
  bare: string,
  input: { base: string; head: string; method: string; message: string },
): string | null {
  const baseSha = revParse(bare, `refs/heads/${input.base}`);
  const headSha = revParse(bare, `refs/heads/${input.head}`);
  if (!baseSha || !headSha) return null;
  const tree = git(bare, ['merge-tree', '--write-tree', baseSha, headSha]);
  if (!tree.ok) return null;
  const treeId = tree.out.split('\n')[0]!;
  const parents = input.method === 'squash' ? ['-p', baseSha] : ['-p', baseSha, '-p', headSha];
  const commit = git(bare, ['commit-tree', treeId, ...parents, '-m', input.message]);
  if (!commit.ok) return null;
  const moved = git(bare, ['update-ref', `refs/heads/${input.base}`, commit.out, baseSha]);
  return moved.ok ? commit.out : null;
}

/** A lightweight tag, as GitHub creates for a release. */
export function createTag(bare: string, tag: string, sha: string): void {
  git(bare, ['tag', '--end-of-options', tag, sha]);
}

/** A new bare repository at `dir` on `main`; with `readme`, one first commit holding README.md (as auto_init does). */
export function initBareRepository(dir: string, readme: string | null): void {
  const made = spawnSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', dir], {
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    },
  });
  if (made.status !== 0) throw new Error(`git init failed: ${made.stderr}`);
  if (readme === null) return;
  const blob = spawnSync('git', ['--git-dir', dir, 'hash-object', '-w', '--stdin'], {
    input: readme,
    encoding: 'utf8',
  }).stdout.trim();
  const tree = spawnSync('git', ['--git-dir', dir, 'mktree'], {
    input: `100644 blob ${blob}\tREADME.md\n`,
    encoding: 'utf8',
  }).stdout.trim();
  const commit = git(dir, ['commit-tree', tree, '-m', 'Initial commit']);
  if (!commit.ok) throw new Error('git commit-tree failed');
  git(dir, ['update-ref', 'refs/heads/main', commit.out]);
}
