/**
 * Talking to a remote: push (branches, force-with-lease, deleting a remote branch), ls-remote,
 * and tags (list, create annotated or lightweight, push, read a remote tag). Credentials come
 * from the repository handle's call options and travel only in git's environment.
 */
import type { GitIdentity } from './env.js';
import {
  assertRef,
  assertUrl,
  byCodePoint,
  fetchRemote,
  type GitRepo,
  gitRaw,
  gitText,
  splitOnce,
} from './repo.js';

export interface PushOptions {
  /** Remote name or URL (default `origin`). */
  remote?: string;
  /** `src:dst` or a branch name. */
  refspecs: readonly string[];
  /** `--force-with-lease=<ref>:<expected sha>` for each entry. */
  leases?: ReadonlyArray<{ ref: string; expect: string }>;
  force?: boolean;
  setUpstream?: boolean;
}

export async function push(repo: GitRepo, options: PushOptions): Promise<void> {
  const args = ['push', '--quiet', '--no-verify', '--porcelain'];
  if (options.force) args.push('--force');
  for (const lease of options.leases ?? []) {
    args.push(`--force-with-lease=${assertRef(lease.ref)}:${assertRef(lease.expect)}`);
  }
  if (options.setUpstream) args.push('--set-upstream');
  args.push('--end-of-options', assertUrl(options.remote ?? 'origin'));
  for (const refspec of options.refspecs) args.push(assertRef(refspec, 'refspec'));
  await gitRaw(repo, args);
}

/** Deletes `branch` on the remote; a branch already gone is not an error. */
export async function deleteRemoteBranch(repo: GitRepo, branch: string, remote = 'origin'): Promise<void> {
  if (!(await lsRemote(repo, { remote, refs: [`refs/heads/${assertRef(branch, 'branch')}`] })).length) return;
  await push(repo, { remote, refspecs: [`:refs/heads/${branch}`] });
}

export interface RemoteRef {
  ref: string;
  sha: string;
}

/** Refs the remote advertises: heads, tags, or the exact refs asked for. */
export async function lsRemote(
  repo: GitRepo,
  options: { remote?: string; heads?: boolean; tags?: boolean; refs?: readonly string[] } = {},
): Promise<RemoteRef[]> {
  const args = ['ls-remote'];
  if (options.heads) args.push('--heads');
  if (options.tags) args.push('--tags');
  args.push('--end-of-options', assertUrl(options.remote ?? 'origin'));
  for (const ref of options.refs ?? []) args.push(assertRef(ref));
  const out = await gitText(repo, args);
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha, ref] = splitOnce(line, '\t');
      return { sha, ref };
    })
    .filter((entry) => !options.refs || options.refs.includes(entry.ref));
}

/** The sha of `branch` on the remote, or null when it has no such branch. */
export async function remoteBranchSha(
  repo: GitRepo,
  branch: string,
  remote = 'origin',
): Promise<string | null> {
  const [head] = await lsRemote(repo, { remote, refs: [`refs/heads/${assertRef(branch, 'branch')}`] });
  return head?.sha ?? null;
}

export interface TagEntry {
  name: string;
  /** The commit the tag points at. */
  sha: string;
  annotated: boolean;
  /** The annotation's message (empty for a lightweight tag). */
  message: string;
  taggerName: string;
  /** ISO-8601 tagger or commit date. */
  date: string;
}

/** Local tags, sorted by name; `pattern` is a `for-each-ref` glob under refs/tags. */
export async function listTags(repo: GitRepo, options: { pattern?: string } = {}): Promise<TagEntry[]> {
  const format =
    '%(refname:strip=2)%1f%(objecttype)%1f%(*objectname)%1f%(objectname)%1f%(taggername)%1f%(creatordate:iso-strict)%1f%(contents)%1e';
  const pattern = options.pattern ? `refs/tags/${assertRef(options.pattern, 'tag pattern')}` : 'refs/tags/';
  const out = await gitText(repo, ['for-each-ref', `--format=${format}`, pattern]);
  return out
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter(Boolean)
    .map((record) => {
      const [name = '', type = '', peeled = '', sha = '', taggerName = '', date = '', message = ''] =
        record.split('\x1f');
      const annotated = type === 'tag';
      return { name, sha: annotated ? peeled : sha, annotated, message: message.trim(), taggerName, date };
    })
    .sort((a, b) => byCodePoint(a.name, b.name));
}

/** Creates a tag at `target`: annotated (with `message` and `identity`) or lightweight. */
export async function createTag(
  repo: GitRepo,
  options: { name: string; target: string; message?: string; identity?: GitIdentity },
): Promise<void> {
  const name = assertRef(options.name, 'tag');
  const target = assertRef(options.target, 'tag target');
  if (options.message !== undefined) {
    await gitRaw(repo, ['tag', '--annotate', '--no-sign', '--file=-', '--end-of-options', name, target], {
      identity: options.identity,
      stdin: options.message,
    });
  } else {
    await gitRaw(repo, ['tag', '--no-sign', '--end-of-options', name, target]);
  }
}

export async function pushTag(repo: GitRepo, name: string, remote = 'origin'): Promise<void> {
  await push(repo, { remote, refspecs: [`refs/tags/${assertRef(name, 'tag')}:refs/tags/${name}`] });
}

/** The tag `name` as the remote has it (fetched into this repository first), or null when absent. */
export async function readRemoteTag(
  repo: GitRepo,
  name: string,
  remote = 'origin',
): Promise<TagEntry | null> {
  const ref = `refs/tags/${assertRef(name, 'tag')}`;
  const advertised = await lsRemote(repo, { remote, refs: [ref] });
  if (advertised.length === 0) return null;
  await fetchRemote(repo, { remote, refspecs: [`+${ref}:${ref}`] });
  const [tag] = (await listTags(repo)).filter((entry) => entry.name === name);
  return tag ?? null;
}
