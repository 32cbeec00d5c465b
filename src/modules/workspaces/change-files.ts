/**
 * The files of a change as the review page reads them, from git's own unified diff (never a
 * forge's): each file's path (and the one it had before a rename or copy), its status, line counts,
 * binary flag and hunks with every line's kind and both line numbers. Parsing is `gitdiff-parser`'s
 * (the parser react-diff-view uses), one file section at a time so a section's own text says
 * whether the file is binary; a hunk's ranges are read from its header.
 *
 * Caps keep an answer bounded: a file shows at most `fileLines` diff lines and the whole change
 * `totalLines`; a file cut short says `truncated` (its counts stay whole), and so does the change.
 */
import gitDiffParserModule, { type File as ParsedFile } from 'gitdiff-parser';

// A CommonJS module whose typings declare an ES default export: Node's default import is the
// parser itself.
const gitDiffParser = gitDiffParserModule as unknown as { parse(source: string): ParsedFile[] };

export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied';

export interface ChangeLine {
  kind: 'context' | 'add' | 'del';
  text: string;
  /** Line number before the change (null for an added line). */
  old_line: number | null;
  /** Line number after the change (null for a deleted line). */
  new_line: number | null;
}

export interface ChangeHunk {
  /** `@@ -a,b +c,d @@ section` as git printed it. */
  header: string;
  old_start: number;
  old_lines: number;
  new_start: number;
  new_lines: number;
  lines: ChangeLine[];
}

export interface ChangedFile {
  path: string;
  /** The path before a rename or copy; null otherwise. */
  previous_path: string | null;
  status: ChangeStatus;
  additions: number;
  deletions: number;
  binary: boolean;
  /** True when the caps left some of this file's lines out (the counts stay whole). */
  truncated: boolean;
  hunks: ChangeHunk[];
}

export interface LineCaps {
  /** Diff lines one file shows at most. */
  fileLines: number;
  /** Diff lines the whole change shows at most. */
  totalLines: number;
}

export const CHANGE_CAPS: LineCaps = { fileLines: 3_000, totalLines: 20_000 };

const STATUS: Record<ParsedFile['type'], ChangeStatus> = {
  add: 'added',
  delete: 'deleted',
  modify: 'modified',
  rename: 'renamed',
  copy: 'copied',
};

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Every file of a unified diff, shaped and capped. */
export function changedFiles(
  diff: string,
  caps: LineCaps = CHANGE_CAPS,
): { files: ChangedFile[]; truncated: boolean } {
  let budget = caps.totalLines;
  let truncated = false;
  const files: ChangedFile[] = [];
  for (const section of diff.split(/^(?=diff --git )/m)) {
    if (!section.startsWith('diff --git ')) continue;
    const parsed = gitDiffParser.parse(section)[0];
    if (!parsed) continue;
    const file = shapeFile(parsed, section);
    const cut = capFile(file, Math.min(caps.fileLines, budget));
    budget -= lineCount(cut);
    truncated ||= cut.truncated;
    files.push(cut);
  }
  return { files, truncated };
}

function shapeFile(parsed: ParsedFile, section: string): ChangedFile {
  const status = STATUS[parsed.type];
  const hunks = parsed.hunks.map(shapeHunk);
  const lines = hunks.flatMap((hunk) => hunk.lines);
  return {
    path: status === 'deleted' ? parsed.oldPath : parsed.newPath,
    previous_path: status === 'renamed' || status === 'copied' ? parsed.oldPath : null,
    status,
    additions: lines.filter((line) => line.kind === 'add').length,
    deletions: lines.filter((line) => line.kind === 'del').length,
    binary: /^(Binary files .* differ|GIT binary patch)$/m.test(section),
    truncated: false,
    hunks,
  };
}

function shapeHunk(hunk: ParsedFile['hunks'][number]): ChangeHunk {
  const [, oldStart = '0', oldLines = '1', newStart = '0', newLines = '1'] = HEADER.exec(hunk.content) ?? [];
  return {
    header: hunk.content,
    old_start: Number(oldStart),
    old_lines: Number(oldLines),
    new_start: Number(newStart),
    new_lines: Number(newLines),
    lines: hunk.changes.map((change): ChangeLine => {
      if (change.type === 'insert')
        return { kind: 'add', text: change.content, old_line: null, new_line: change.lineNumber };
      if (change.type === 'delete')
        return { kind: 'del', text: change.content, old_line: change.lineNumber, new_line: null };
      return {
        kind: 'context',
        text: change.content,
        old_line: change.oldLineNumber,
        new_line: change.newLineNumber,
      };
    }),
  };
}

const lineCount = (file: ChangedFile) => file.hunks.reduce((sum, hunk) => sum + hunk.lines.length, 0);

/** The file with at most `limit` diff lines: whole hunks while they fit, then the start of the next. */
function capFile(file: ChangedFile, limit: number): ChangedFile {
  if (lineCount(file) <= limit) return file;
  const hunks: ChangeHunk[] = [];
  let left = Math.max(0, limit);
  for (const hunk of file.hunks) {
    if (left === 0) break;
    hunks.push(hunk.lines.length <= left ? hunk : { ...hunk, lines: hunk.lines.slice(0, left) });
    left -= Math.min(left, hunk.lines.length);
  }
  return { ...file, hunks, truncated: true };
}
