/**
 * The single-migration-head check. Pure, over the migration files' text.
 *
 * - drizzle-kit (our layout): every `<dir>/meta/NNNN_snapshot.json` carries its `id` and the `prevId`
 *   of the snapshot it follows. A linear chain has exactly one head (an id no snapshot names as its
 *   prevId); two migrations generated in parallel on two branches share a prevId and make two heads.
 *   Each migrations folder is judged on its own.
 * - Alembic: `revision = '…'` / `down_revision = …` (a tuple for a merge) in `alembic/versions/*.py`;
 *   heads are revisions nobody names as a down revision.
 * A repository without migrations passes.
 */

export interface MigrationFile {
  path: string;
  text: string;
}

export interface MigrationChain {
  /** The folder holding the chain (`src/platform/db/migrations`, `alembic/versions`). */
  dir: string;
  system: 'drizzle' | 'alembic';
  migrations: number;
  heads: string[];
  /** Files that could not be read as a migration. */
  unreadable: string[];
}

/** Glob pathspecs (for `git ls-files`) of the files the check reads. */
export const MIGRATION_PATHSPECS = [':(glob)**/meta/*_snapshot.json', ':(glob)**/alembic/versions/*.py'];

const DRIZZLE_SNAPSHOT = /^(?:(.*)\/)?meta\/[^/]+_snapshot\.json$/;
const ALEMBIC_VERSION = /^((?:.*\/)?alembic\/versions)\/[^/]+\.py$/;

export function migrationChains(files: readonly MigrationFile[]): MigrationChain[] {
  const groups = new Map<string, { system: MigrationChain['system']; files: MigrationFile[] }>();
  for (const file of files) {
    const drizzle = DRIZZLE_SNAPSHOT.exec(file.path);
    const alembic = drizzle ? null : ALEMBIC_VERSION.exec(file.path);
    if (!drizzle && !alembic) continue;
    const dir = (drizzle ? drizzle[1] : alembic?.[1]) ?? '.';
    const key = `${drizzle ? 'drizzle' : 'alembic'}:${dir}`;
    const group = groups.get(key) ?? { system: drizzle ? 'drizzle' : 'alembic', files: [] };
    group.files.push(file);
    groups.set(key, group);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, group]) => chainOf(key.slice(key.indexOf(':') + 1), group.system, group.files));
}

interface Link {
  id: string;
  parents: string[];
}

function chainOf(
  dir: string,
  system: MigrationChain['system'],
  files: readonly MigrationFile[],
): MigrationChain {
  const links: Link[] = [];
  const unreadable: string[] = [];
  for (const file of files) {
    const link = system === 'drizzle' ? drizzleLink(file.text) : alembicLink(file.text);
    if (link) links.push(link);
    else if (system === 'drizzle' || !/__init__\.py$/.test(file.path)) unreadable.push(file.path);
  }
  const referenced = new Set(links.flatMap((link) => link.parents));
  const heads = links.map((link) => link.id).filter((id) => !referenced.has(id));
  return {
    dir,
    system,
    migrations: links.length,
    heads: [...new Set(heads)].sort(),
    unreadable: unreadable.sort(),
  };
}

function drizzleLink(text: string): Link | null {
  try {
    const parsed = JSON.parse(text) as { id?: unknown; prevId?: unknown };
    if (typeof parsed.id !== 'string') return null;
    return { id: parsed.id, parents: typeof parsed.prevId === 'string' ? [parsed.prevId] : [] };
  } catch {
    return null;
  }
}

const ALEMBIC_REVISION = /^revision\s*(?::\s*[^=]+)?=\s*['"]([^'"]+)['"]/m;
const ALEMBIC_DOWN = /^down_revision\s*(?::\s*[^=]+)?=\s*(.+)$/m;

function alembicLink(text: string): Link | null {
  const id = ALEMBIC_REVISION.exec(text)?.[1];
  if (!id) return null;
  const down = ALEMBIC_DOWN.exec(text)?.[1] ?? '';
  const parents = [...down.matchAll(/['"]([^'"]+)['"]/g)].map((match) => match[1]!);
  return { id, parents };
}

/** The gap lines of the chains that do not have exactly one head. */
export function migrationGaps(chains: readonly MigrationChain[]): string[] {
  const gaps: string[] = [];
  for (const chain of chains) {
    if (chain.unreadable.length) {
      gaps.push(
        `${chain.dir}: ${chain.unreadable.length} migration file(s) could not be read (${chain.unreadable.slice(0, 3).join(', ')})`,
      );
    }
    if (chain.migrations > 0 && chain.heads.length !== 1) {
      gaps.push(
        chain.heads.length === 0
          ? `${chain.dir}: the ${chain.system} migration chain has no head (a cycle)`
          : `${chain.dir}: ${chain.heads.length} ${chain.system} migration heads (${chain.heads.join(', ')}); the chain must have a single head`,
      );
    }
  }
  return gaps;
}
