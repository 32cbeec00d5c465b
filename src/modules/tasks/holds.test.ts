/** Claim holds (reference A §5): open dependencies and the sibling-sequence bar. */
import { describe, expect, it } from 'vitest';
import { openDependencies, sequenceBlockers } from './holds.js';

const sibling = (
  id: string,
  sequence: number,
  status = 'pending',
  deps: string[] = [],
  done: string[] = [],
) => ({
  id,
  sequence,
  status,
  dependencyIds: deps,
  completedDependencyIds: done,
});

describe('openDependencies', () => {
  it('keeps the non-terminal ones', () => {
    expect(
      openDependencies([
        { id: 'a', status: 'completed' },
        { id: 'b', status: 'cancelled' },
        { id: 'c', status: 'in_progress' },
      ]).map((d) => d.id),
    ).toEqual(['c']);
  });
});

describe('sequenceBlockers', () => {
  it('never holds sequence 0, nor a task whose lower siblings are all terminal', () => {
    const a = sibling('a', 0);
    expect(sequenceBlockers(a, [a, sibling('b', 0)], true)).toEqual([]);
    const c = sibling('c', 2);
    expect(sequenceBlockers(c, [sibling('a', 1, 'completed'), c], false)).toEqual([]);
  });

  it('holds on every open lower sibling when strict (MegaTask waves), not on equal ones', () => {
    const task = sibling('t', 2);
    const blockers = sequenceBlockers(
      task,
      [sibling('a', 1), sibling('b', 2), sibling('c', 1, 'cancelled'), task],
      true,
    );
    expect(blockers.map((b) => b.id)).toEqual(['a']);
  });

  it('falls back to the strict rule when the task has no edge to any sibling', () => {
    const task = sibling('t', 2);
    expect(sequenceBlockers(task, [sibling('a', 1), sibling('b', 1), task], false).map((b) => b.id)).toEqual([
      'a',
      'b',
    ]);
  });

  it('otherwise holds only on transitive predecessors', () => {
    // t depends on b (done), b depended on a; c is unrelated.
    const task = sibling('t', 3, 'pending', [], ['b']);
    const siblings = [sibling('a', 1), sibling('b', 2, 'in_progress', ['a']), sibling('c', 1), task];
    expect(sequenceBlockers(task, siblings, false).map((s) => s.id)).toEqual(['a', 'b']);
  });

  it('counts incoming edges as connection, so an unrelated lower sibling does not hold it', () => {
    const task = sibling('t', 2);
    const siblings = [sibling('a', 1), sibling('d', 3, 'pending', ['t']), task];
    expect(sequenceBlockers(task, siblings, false)).toEqual([]);
  });
});
