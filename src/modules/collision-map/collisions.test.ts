/** The collision rule: glob overlap or two migrations; shared alone never; order and caps. */
import { describe, expect, it } from 'vitest';
import { compareSiblings, findCollisions, hasCollisionSurface, type SiblingCandidate } from './collisions.js';

const surface = (intendsToTouch: string[], addsMigration = false, touchesShared = false) => ({
  intendsToTouch,
  addsMigration,
  touchesShared,
});

let counter = 0;
const sibling = (fields: Partial<SiblingCandidate> = {}): SiblingCandidate => ({
  id: `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`,
  priority: 2,
  sequence: 0,
  ...surface([]),
  ...fields,
});

describe('hasCollisionSurface', () => {
  it('is any glob, a migration or shared code', () => {
    expect(hasCollisionSurface(surface([]))).toBe(false);
    expect(hasCollisionSurface(surface(['src/**']))).toBe(true);
    expect(hasCollisionSurface(surface([], true))).toBe(true);
    expect(hasCollisionSurface(surface([], false, true))).toBe(true);
  });
});

describe('findCollisions', () => {
  it('reports overlapping globs of the sibling, in its declared order', () => {
    const other = sibling({ intendsToTouch: ['docs/**', 'src/api/*.ts', 'src/api/users.ts'] });
    const { collisions } = findCollisions(surface(['src/api/**']), [other]);
    expect(collisions).toEqual([
      { sibling: other, overlap: ['src/api/*.ts', 'src/api/users.ts'], bothAddMigrations: false },
    ]);
  });

  it('ignores siblings whose globs are disjoint', () => {
    const other = sibling({ intendsToTouch: ['src/web/**', 'README.md'] });
    expect(findCollisions(surface(['src/api/**']), [other]).collisions).toEqual([]);
  });

  it('collides when both add a migration, even with disjoint globs', () => {
    const other = sibling({ intendsToTouch: ['src/web/**'], addsMigration: true });
    const { collisions } = findCollisions(surface(['src/api/**'], true), [other]);
    expect(collisions).toEqual([{ sibling: other, overlap: [], bothAddMigrations: true }]);
  });

  it('one migration alone does not collide', () => {
    const other = sibling({ addsMigration: true });
    expect(findCollisions(surface(['src/api/**']), [other]).collisions).toEqual([]);
    expect(findCollisions(surface([], true), [sibling({ intendsToTouch: ['x'] })]).collisions).toEqual([]);
  });

  it('touching shared code alone never collides', () => {
    const other = sibling({ touchesShared: true });
    expect(findCollisions(surface([], false, true), [other]).collisions).toEqual([]);
  });

  it('a task with no surface collides with nobody', () => {
    const other = sibling({ intendsToTouch: ['**'], addsMigration: true, touchesShared: true });
    expect(findCollisions(surface([]), [other]).collisions).toEqual([]);
  });

  it('lists at most five overlapping globs per sibling', () => {
    const globs = Array.from({ length: 7 }, (_, i) => `src/api/f${i}.ts`);
    const { collisions } = findCollisions(surface(['src/api/**']), [sibling({ intendsToTouch: globs })]);
    expect(collisions[0]!.overlap).toEqual(globs.slice(0, 5));
  });

  it('sorts by priority, sequence, id and keeps the first ten', () => {
    const all = [
      sibling({ priority: 3, sequence: 0 }),
      sibling({ priority: 1, sequence: 2 }),
      sibling({ priority: 1, sequence: 1 }),
      ...Array.from({ length: 10 }, () => sibling({ priority: 2 })),
    ].map((s) => ({ ...s, intendsToTouch: ['src/**'] }));
    const { collisions, truncated } = findCollisions(surface(['src/a.ts']), [...all].reverse());
    expect(truncated).toBe(true);
    expect(collisions).toHaveLength(10);
    expect(collisions.map((c) => c.sibling)).toEqual([all[2], all[1], ...all.slice(3, 11)]);
  });

  it('is not truncated at exactly ten', () => {
    const all = Array.from({ length: 10 }, () => sibling({ intendsToTouch: ['src/**'] }));
    expect(findCollisions(surface(['src/a.ts']), all).truncated).toBe(false);
  });
});

describe('compareSiblings', () => {
  it('orders by priority, then sequence, then id', () => {
    const a = sibling({ priority: 0, sequence: 9 });
    const b = sibling({ priority: 1, sequence: 0 });
    const c = sibling({ priority: 1, sequence: 0 });
    expect([c, b, a].sort(compareSiblings)).toEqual([a, b, c]);
  });
});
