/**
 * The lockfile changes a probe found, read from git's machine output (`status --porcelain=v1 -z`,
 * `diff --numstat -z`), and the short diff stat the update task shows. Pure.
 */
import { lockfileManager } from './lockfiles.js';

export type LockfileChangeKind = 'modified' | 'added' | 'deleted';

export interface LockfileChange {
  path: string;
  kind: LockfileChangeKind;
  /** Line counts against the branch tip; null for a binary file or a file new to the repository. */
  insertions: number | null;
  deletions: number | null;
}

export interface StatusChange {
  path: string;
  kind: LockfileChangeKind;
}

/** Entries of `git status --porcelain=v1 -z` (renames split into their two sides). */
export function parseStatus(output: string): StatusChange[] {
  const fields = output.split('\0');
  const changes: StatusChange[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i]!;
    if (field.length < 4) continue;
    const code = field.slice(0, 2);
    const path = field.slice(3);
    if (code === '!!') continue;
    if (code.startsWith('R') || code.startsWith('C')) {
      const source = fields[++i];
      changes.push({ path, kind: 'added' });
      if (source && code.startsWith('R')) changes.push({ path: source, kind: 'deleted' });
      continue;
    }
    const kind: LockfileChangeKind =
      code === '??' || code.includes('A') ? 'added' : code.includes('D') ? 'deleted' : 'modified';
    changes.push({ path, kind });
  }
  return changes;
}

/** Line counts per path from `git diff --numstat -z` (null counts: a binary file). */
export function parseNumstat(
  output: string,
): Map<string, { insertions: number | null; deletions: number | null }> {
  const counts = new Map<string, { insertions: number | null; deletions: number | null }>();
  for (const record of output.split('\0')) {
    const [added, deleted, ...rest] = record.split('\t');
    const path = rest.join('\t');
    if (!path || added === undefined || deleted === undefined) continue;
    const count = (value: string) => (value === '-' ? null : Number.parseInt(value, 10));
    counts.set(path, { insertions: count(added), deletions: count(deleted) });
  }
  return counts;
}

/** Status entries joined with their line counts, sorted by path. */
export function lockfileChanges(
  status: readonly StatusChange[],
  counts: ReadonlyMap<string, { insertions: number | null; deletions: number | null }>,
): LockfileChange[] {
  const byPath = new Map<string, LockfileChange>();
  for (const entry of status) {
    const count = counts.get(entry.path) ?? { insertions: null, deletions: null };
    byPath.set(entry.path, { ...entry, ...count });
  }
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Lines listed before the rest is summed up as "… and N more". */
export const MAX_STAT_LINES = 20;

/** One line per changed lockfile (at most `MAX_STAT_LINES`), then a total. */
export function diffStatLines(changes: readonly LockfileChange[]): string[] {
  const lines = changes.slice(0, MAX_STAT_LINES).map((change) => {
    const manager = lockfileManager(change.path);
    const name = manager ? `${change.path} (${manager})` : change.path;
    return `- ${name}: ${describeChange(change)}`;
  });
  if (changes.length > MAX_STAT_LINES) lines.push(`- … and ${changes.length - MAX_STAT_LINES} more`);
  const insertions = sum(changes.map((change) => change.insertions ?? 0));
  const deletions = sum(changes.map((change) => change.deletions ?? 0));
  const files = changes.length === 1 ? '1 lockfile changed' : `${changes.length} lockfiles changed`;
  lines.push(`${files}, ${insertions} insertions(+), ${deletions} deletions(-)`);
  return lines;
}

function describeChange(change: LockfileChange): string {
  if (change.kind === 'deleted') return 'deleted';
  if (change.insertions === null || change.deletions === null) {
    return change.kind === 'added' ? 'new file' : 'binary change';
  }
  const counts = `+${change.insertions} -${change.deletions}`;
  return change.kind === 'added' ? `new file, ${counts}` : counts;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
