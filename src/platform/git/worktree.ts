/** Linked worktrees of a repository: add (on a new or existing branch), remove, prune, list. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GitError } from './errors.js';
import { assertRef, type GitRepo, gitRaw, gitText } from './repo.js';
import type { GitCall, GitRunner } from './runner.js';

export interface AddWorktreeOptions {
  path: string;
  /** The branch to check out in the worktree. */
  branch: string;
  /** When given, `branch` is created (or reset with `force`) at this start point. */
  startPoint?: string;
  force?: boolean;
}

export async function addWorktree(repo: GitRepo, options: AddWorktreeOptions): Promise<string> {
  const path = resolve(options.path);
  const branch = assertRef(options.branch, 'branch');
  const args = ['worktree', 'add', '--quiet'];
  if (options.startPoint) {
    args.push('--no-track', options.force ? '-B' : '-b', branch, '--', path, assertRef(options.startPoint));
  } else {
    args.push('--', path, branch);
  }
  await gitRaw(repo, args);
  return path;
}

/** Removes a worktree; `force` drops uncommitted changes in it. */
export async function removeWorktree(repo: GitRepo, path: string, options: { force?: boolean } = {}) {
  const args = ['worktree', 'remove'];
  if (options.force) args.push('--force', '--force');
  args.push('--', resolve(path));
  await gitRaw(repo, args);
}

/** Forgets worktrees whose directories are gone. */
export async function pruneWorktrees(repo: GitRepo): Promise<void> {
  await gitRaw(repo, ['worktree', 'prune']);
}

export interface WorktreeEntry {
  path: string;
  /** Null when detached or bare. */
  branch: string | null;
  head: string | null;
  bare: boolean;
}

export async function listWorktrees(repo: GitRepo): Promise<WorktreeEntry[]> {
  const out = await gitText(repo, ['worktree', 'list', '--porcelain']);
  const entries: WorktreeEntry[] = [];
  for (const block of out.split('\n\n')) {
    const lines = block.split('\n').filter(Boolean);
    const path = lines.find((l) => l.startsWith('worktree '))?.slice('worktree '.length);
    if (!path) continue;
    const branchRef = lines.find((l) => l.startsWith('branch '))?.slice('branch '.length) ?? null;
    entries.push({
      path,
      branch: branchRef ? branchRef.replace(/^refs\/heads\//, '') : null,
      head: lines.find((l) => l.startsWith('HEAD '))?.slice('HEAD '.length) ?? null,
      bare: lines.includes('bare'),
    });
  }
  return entries;
}

/**
 * A linked worktree of `cloneDir`, opened so that git never reads the worktree's own `.git` link:
 * the admin directory comes from the clone (`--git-dir`) and the files from the path
 * (`--work-tree`). The worktree belongs to an agent, which could replace that link with a
 * repository of its own whose configuration would run its programs in the server's git.
 */
export function openWorktree(runner: GitRunner, cloneDir: string, path: string, call: GitCall = {}): GitRepo {
  const tree = resolve(path);
  const admin = join(resolve(cloneDir), '.git', 'worktrees');
  const link = join(tree, '.git');
  const name = listNames(admin).find((entry) => readOrEmpty(join(admin, entry, 'gitdir')) === link);
  if (!name) throw new GitError('bad_argument', `${tree} is not a worktree of ${cloneDir}`, []);
  return { runner, dir: tree, call, globals: [`--git-dir=${join(admin, name)}`, `--work-tree=${tree}`] };
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}
