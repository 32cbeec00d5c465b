/**
 * A repository handle (runner + directory + per-call options) and the operations on refs:
 * clone, init, fetch, rev-parse, branch listing, checkout and branch creation. Refs and URLs
 * that come from outside are checked by `assertRef` / `assertUrl` so none is read as an option.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { GitError } from './errors.js';
import type { GitCall, GitResult, GitRunner, GitRunOptions } from './runner.js';

export interface GitRepo {
  readonly runner: GitRunner;
  readonly dir: string;
  readonly call: GitCall;
  /** Global options before every command (`--git-dir`, `--work-tree` of a linked worktree). */
  readonly globals?: readonly string[];
}

export type GitExtra = Omit<GitRunOptions, 'cwd' | keyof GitCall>;

export function openRepo(runner: GitRunner, dir: string, call: GitCall = {}): GitRepo {
  return { runner, dir, call };
}

/** The same repository with other call options (a signal, credentials). */
export function withCall(repo: GitRepo, call: GitCall): GitRepo {
  return { ...repo, call: { ...repo.call, ...call } };
}

export function gitRaw(repo: GitRepo, args: readonly string[], extra: GitExtra = {}): Promise<GitResult> {
  return repo.runner.run([...(repo.globals ?? []), ...args], { ...extra, ...repo.call, cwd: repo.dir });
}

export function gitText(repo: GitRepo, args: readonly string[], extra: GitExtra = {}): Promise<string> {
  return repo.runner.text([...(repo.globals ?? []), ...args], { ...extra, ...repo.call, cwd: repo.dir });
}

/** Refuses a ref (branch, tag, sha, `rev~1`) that git could read as an option or that is malformed. */
export function assertRef(ref: string, what = 'ref'): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (!ref || ref.length > 500 || ref.startsWith('-') || /[\s\u0000-\u001f\u007f]/.test(ref)) {
    throw new GitError('bad_argument', `not a usable ${what}: ${JSON.stringify(ref.slice(0, 80))}`, []);
  }
  return ref;
}

/** Refuses a remote URL or path that git could read as an option. */
export function assertUrl(url: string): string {
  return assertRef(url, 'remote URL');
}

export interface CloneOptions {
  url: string;
  /** The directory to create; its parent must exist. */
  dir: string;
  branch?: string;
  /** Shallow clone; git ignores it for a plain local path (use a file:// URL there). */
  depth?: number;
  noCheckout?: boolean;
  bare?: boolean;
}

/** `git clone` (creating missing parent folders); the call's credentials are used for the transfer and stored nowhere. */
export async function cloneRepo(
  runner: GitRunner,
  options: CloneOptions,
  call: GitCall = {},
): Promise<GitRepo> {
  const args = ['clone', '--quiet'];
  if (options.branch) args.push('--branch', assertRef(options.branch, 'branch'));
  if (options.depth) args.push('--depth', String(Math.max(1, Math.floor(options.depth))));
  if (options.noCheckout) args.push('--no-checkout');
  if (options.bare) args.push('--bare');
  const dir = resolve(options.dir);
  args.push('--', assertUrl(options.url), dir);
  mkdirSync(dirname(dir), { recursive: true });
  await runner.run(args, { ...call, cwd: dirname(dir) });
  return openRepo(runner, dir, call);
}

/** `git init` (optionally bare) with `main` as the first branch. */
export async function initRepo(
  runner: GitRunner,
  dir: string,
  options: { bare?: boolean; initialBranch?: string } = {},
): Promise<GitRepo> {
  const args = [
    'init',
    '--quiet',
    `--initial-branch=${assertRef(options.initialBranch ?? 'main', 'branch')}`,
  ];
  if (options.bare) args.push('--bare');
  const target = resolve(dir);
  args.push('--', target);
  mkdirSync(dirname(target), { recursive: true });
  await runner.run(args, { cwd: dirname(target) });
  return openRepo(runner, target);
}

export interface FetchOptions {
  /** A remote name or URL (default `origin`). */
  remote?: string;
  refspecs?: readonly string[];
  prune?: boolean;
  tags?: boolean;
  depth?: number;
}

export async function fetchRemote(repo: GitRepo, options: FetchOptions = {}): Promise<void> {
  const args = ['fetch', '--quiet'];
  if (options.prune) args.push('--prune');
  if (options.tags) args.push('--tags');
  if (options.depth) args.push('--depth', String(Math.max(1, Math.floor(options.depth))));
  args.push('--end-of-options', assertUrl(options.remote ?? 'origin'));
  for (const refspec of options.refspecs ?? []) args.push(assertRef(refspec, 'refspec'));
  await gitRaw(repo, args);
}

/** The full sha a ref names; throws a GitError when it names nothing. */
export async function revParse(repo: GitRepo, ref: string): Promise<string> {
  return gitText(repo, [
    'rev-parse',
    '--verify',
    '--quiet',
    '--end-of-options',
    `${assertRef(ref)}^{commit}`,
  ]);
}

/** The full sha a ref names, or null when it names no commit. */
export async function resolveRef(repo: GitRepo, ref: string): Promise<string | null> {
  const result = await gitRaw(
    repo,
    ['rev-parse', '--verify', '--quiet', '--end-of-options', `${assertRef(ref)}^{commit}`],
    { okExitCodes: [1, 128] },
  );
  const sha = result.stdout.toString('utf8').trim();
  return result.exitCode === 0 && sha ? sha : null;
}

/** The branch HEAD is on, or null when HEAD is detached. */
export async function currentBranch(repo: GitRepo): Promise<string | null> {
  const result = await gitRaw(repo, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { okExitCodes: [1] });
  const name = result.stdout.toString('utf8').trim();
  return result.exitCode === 0 && name ? name : null;
}

export interface BranchEntry {
  name: string;
  sha: string;
}

/** Local branches (`refs/heads`) or remote-tracking ones (`refs/remotes/<remote>`), sorted by name. */
export async function listBranches(repo: GitRepo, options: { remote?: string } = {}): Promise<BranchEntry[]> {
  const prefix = options.remote ? `refs/remotes/${assertRef(options.remote, 'remote')}/` : 'refs/heads/';
  const out = await gitText(repo, ['for-each-ref', '--format=%(objectname) %(refname)', prefix]);
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha, ref] = splitOnce(line, ' ');
      return { sha, name: ref.slice(prefix.length) };
    })
    .filter((entry) => entry.name !== 'HEAD')
    .sort((a, b) => byCodePoint(a.name, b.name));
}

/** Switches the working tree to an existing branch. */
export async function checkoutBranch(repo: GitRepo, branch: string): Promise<void> {
  await gitRaw(repo, ['checkout', '--quiet', assertRef(branch, 'branch'), '--']);
}

/**
 * Creates `branch` at `startPoint` (default HEAD); `checkout` also switches to it, and `force`
 * resets it when it exists (`checkout -B` / `branch -f`).
 */
export async function createBranch(
  repo: GitRepo,
  branch: string,
  options: { startPoint?: string; checkout?: boolean; force?: boolean } = {},
): Promise<void> {
  const name = assertRef(branch, 'branch');
  const start = options.startPoint ? [assertRef(options.startPoint, 'start point')] : [];
  const args = options.checkout
    ? ['checkout', '--quiet', '--no-track', options.force ? '-B' : '-b', name, ...start, '--']
    : ['branch', '--no-track', ...(options.force ? ['--force'] : []), '--', name, ...start];
  await gitRaw(repo, args);
}

/** Deletes a local branch (`-D` with force, which drops unmerged work). */
export async function deleteBranch(repo: GitRepo, branch: string, options: { force?: boolean } = {}) {
  await gitRaw(repo, ['branch', options.force ? '-D' : '-d', '--', assertRef(branch, 'branch')]);
}

export function splitOnce(text: string, separator: string): [string, string] {
  const index = text.indexOf(separator);
  return index < 0 ? [text, ''] : [text.slice(0, index), text.slice(index + separator.length)];
}

/** Sorts the way git lists refs and paths: by code point, case-sensitive. */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
