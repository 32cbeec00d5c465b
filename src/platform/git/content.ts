/** Reading files and trees at a ref without a checkout: `cat-file` (with binary detection) and `ls-tree`. */
import { GitError } from './errors.js';
import { assertRef, type GitRepo, gitRaw } from './repo.js';

export type FileAtRef =
  | { kind: 'text'; text: string; size: number }
  | { kind: 'binary'; size: number }
  | { kind: 'too_large'; size: number };

/** Git's own heuristic: a NUL byte in the first 8000 bytes means binary. */
export function looksBinary(content: Buffer): boolean {
  return content.subarray(0, 8000).includes(0);
}

/** The file `path` at `ref` (`git show ref:path` without filters), or null when it is not there. */
export async function showFileAt(
  repo: GitRepo,
  ref: string,
  path: string,
  options: { maxBytes?: number } = {},
): Promise<FileAtRef | null> {
  const object = `${assertRef(ref)}:${cleanPath(path)}`;
  const type = await gitRaw(repo, ['cat-file', '-t', object], { okExitCodes: [1, 128] });
  if (type.exitCode !== 0 || type.stdout.toString('utf8').trim() !== 'blob') return null;
  const size = Number((await gitRaw(repo, ['cat-file', '-s', object])).stdout.toString('utf8').trim());
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  if (size > maxBytes) return { kind: 'too_large', size };
  const blob = await gitRaw(repo, ['cat-file', 'blob', object], { maxBufferBytes: maxBytes + 1024 });
  if (looksBinary(blob.stdout)) return { kind: 'binary', size };
  return { kind: 'text', text: blob.stdout.toString('utf8'), size };
}

export interface TreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  sha: string;
  /** Bytes for blobs; null for trees and submodules. */
  size: number | null;
  path: string;
}

/** Entries of the tree at `ref` (under `path` when given), recursively with `recursive`. */
export async function listTree(
  repo: GitRepo,
  ref: string,
  options: { path?: string; recursive?: boolean } = {},
): Promise<TreeEntry[]> {
  const args = ['ls-tree', '-z', '--long', '--full-tree'];
  if (options.recursive) args.push('-r');
  args.push('--end-of-options', assertRef(ref));
  if (options.path) args.push('--', cleanPath(options.path));
  const out = await gitRaw(repo, args);
  return out.stdout
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((record) => {
      const tab = record.indexOf('\t');
      const [mode = '', type = '', sha = '', size = '-'] = record.slice(0, tab).split(/\s+/);
      return {
        mode,
        type: type as TreeEntry['type'],
        sha,
        size: size === '-' ? null : Number(size),
        path: record.slice(tab + 1),
      };
    });
}

/** A repository-relative path: no leading slash, no `..` segment, no control characters. */
function cleanPath(path: string): string {
  const trimmed = path.replace(/^\.?\/+/, '');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (!trimmed || trimmed.split('/').includes('..') || /[\u0000-\u001f]/.test(trimmed)) {
    throw new GitError('bad_argument', `not a repository path: ${JSON.stringify(path.slice(0, 80))}`, []);
  }
  return trimmed;
}
