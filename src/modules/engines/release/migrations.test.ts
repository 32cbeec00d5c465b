import { describe, expect, it } from 'vitest';
import { migrationChains, migrationGaps } from './migrations.js';

const snapshot = (dir: string, name: string, id: string, prevId: string) => ({
  path: `${dir}/meta/${name}_snapshot.json`,
  text: JSON.stringify({ id, prevId, version: '7', tables: {} }),
});
const ZERO = '00000000-0000-0000-0000-000000000000';
const DIR = 'src/platform/db/migrations';

describe('single migration head', () => {
  it('passes a linear drizzle chain and a repository without migrations', () => {
    const chains = migrationChains([
      snapshot(DIR, '0000', 'a', ZERO),
      snapshot(DIR, '0001', 'b', 'a'),
      snapshot(DIR, '0002', 'c', 'b'),
    ]);
    expect(chains).toEqual([{ dir: DIR, system: 'drizzle', migrations: 3, heads: ['c'], unreadable: [] }]);
    expect(migrationGaps(chains)).toEqual([]);
    expect(migrationGaps(migrationChains([]))).toEqual([]);
  });

  it('flags two drizzle migrations generated in parallel from one parent', () => {
    const chains = migrationChains([
      snapshot(DIR, '0000', 'a', ZERO),
      snapshot(DIR, '0001', 'b', 'a'),
      snapshot(DIR, '0001', 'b2', 'a'),
    ]);
    expect(chains[0]!.heads).toEqual(['b', 'b2']);
    expect(migrationGaps(chains)).toEqual([
      `${DIR}: 2 drizzle migration heads (b, b2); the chain must have a single head`,
    ]);
  });

  it('judges each migrations folder on its own, and reports unreadable snapshots', () => {
    const chains = migrationChains([
      snapshot('a/migrations', '0000', 'x', ZERO),
      snapshot('b/migrations', '0000', 'y', ZERO),
      { path: 'b/migrations/meta/0001_snapshot.json', text: '{broken' },
      { path: 'meta/0000_snapshot.json', text: JSON.stringify({ id: 'root', prevId: ZERO }) },
    ]);
    expect(chains.map((chain) => [chain.dir, chain.heads])).toEqual([
      ['.', ['root']],
      ['a/migrations', ['x']],
      ['b/migrations', ['y']],
    ]);
    expect(migrationGaps(chains)).toEqual([
      'b/migrations: 1 migration file(s) could not be read (b/migrations/meta/0001_snapshot.json)',
    ]);
  });

  it('reads Alembic revisions, merge revisions included', () => {
    const rev = (id: string, down: string) => ({
      path: `alembic/versions/${id}.py`,
      text: `"""msg"""\nrevision = '${id}'\ndown_revision = ${down}\n`,
    });
    const linear = migrationChains([rev('a1', 'None'), rev('b2', "'a1'"), rev('c3', "'b2'")]);
    expect(linear[0]).toMatchObject({ system: 'alembic', heads: ['c3'] });
    const forked = migrationChains([rev('a1', 'None'), rev('b2', "'a1'"), rev('b3', "'a1'")]);
    expect(migrationGaps(forked)[0]).toMatch(/2 alembic migration heads \(b2, b3\)/);
    const merged = migrationChains([
      rev('a1', 'None'),
      rev('b2', "'a1'"),
      rev('b3', "'a1'"),
      rev('m4', "('b2', 'b3')"),
    ]);
    expect(merged[0]!.heads).toEqual(['m4']);
  });
});
