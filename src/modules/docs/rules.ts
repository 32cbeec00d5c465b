/**
 * Which documentation file an agent may write (reference C §7.8, adapted to files in the
 * project's repository): every doc lives under `docs/`, as a plain path (no `..`, no absolute
 * path, no `.git`), with a text extension, within the size cap. By role: the CEO anywhere under
 * docs/; a documenter anywhere but docs/internal/ (CEO only); a developer under docs/api,
 * docs/architecture and docs/design; QA under docs/qa; anyone else nowhere. Outside the CEO, only
 * the agents of the task's own cell write its docs.
 */
import { isSafeRepoPath } from '../workspaces/index.js';

export const DOC_TYPES = ['api', 'qa', 'guide', 'readme', 'changelog', 'architecture', 'design'] as const;
export type DocType = (typeof DOC_TYPES)[number];

export const DOC_EXTENSIONS = ['.md', '.markdown', '.mdx', '.txt', '.rst', '.adoc'] as const;
export const DOC_MAX_BYTES = 512 * 1024;
export const DOC_PATH_MAX = 255;

/** Folders (under the repository root) each role may write in; `*` = all of docs/ but docs/internal. */
const WRITABLE: Record<string, readonly string[]> = {
  ceo: ['docs/'],
  documenter: ['*'],
  developer: ['docs/api/', 'docs/architecture/', 'docs/design/'],
  qa: ['docs/qa/'],
};

export interface DocRefusal {
  status: 403 | 422;
  rule: string;
  message: string;
}

/** Why a path is not a documentation path at all (422), or null. */
export function pathProblem(path: string): DocRefusal | null {
  const bad = (rule: string, message: string): DocRefusal => ({ status: 422, rule, message });
  if (path.length > DOC_PATH_MAX)
    return bad('path_too_long', `a doc path has at most ${DOC_PATH_MAX} characters`);
  if (!isSafeRepoPath(path)) {
    return bad(
      'plain_relative_path',
      'a doc path is relative, `/`-separated, without `..`, `.` or `.git` parts',
    );
  }
  if (!path.startsWith('docs/')) return bad('under_docs', 'documentation files live under docs/');
  const lower = path.toLowerCase();
  if (!DOC_EXTENSIONS.some((ext) => lower.endsWith(ext))) {
    return bad('text_extension', `a doc file ends in one of ${DOC_EXTENSIONS.join(', ')}`);
  }
  return null;
}

/** Why `writer` may not write `path` on a task of `taskTeam` (403), or null. */
export function writeProblem(
  writer: { role: string; team: string | null },
  path: string,
  taskTeam: string,
): DocRefusal | null {
  const deny = (rule: string, message: string): DocRefusal => ({ status: 403, rule, message });
  const folders = WRITABLE[writer.role];
  if (!folders) return deny('role_writes_docs', `a ${writer.role} does not write documentation`);
  if (writer.role === 'ceo') return null;
  if (path.startsWith('docs/internal/'))
    return deny('internal_ceo_only', 'docs/internal/ is written by the CEO only');
  const allowed = folders.includes('*') || folders.some((folder) => path.startsWith(folder));
  if (!allowed) {
    return deny('folder_by_role', `a ${writer.role} writes under ${folders.join(', ')} only`);
  }
  if (writer.team !== taskTeam) {
    return deny('own_cell', `this task belongs to the ${taskTeam} cell; its docs are written by that cell`);
  }
  return null;
}

export function sizeProblem(content: string): DocRefusal | null {
  const bytes = Buffer.byteLength(content, 'utf8');
  return bytes > DOC_MAX_BYTES
    ? {
        status: 422,
        rule: 'size_cap',
        message: `a doc is at most ${DOC_MAX_BYTES} bytes (this one has ${bytes})`,
      }
    : null;
}
