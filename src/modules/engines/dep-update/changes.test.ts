import { describe, expect, it } from 'vitest';
import { diffStatLines, type LockfileChange, lockfileChanges, parseNumstat, parseStatus } from './changes.js';

describe('parseStatus', () => {
  it('reads modified, staged, new, deleted and renamed entries', () => {
    const output = [
      ' M package-lock.json',
      'M  Cargo.lock',
      '?? deps/new.lock',
      'A  go.sum',
      ' D yarn.lock',
      'R  uv.lock',
      'old-uv.lock',
      '!! ignored.lock',
      '',
    ].join('\0');
    expect(parseStatus(output)).toEqual([
      { path: 'package-lock.json', kind: 'modified' },
      { path: 'Cargo.lock', kind: 'modified' },
      { path: 'deps/new.lock', kind: 'added' },
      { path: 'go.sum', kind: 'added' },
      { path: 'yarn.lock', kind: 'deleted' },
      { path: 'uv.lock', kind: 'added' },
      { path: 'old-uv.lock', kind: 'deleted' },
    ]);
  });

  it('reads nothing from an empty status', () => {
    expect(parseStatus('')).toEqual([]);
  });
});

describe('parseNumstat and lockfileChanges', () => {
  it('joins line counts (null for binary files and untracked ones) and sorts by path', () => {
    const counts = parseNumstat(['12\t8\tpackage-lock.json', '-\t-\tbun.lockb', ''].join('\0'));
    const changes = lockfileChanges(
      [
        { path: 'package-lock.json', kind: 'modified' },
        { path: 'bun.lockb', kind: 'modified' },
        { path: 'deps/new.lock', kind: 'added' },
      ],
      counts,
    );
    expect(changes).toEqual([
      { path: 'bun.lockb', kind: 'modified', insertions: null, deletions: null },
      { path: 'deps/new.lock', kind: 'added', insertions: null, deletions: null },
      { path: 'package-lock.json', kind: 'modified', insertions: 12, deletions: 8 },
    ]);
  });
});

describe('diffStatLines', () => {
  it('lists each lockfile with its manager and counts, then the total', () => {
    const changes: LockfileChange[] = [
      { path: 'bun.lockb', kind: 'modified', insertions: null, deletions: null },
      { path: 'deps/lock.json', kind: 'added', insertions: null, deletions: null },
      { path: 'package-lock.json', kind: 'modified', insertions: 12, deletions: 8 },
      { path: 'yarn.lock', kind: 'deleted', insertions: 0, deletions: 40 },
    ];
    expect(diffStatLines(changes)).toEqual([
      '- bun.lockb (bun): binary change',
      '- deps/lock.json: new file',
      '- package-lock.json (npm): +12 -8',
      '- yarn.lock (yarn): deleted',
      '4 lockfiles changed, 12 insertions(+), 48 deletions(-)',
    ]);
  });

  it('stays short however many lockfiles changed', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({
      path: `pkg${String(i).padStart(2, '0')}/package-lock.json`,
      kind: 'modified' as const,
      insertions: 1,
      deletions: 1,
    }));
    const lines = diffStatLines(many);
    expect(lines).toHaveLength(22);
    expect(lines.at(-2)).toBe('- … and 10 more');
    expect(lines.at(-1)).toBe('30 lockfiles changed, 30 insertions(+), 30 deletions(-)');
  });
});
