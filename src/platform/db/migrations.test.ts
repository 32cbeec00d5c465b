import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from './migrate.js';

interface Journal {
  entries: { idx: number; tag: string; when: number }[];
}

const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as Journal;

describe('migrations', () => {
  it('form one linear history: a single head, no gaps, every file accounted for', () => {
    const indexes = journal.entries.map((e) => e.idx);
    expect(indexes).toEqual(indexes.map((_, i) => i));
    const whens = journal.entries.map((e) => e.when);
    expect([...whens].sort((a, b) => a - b)).toEqual(whens);
    const sqlFiles = readdirSync(migrationsFolder).filter((f) => f.endsWith('.sql'));
    expect(sqlFiles.sort()).toEqual(journal.entries.map((e) => `${e.tag}.sql`).sort());
    const prefixes = sqlFiles.map((f) => f.slice(0, 4));
    expect(new Set(prefixes).size).toBe(prefixes.length);
    const snapshots = readdirSync(join(migrationsFolder, 'meta')).filter((f) => f.endsWith('_snapshot.json'));
    const ids = snapshots.map(
      (f) =>
        JSON.parse(readFileSync(join(migrationsFolder, 'meta', f), 'utf8')) as { id: string; prevId: string },
    );
    // Each snapshot points at its predecessor; exactly one is pointed at by nobody (the head).
    const pointedAt = new Set(ids.map((s) => s.prevId));
    expect(ids.filter((s) => !pointedAt.has(s.id))).toHaveLength(1);
  });

  it('match the schema declared in code (drizzle-kit finds nothing to generate)', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'gaffer-migrations-'));
    try {
      cpSync(migrationsFolder, scratch, { recursive: true });
      const root = join(migrationsFolder, '../../../..');
      const output = execFileSync(
        join(root, 'node_modules/.bin/drizzle-kit'),
        [
          'generate',
          '--dialect',
          'postgresql',
          '--schema',
          './src/**/schema.ts',
          '--out',
          relative(root, scratch),
        ],
        { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
      expect(output).toContain('No schema changes');
      expect(readdirSync(scratch).filter((f) => f.endsWith('.sql'))).toHaveLength(journal.entries.length);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);
});
