import { describe, expect, it } from 'vitest';
import {
  type ChangedFile,
  changeSummary,
  diffRows,
  foldedByDefault,
  type Line,
  pairUp,
  rowIndexes,
} from './diff-rows';

const file = (path: string, fields: Partial<ChangedFile> = {}): ChangedFile => ({
  path,
  previous_path: null,
  status: 'modified',
  additions: 1,
  deletions: 1,
  binary: false,
  truncated: false,
  hunks: [
    {
      header: '@@ -1 +1 @@',
      old_start: 1,
      old_lines: 1,
      new_start: 1,
      new_lines: 1,
      lines: [
        { kind: 'del', text: 'a', old_line: 1, new_line: null },
        { kind: 'add', text: 'b', old_line: null, new_line: 1 },
      ],
    },
  ],
  ...fields,
});

describe('the rows of a change', () => {
  it("draws each file's header, hunk header and lines; folds lock and generated files until opened", () => {
    const files = [file('src/a.ts'), file('package-lock.json'), file('dist/app.min.js')];
    const rows = diffRows(files, new Map());
    expect(rows.map((r) => r.kind)).toEqual(['file', 'hunk', 'line', 'line', 'file', 'file']);
    expect(rows.filter((r) => r.kind === 'file').map((r) => r.kind === 'file' && r.folded)).toEqual([
      false,
      true,
      true,
    ]);
    expect(rowIndexes(rows, 'file')).toEqual([0, 4, 5]);
    expect(rowIndexes(rows, 'hunk')).toEqual([1]);
    const opened = diffRows(
      files,
      new Map([
        ['package-lock.json', false],
        ['src/a.ts', true],
      ]),
    );
    expect(opened.map((r) => r.kind)).toEqual(['file', 'file', 'hunk', 'line', 'line', 'file']);
  });

  it('names a binary file, a bare rename and a file cut short', () => {
    const rows = diffRows(
      [
        file('logo.png', { binary: true, hunks: [] }),
        file('b.ts', { status: 'renamed', previous_path: 'a.ts', hunks: [] }),
        file('big.txt', { truncated: true }),
      ],
      new Map(),
    );
    expect(rows.filter((r) => r.kind === 'note').map((r) => r.kind === 'note' && r.text)).toEqual([
      'Binary file: not shown.',
      'Renamed without changes.',
      'Cut short here: the whole file is one click away.',
    ]);
  });

  it('folds lock files and build output, not sources', () => {
    expect(
      ['yarn.lock', 'web/pnpm-lock.yaml', 'dist/index.js', 'a.min.css', 'api.generated.ts'].every(
        foldedByDefault,
      ),
    ).toBe(true);
    expect(['src/lock.ts', 'README.md', 'distance.ts'].some(foldedByDefault)).toBe(false);
  });

  it('puts each finding after the line it names, or under its file when that line is not drawn', () => {
    const note = (line: number | null, id8: string) => ({
      file: 'src/a.ts',
      line,
      id8,
      severity: 'major',
      status: 'open',
      text: 'x',
    });
    const rows = diffRows([file('src/a.ts'), file('src/b.ts')], new Map(), [
      note(1, 'on-line'),
      note(40, 'elsewhere'),
      note(null, 'whole-file'),
    ]);
    expect(rows.map((r) => (r.kind === 'finding' ? r.note.id8 : r.kind))).toEqual([
      'file',
      'elsewhere',
      'whole-file',
      'hunk',
      'line',
      'line',
      'on-line',
      'file',
      'hunk',
      'line',
      'line',
    ]);
  });

  it('sums a change up', () => {
    expect(changeSummary({ files: 3, additions: 1200, deletions: 4, commits: 2 })).toBe(
      '+1,200 −4 in 3 files',
    );
    expect(changeSummary({ files: 1, additions: 0, deletions: 0, commits: 1 })).toBe('+0 −0 in 1 file');
  });

  it('pairs each run of deletions with the additions after it in split mode, context beside itself', () => {
    const ln = (
      kind: Line['kind'],
      text: string,
      old_line: number | null,
      new_line: number | null,
    ): Line => ({
      kind,
      text,
      old_line,
      new_line,
    });
    const lines = [
      ln('context', 'a', 1, 1),
      ln('del', 'b', 2, null),
      ln('del', 'c', 3, null),
      ln('add', 'B', null, 2),
      ln('context', 'd', 4, 3),
      ln('add', 'e', null, 4),
    ];
    expect(pairUp(lines).map((p) => [p.left?.text ?? null, p.right?.text ?? null])).toEqual([
      ['a', 'a'],
      ['b', 'B'],
      ['c', null],
      ['d', 'd'],
      [null, 'e'],
    ]);
    const note = { file: 'src/a.ts', line: 1, id8: 'n1', severity: 'minor', status: 'open', text: 'x' };
    const rows = diffRows([file('src/a.ts')], new Map(), [note], 'split');
    expect(rows.map((r) => r.kind)).toEqual(['file', 'hunk', 'pair', 'finding']);
    expect(rows[2]).toMatchObject({
      kind: 'pair',
      language: 'typescript',
      left: { text: 'a' },
      right: { text: 'b' },
    });
  });
});
