/**
 * /api/git: the branch-tip file read (any authenticated caller) and the branch cleanup sweep (CEO
 * and PMs). Thin: schema in, the reader or the sweep, the view out.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireIdentity, requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { TaskIdParams } from '../tasks/index.js';
import { CleanupBody, CleanupView, FileQuery, FileSliceView, TAGS } from './api-schemas.js';
import type { BranchCleanup } from './branch-cleanup.js';
import { ChangeCiView, ChangedFileView, ChangeFileQuery, TaskChangeView } from './change-schemas.js';
import { CLEANUP_ROLES } from './cleanup-rules.js';
import type { BranchFileReader } from './file-reader.js';
import { FILE_WINDOW } from './file-window.js';
import { CHANGE_READER_ROLES, type TaskChangeReader } from './task-changes.js';
import { cleanupView, fileSliceView } from './views.js';

const gitFailed = errorResponse('Git could not read or change the project repository (`git_failed`).');

export function registerGitRoutes(
  app: FastifyInstance,
  reader: BranchFileReader,
  cleanup: BranchCleanup,
  changes: TaskChangeReader,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const changeReaders = requireRole(...CHANGE_READER_ROLES);
  const changeErrors = {
    ...authErrorResponses,
    404: errorResponse(
      'No such task (`not_found`), or the change does not touch the path (`path_not_in_change`).',
    ),
    409: errorResponse(
      'The task has no project (`task_not_in_project`) or no branch yet (`no_branch`), its branch or base is not on the ' +
        "project's remote (`branch_missing`, `base_missing`), or git failed (`git_failed`).",
    ),
    422: errorResponse('The task id or the path is malformed.'),
  };

  api.get(
    '/api/tasks/:id/changes',
    {
      preValidation: changeReaders,
      schema: {
        tags: TAGS,
        summary:
          "The task's change: files with hunks, commits, mergeability (CEO, PMs, PR reviewers, QA, auditor)",
        description:
          "The task's branch against its merge base with the branch it merges into (the parent task's branch, or the " +
          "project's head rung for a root task), read from Gaffer's mirror after a fetch — the same for a local, GitHub " +
          'or Gitea project. `mergeable` is a dry-run merge; `conflicts` names the paths when it is not clean. At most ' +
          '`limits.file_lines` diff lines per file and `limits.total_lines` in all (`truncated` says where); ' +
          '`…/changes/file?path=` answers one file whole. Computed once per pair of tips (`computed_at`).',
        params: TaskIdParams,
        response: { 200: TaskChangeView, ...changeErrors },
      },
    },
    async (request) => changes.change(request.params.id),
  );

  api.get(
    '/api/tasks/:id/changes/ci',
    {
      preValidation: changeReaders,
      schema: {
        tags: TAGS,
        summary: "What CI says of the task's head commit",
        description:
          "The forge's checks of the task branch's head commit (GitHub check runs, Gitea commit statuses): `pending` " +
          'while a run is going, `unknown` when none ran. A local project has no CI: `conclusion` is null. Read afresh ' +
          'on every call.',
        params: TaskIdParams,
        response: { 200: ChangeCiView, ...changeErrors },
      },
    },
    async (request) => changes.ci(request.params.id),
  );

  api.get(
    '/api/tasks/:id/changes/file',
    {
      preValidation: changeReaders,
      schema: {
        tags: TAGS,
        summary: "One file of the task's change, whole (no line caps)",
        params: TaskIdParams,
        querystring: ChangeFileQuery,
        response: { 200: ChangedFileView, ...changeErrors },
      },
    },
    async (request) => changes.file(request.params.id, request.query.path),
  );

  api.get(
    '/api/git/file',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Read a file at the tip of a branch (no workspace needed)',
        description:
          'The whole file, the lines around `line` (± `context`), or the range `start`..`end`; at most ' +
          `${FILE_WINDOW.maxLines} lines per answer (\`truncated\` says the cap cut the range). 422: a path that is ` +
          'absolute, climbs out with `..`, holds a backslash or a control character; a bad branch name; `line` with ' +
          '`start`/`end`; `start` after `end` or past the end of the file; `binary_file` for a binary file; ' +
          '`file_too_large` past 5 MiB. 404: unknown project, or no such file on the branch (or no such branch).',
        querystring: FileQuery,
        response: {
          200: FileSliceView,
          401: authErrorResponses[401],
          404: errorResponse('No such project, or no such file on the branch (`not_found`).'),
          409: gitFailed,
          422: errorResponse(
            'Invalid query, a binary file (`binary_file`) or one too large (`file_too_large`).',
          ),
        },
      },
    },
    async (request) => fileSliceView(await reader.slice(request.query)),
  );

  api.post(
    '/api/git/branches/cleanup',
    {
      preValidation: requireRole(...CLEANUP_ROLES),
      schema: {
        tags: TAGS,
        summary: 'Delete the branches of completed and cancelled tasks (CEO and PMs)',
        description:
          'Examines at most `limit` finished tasks that still record a branch, oldest first, and deletes each ' +
          'branch on the remote (a branch already gone counts as deleted) and the agents’ local worktrees and ' +
          'branches of the task. Never the default branch, an environment-ladder rung or a protected branch. ' +
          'Resume with `next_cursor`. A cell PM sweeps only its own cell’s tasks (403 for a project of another ' +
          'cell). Task rows are not changed.',
        body: CleanupBody,
        response: {
          200: CleanupView,
          ...authErrorResponses,
          404: errorResponse('No such project (`not_found`).'),
          422: errorResponse('Invalid body, or a cursor this sweep did not hand out (`validation_failed`).'),
        },
      },
    },
    async (request) => cleanupView(await cleanup.run(request.identity!, request.body)),
  );
}
