/**
 * Which files of a clone are lockfiles: the project's explicit `dep_update_paths`, or — without
 * them — the lockfiles the repository tracks, recognised by name per package manager
 * (DESIGN.md §5). Pure.
 */

export interface LockfileRule {
  manager: string;
  matches(fileName: string): boolean;
}

const named = (manager: string, ...names: string[]): LockfileRule => ({
  manager,
  matches: (fileName) => names.includes(fileName),
});

export const LOCKFILE_RULES: readonly LockfileRule[] = [
  named('npm', 'package-lock.json'),
  named('pnpm', 'pnpm-lock.yaml'),
  named('yarn', 'yarn.lock'),
  named('bun', 'bun.lock', 'bun.lockb'),
  named('uv', 'uv.lock'),
  named('poetry', 'poetry.lock'),
  { manager: 'pip-tools', matches: (fileName) => /^requirements.*\.txt$/.test(fileName) },
  named('cargo', 'Cargo.lock'),
  named('go', 'go.sum'),
  named('bundler', 'Gemfile.lock'),
  named('composer', 'composer.lock'),
  named('mix', 'mix.lock'),
];

/** Folders whose contents are installed or vendored dependencies, never a project's own lockfile. */
const DEPENDENCY_FOLDERS = new Set(['node_modules', 'vendor', '.git']);

const fileNameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** The package manager a lockfile path belongs to, or null when it is no lockfile. */
export function lockfileManager(path: string): string | null {
  const name = fileNameOf(path);
  return LOCKFILE_RULES.find((rule) => rule.matches(name))?.manager ?? null;
}

/**
 * The lockfiles among a clone's tracked paths (`/`-separated, relative to the root), at any depth
 * (a monorepo's packages keep their own) but never inside installed dependencies. Sorted.
 */
export function inferLockfiles(trackedPaths: readonly string[]): string[] {
  return trackedPaths
    .filter((path) => lockfileManager(path) !== null)
    .filter((path) => !path.split('/').some((segment) => DEPENDENCY_FOLDERS.has(segment)))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The explicit paths of `dep_update_paths` (stored comma-separated), or null when none are set. */
export function explicitLockfilePaths(depUpdatePaths: string | null): string[] | null {
  const paths = (depUpdatePaths ?? '')
    .split(',')
    .map((path) => path.trim())
    .filter(Boolean);
  return paths.length > 0 ? [...new Set(paths)] : null;
}
