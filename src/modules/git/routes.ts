/**
 * /api/git: the branch-tip file read (any authenticated caller) and the branch cleanup sweep (CEO
 * and PMs). Thin: schema in, the reader or the sweep, the view out.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireIdentity, requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { CleanupBody, CleanupView, FileQuery, FileSliceView, TAGS } from './api-schemas.js';
import type { BranchCleanup } from './branch-cleanup.js';
import { CLEANUP_ROLES } from './cleanup-rules.js';
import type { BranchFileReader } from './file-reader.js';
import { FILE_WINDOW } from './file-window.js';
import { cleanupView, fileSliceView } from './views.js';

const gitFailed = errorResponse('Git could not read or change the project repository (`git_failed`).');

export function registerGitRoutes(
  app: FastifyInstance,
  reader: BranchFileReader,
  cleanup: BranchCleanup,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

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
