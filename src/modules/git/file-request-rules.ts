/**
 * Which branches and file paths `GET /api/git/file` reads, as pure rules. Paths are
 * repository-relative only; refused with a reason (answered as 422): empty, too long, absolute
 * (`/etc/passwd`, `C:\…`, `\\server`), a backslash anywhere (git paths use `/`; a backslash is how
 * traversal hides on some systems), a NUL or other control character, or a `..` segment. Branch
 * names follow git's ref-name rules, so a branch can never smuggle in a revision expression.
 */

export const REPO_PATH_MAX_LENGTH = 4096;

/** Why `path` is not a repository-relative file path, or null when it is. */
export function repoPathProblem(path: string): string | null {
  if (path.length === 0) return 'the path is empty';
  if (path.length > REPO_PATH_MAX_LENGTH) return `the path is longer than ${REPO_PATH_MAX_LENGTH} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(path)) return 'the path contains a NUL or another control character';
  if (path.includes('\\')) return 'the path contains a backslash; repository paths use forward slashes';
  if (path.startsWith('/')) return 'the path is absolute; give it relative to the repository root';
  if (/^[A-Za-z]:/.test(path)) return 'the path names a drive; give it relative to the repository root';
  const segments = path.split('/');
  if (segments.includes('..'))
    return 'the path climbs out with ".."; give it relative to the repository root';
  if (segments.every((segment) => segment === '' || segment === '.')) return 'the path names no file';
  return null;
}

/** The path as git reads it: `./` and empty segments dropped (`./src//a.ts` → `src/a.ts`). */
export function normalizeRepoPath(path: string): string {
  return path
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
}
