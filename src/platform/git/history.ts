/**
 * Reading history between refs: commits (`log base..head`), the files changed with their status
 * and line counts (`diff --name-status` / `--numstat`), the `--stat` text and a capped patch.
 * External diff drivers and textconv filters never run.
 */
import { assertRef, byCodePoint, type GitRepo, gitRaw, gitText } from './repo.js';

export interface CommitEntry {
  sha: string;
  subject: string;
  body: string;
  authorName: string;
  authorEmail: string;
  /** ISO-8601 author date. */
  date: string;
}

/** Commits reachable from `head` and not from `base` (all of `head` without a base), newest first. */
export async function logBetween(
  repo: GitRepo,
  options: { base?: string; head: string; maxCount?: number; noMerges?: boolean },
): Promise<CommitEntry[]> {
  const range = options.base
    ? `${assertRef(options.base)}..${assertRef(options.head)}`
    : assertRef(options.head);
  const args = ['log', '--no-color', '-z', '--format=%H%x1f%an%x1f%ae%x1f%aI%x1f%s%x1f%b'];
  if (options.maxCount) args.push(`--max-count=${Math.max(1, Math.floor(options.maxCount))}`);
  if (options.noMerges) args.push('--no-merges');
  args.push('--end-of-options', range, '--');
  const out = await gitRaw(repo, args);
  return out.stdout
    .toString('utf8')
    .split('\0')
    .filter((record) => record.trim())
    .map((record) => {
      const [sha = '', authorName = '', authorEmail = '', date = '', subject = '', body = ''] = record
        .replace(/^\n/, '')
        .split('\x1f');
      return { sha, authorName, authorEmail, date, subject, body: body.trim() };
    });
}

export type FileChangeStatus = 'added' | 'modified' | 'deleted' | 'type_changed' | 'other';

export interface FileChange {
  path: string;
  status: FileChangeStatus;
  /** Line counts; 0 for binary files. */
  insertions: number;
  deletions: number;
  binary: boolean;
}

export interface DiffRange {
  base: string;
  head: string;
  /** Diff from the merge base of the two (`base...head`, what a pull request shows). Default true. */
  fromMergeBase?: boolean;
}

const DIFF_FLAGS = ['--no-color', '--no-ext-diff', '--no-textconv', '--no-renames'];

function rangeArgs(range: DiffRange): string[] {
  const base = assertRef(range.base);
  const head = assertRef(range.head);
  return range.fromMergeBase === false ? [base, head] : [`${base}...${head}`];
}

const STATUS_NAMES: Record<string, FileChangeStatus> = {
  A: 'added',
  M: 'modified',
  D: 'deleted',
  T: 'type_changed',
};

/** Every file changed in the range, with its status and line counts, sorted by path. */
export async function diffFiles(repo: GitRepo, range: DiffRange): Promise<FileChange[]> {
  const [nameStatus, numstat] = await Promise.all([
    gitRaw(repo, [
      'diff',
      ...DIFF_FLAGS,
      '-z',
      '--name-status',
      '--end-of-options',
      ...rangeArgs(range),
      '--',
    ]),
    gitRaw(repo, ['diff', ...DIFF_FLAGS, '-z', '--numstat', '--end-of-options', ...rangeArgs(range), '--']),
  ]);
  const counts = new Map<string, { insertions: number; deletions: number; binary: boolean }>();
  for (const record of numstat.stdout.toString('utf8').split('\0')) {
    const [added, deleted, path] = record.split('\t');
    if (path === undefined || added === undefined || deleted === undefined) continue;
    const binary = added === '-';
    counts.set(path, {
      insertions: binary ? 0 : Number(added),
      deletions: binary ? 0 : Number(deleted),
      binary,
    });
  }
  const fields = nameStatus.stdout.toString('utf8').split('\0');
  const files: FileChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const code = fields[i]!;
    const path = fields[i + 1]!;
    if (!code) continue;
    const count = counts.get(path) ?? { insertions: 0, deletions: 0, binary: false };
    files.push({ path, status: STATUS_NAMES[code[0]!] ?? 'other', ...count });
  }
  return files.sort((a, b) => byCodePoint(a.path, b.path));
}

/** The `git diff --stat` text of the range. */
export async function diffStat(repo: GitRepo, range: DiffRange): Promise<string> {
  return gitText(repo, ['diff', ...DIFF_FLAGS, '--stat=200', '--end-of-options', ...rangeArgs(range), '--']);
}

/** The unified patch of the range, cut at `maxChars` with a marker saying so. */
export async function diffPatch(
  repo: GitRepo,
  range: DiffRange,
  maxChars = 20_000,
): Promise<{ patch: string; truncated: boolean }> {
  const out = await gitText(repo, ['diff', ...DIFF_FLAGS, '--end-of-options', ...rangeArgs(range), '--']);
  if (out.length <= maxChars) return { patch: out, truncated: false };
  return {
    patch: `${out.slice(0, maxChars)}\n… [diff truncated at ${maxChars} characters]`,
    truncated: true,
  };
}

/** The best common ancestor of two refs, or null when they share no history. */
export async function mergeBase(repo: GitRepo, a: string, b: string): Promise<string | null> {
  const result = await gitRaw(repo, ['merge-base', '--end-of-options', assertRef(a), assertRef(b)], {
    okExitCodes: [1],
  });
  const sha = result.stdout.toString('utf8').trim();
  return result.exitCode === 0 && sha ? sha : null;
}

/**
 * The unified diff `from`..`to` as git prints it, renames and copies found (`a/` and `b/` prefixes
 * and unquoted UTF-8 paths whatever the repository's configuration says).
 */
export async function unifiedDiff(repo: GitRepo, from: string, to: string): Promise<string> {
  const args = [
    '-c',
    'core.quotePath=false',
    'diff',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--find-renames',
    '--find-copies',
    '--src-prefix=a/',
    '--dst-prefix=b/',
    '--end-of-options',
    assertRef(from),
    assertRef(to),
    '--',
  ];
  return (await gitRaw(repo, args)).stdout.toString('utf8');
}
