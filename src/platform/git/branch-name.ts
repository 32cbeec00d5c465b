/** The one rule for branch names a user or an agent gives: what git check-ref-format accepts. */

export const BRANCH_NAME_MAX = 250;

/** Why `name` is not a usable git branch name, or null when it is. */
export function branchNameProblem(name: string): string | null {
  if (name.length === 0) return 'must not be empty';
  if (name.length > BRANCH_NAME_MAX) return `must be at most ${BRANCH_NAME_MAX} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(name)) {
    return 'must not contain spaces, control characters or any of ~ ^ : ? * [ \\';
  }
  if (name.startsWith('-')) return 'must not start with -';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) {
    return 'must not have empty path segments';
  }
  if (name.includes('..')) return 'must not contain ..';
  if (name.includes('@{') || name === '@') return 'must not contain @{ or be @';
  if (name.endsWith('.')) return 'must not end with .';
  for (const segment of name.split('/')) {
    if (segment.startsWith('.')) return 'no path segment may start with .';
    if (segment.endsWith('.lock')) return 'no path segment may end with .lock';
  }
  return null;
}
