/**
 * /api/docs: write a documentation file for a task (a commit on the task's branch; the path ACL
 * names the rule it applies in a 403 or 422), read one (content and commit), list by project,
 * task or type, delete (a commit removing the file). Anyone authenticated reads.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Identity } from '../../platform/http/auth/index.js';
import { requireIdentity } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import {
  DocList,
  DocListQuery,
  DocParams,
  DocSchema,
  DocWithContent,
  TAGS,
  WriteDocBody,
  WriteDocResult,
} from './api-schemas.js';
import type { DocsService, DocWriter } from './service.js';

const invalid = errorResponse('The request is invalid; `details` names the field or the path rule.');
const missing = errorResponse('No such doc (or task).');
const gitState = errorResponse('The task has no repository or branch, or git refused the commit.');

const ACL =
  'Paths live under docs/, plain and relative (no `..`, absolute path or `.git`), with a text extension, ' +
  'at most 512 KiB. The CEO writes anywhere under docs/; a documenter anywhere but docs/internal/; a ' +
  'developer under docs/api, docs/architecture, docs/design; QA under docs/qa; other roles nowhere. ' +
  'Outside the CEO only the task’s own cell writes its docs. A refusal names its rule in `details.rule`.';

export function registerDocsRoutes(
  app: FastifyInstance,
  service: DocsService,
  writerOf: (identity: Identity) => Promise<DocWriter>,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const base = { preValidation: requireIdentity };

  api.post(
    '/api/docs',
    {
      ...base,
      schema: {
        tags: TAGS,
        summary: 'Write (create or replace) a documentation file for a task',
        description: `Commits the file on the task’s branch (in the writer’s worktree of the task) and publishes it. ${ACL}`,
        body: WriteDocBody,
        response: {
          200: WriteDocResult,
          201: WriteDocResult,
          ...authErrorResponses,
          404: missing,
          409: gitState,
          422: invalid,
        },
      },
    },
    async (request, reply) => {
      const result = await service.write(await writerOf(request.identity!), request.body);
      return reply.code(result.status === 'created' ? 201 : 200).send(result);
    },
  );

  api.get(
    '/api/docs',
    {
      ...base,
      schema: {
        tags: TAGS,
        summary: 'Documentation files, most recently changed first',
        querystring: DocListQuery,
        response: { 200: DocList, ...authErrorResponses, 422: invalid },
      },
    },
    async (request) => service.list(request.query),
  );

  api.get(
    '/api/docs/:id',
    {
      ...base,
      schema: {
        tags: TAGS,
        summary: 'One documentation file with its content and commit',
        params: DocParams,
        response: { 200: DocWithContent, ...authErrorResponses, 404: missing },
      },
    },
    async (request) => service.get(request.params.id),
  );

  api.delete(
    '/api/docs/:id',
    {
      ...base,
      schema: {
        tags: TAGS,
        summary: 'Delete a documentation file',
        description: `A commit removing the file from the task’s branch; the record keeps a tombstone. Same ACL as writing. ${ACL}`,
        params: DocParams,
        response: { 200: DocSchema, ...authErrorResponses, 404: missing, 409: gitState },
      },
    },
    async (request) => service.delete(await writerOf(request.identity!), request.params.id),
  );
}
