/**
 * A task's change as the rows the review's diff draws, one after another: each file's header,
 * then (unless folded) its hunk headers and lines, or a note (binary, renamed only, cut short).
 * Lock files and generated files start folded; the reviewer opens them. In split mode a hunk's
 * lines are pairs, the old beside the new; every line row names its file's language. Flat rows let the view
 * draw only what is on screen, so a change of ten thousand lines scrolls as smoothly as ten.
 */
import type { paths } from '../../../api/schema';
import { languageOf } from './languages';

export type Change = paths['/api/tasks/{id}/changes']['get']['responses'][200]['content']['application/json'];
export type ChangedFile = Change['files'][number];
export type Line = ChangedFile['hunks'][number]['lines'][number];

/** Unified: one column, deletions above additions. Split: the old side beside the new one. */
export type DiffMode = 'unified' | 'split';

/** A review finding that names a file (and maybe a line), shown beside it. */
export interface LineNote {
  file: string;
  line: number | null;
  id8: string;
  severity: string;
  status: string;
  text: string;
}

export type Row =
  | { kind: 'file'; file: ChangedFile; index: number; folded: boolean }
  | { kind: 'hunk'; header: string }
  | { kind: 'line'; line: Line; language: string | null }
  /** Split view: the old line (or none) beside the new one (or none); a context line on both sides. */
  | { kind: 'pair'; left: Line | null; right: Line | null; language: string | null }
  | { kind: 'note'; text: string }
  | { kind: 'finding'; note: LineNote };

const LOCK_FILES =
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|Gemfile\.lock|poetry\.lock|composer\.lock|go\.sum)$/;
const GENERATED =
  /(^|\/)(dist|build|vendor|node_modules)\/|\.min\.(js|css)$|\.map$|(^|\/)[^/]+\.generated\.[^/]+$/;

/** Whether a file starts folded: a lock file or a generated one says little to a reviewer. */
export const foldedByDefault = (path: string) => LOCK_FILES.test(path) || GENERATED.test(path);

/**
 * The rows of `files`, each file folded as the reviewer chose in `folds` (path → folded), else as
 * `foldedByDefault` says; each note right after the line it names (its new line number), or under its
 * file's header when that line is not in the diff.
 */
export function diffRows(
  files: readonly ChangedFile[],
  folds: ReadonlyMap<string, boolean>,
  notes: readonly LineNote[] = [],
  mode: DiffMode = 'unified',
): Row[] {
  const rows: Row[] = [];
  files.forEach((file, index) => {
    const folded = folds.get(file.path) ?? foldedByDefault(file.path);
    rows.push({ kind: 'file', file, index, folded });
    if (folded) return;
    const mine = notes.filter((note) => note.file === file.path);
    const language = languageOf(file.path);
    const drawn = new Set(file.hunks.flatMap((hunk) => hunk.lines.map((line) => line.new_line)));
    for (const note of mine)
      if (note.line === null || !drawn.has(note.line)) rows.push({ kind: 'finding', note });
    if (file.binary) rows.push({ kind: 'note', text: 'Binary file: not shown.' });
    else if (file.hunks.length === 0)
      rows.push({
        kind: 'note',
        text: file.status === 'renamed' ? 'Renamed without changes.' : 'No line changes.',
      });
    for (const hunk of file.hunks) {
      rows.push({ kind: 'hunk', header: hunk.header });
      const drawnLines: Row[] =
        mode === 'split'
          ? pairUp(hunk.lines).map((pair) => ({ kind: 'pair', ...pair, language }))
          : hunk.lines.map((line) => ({ kind: 'line', line, language }));
      for (const row of drawnLines) {
        rows.push(row);
        const newLine =
          row.kind === 'line' ? row.line.new_line : row.kind === 'pair' ? row.right?.new_line : null;
        if (newLine === null || newLine === undefined) continue;
        for (const note of mine) if (note.line === newLine) rows.push({ kind: 'finding', note });
      }
    }
    if (file.truncated)
      rows.push({ kind: 'note', text: 'Cut short here: the whole file is one click away.' });
  });
  return rows;
}

/**
 * A hunk's lines side by side: each run of deletions beside the run of additions that follows it
 * (the longer one padded with nothing), each context line beside itself.
 */
export function pairUp(lines: readonly Line[]): { left: Line | null; right: Line | null }[] {
  const pairs: { left: Line | null; right: Line | null }[] = [];
  let dels: Line[] = [];
  let adds: Line[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(dels.length, adds.length); i++)
      pairs.push({ left: dels[i] ?? null, right: adds[i] ?? null });
    dels = [];
    adds = [];
  };
  for (const line of lines) {
    if (line.kind === 'del') {
      if (adds.length > 0) flush();
      dels.push(line);
    } else if (line.kind === 'add') adds.push(line);
    else {
      flush();
      pairs.push({ left: line, right: line });
    }
  }
  flush();
  return pairs;
}

/** The indexes of the rows of one kind, in order (file headers for n / p, hunk headers for j / k). */
export const rowIndexes = (rows: readonly Row[], kind: Row['kind']) =>
  rows.flatMap((row, i) => (row.kind === kind ? [i] : []));

/** "+12 −3 in 4 files". */
export function changeSummary(totals: Change['totals']): string {
  const files = `${totals.files} file${totals.files === 1 ? '' : 's'}`;
  return `+${totals.additions.toLocaleString()} −${totals.deletions.toLocaleString()} in ${files}`;
}
