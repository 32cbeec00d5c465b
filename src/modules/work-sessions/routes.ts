/**
 * /api/work-sessions: list and read for any authenticated caller; start, record a commit or a PR,
 * and end for the task's owner (assignee, active claimant, the session's agent) or the CEO or a PM.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireIdentity } from '../../platform/http/auth/index.js';
import { authErrorResponses, ErrorResponse, errorResponse } from '../../platform/http/error-schema.js';
import {
  CommitBody,
  EndBody,
  PrBody,
  SessionIdParams,
  SessionListQuery,
  SessionPageView,
  StartSessionBody,
  TAGS,
  WorkSessionView,
} from './api-schemas.js';
import type { WorkSession, WorkSessionsService } from './service.js';

const view = (s: WorkSession) => ({
  id: s.id,
  task_id: s.taskId,
  agent_id: s.agentId,
  branch: s.branch,
  base_branch: s.baseBranch,
  status: s.status as 'active' | 'completed' | 'abandoned',
  commits: s.commits,
  files_changed: s.filesChanged,
  pr_number: s.prNumber,
  pr_url: s.prUrl,
  started_at: s.startedAt.toISOString(),
  ended_at: s.endedAt?.toISOString() ?? null,
});

const notActive = errorResponse('`session_not_active`: the session has ended.');
const changeResponses = {
  200: WorkSessionView,
  ...authErrorResponses,
  404: ErrorResponse,
  409: notActive,
  422: ErrorResponse,
};

export function registerWorkSessionRoutes(app: FastifyInstance, service: WorkSessionsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // requireIdentity has run: the identity is there.
  const actor = (request: FastifyRequest) => service.actorFor(request.identity!);

  api.get(
    '/api/work-sessions',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'List work sessions, most recently started first',
        querystring: SessionListQuery,
        response: { 200: SessionPageView, ...authErrorResponses, 422: ErrorResponse },
      },
    },
    async (request) => {
      const { task_id, agent_id, status, limit, offset } = request.query;
      const page = await service.list({ taskId: task_id, agentId: agent_id, status, limit, offset });
      return { ...page, sessions: page.sessions.map(view) };
    },
  );

  api.get(
    '/api/work-sessions/:id',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Read one work session',
        params: SessionIdParams,
        response: { 200: WorkSessionView, ...authErrorResponses, 404: ErrorResponse, 422: ErrorResponse },
      },
    },
    async (request) => view(await service.get(request.params.id)),
  );

  api.post(
    '/api/work-sessions',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Start a work session on a task',
        description:
          'The caller must be the task’s assignee or active claimant, or the CEO or a PM. 409 `session_active` ' +
          'when the task already has an active session, 409 `task_terminal` for a completed or cancelled task.',
        body: StartSessionBody,
        response: {
          201: WorkSessionView,
          ...authErrorResponses,
          404: ErrorResponse,
          409: errorResponse('`session_active` or `task_terminal`.'),
          422: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const { task_id, branch, base_branch, agent_id } = request.body;
      const session = await service.start(
        { taskId: task_id, branch, baseBranch: base_branch, agentId: agent_id },
        await actor(request),
      );
      return reply.status(201).send(view(session));
    },
  );

  api.post(
    '/api/work-sessions/:id/commits',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Record a commit on an active session',
        description:
          'Appends the commit (a hash already recorded is kept once) and adds `files` to files_changed.',
        params: SessionIdParams,
        body: CommitBody,
        response: changeResponses,
      },
    },
    async (request) =>
      view(await service.recordCommit(request.params.id, request.body, await actor(request))),
  );

  api.post(
    '/api/work-sessions/:id/pr',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Record the pull request of an active session',
        params: SessionIdParams,
        body: PrBody,
        response: changeResponses,
      },
    },
    async (request) => {
      const { pr_number, pr_url } = request.body;
      return view(
        await service.recordPr(
          request.params.id,
          { prNumber: pr_number, prUrl: pr_url },
          await actor(request),
        ),
      );
    },
  );

  api.post(
    '/api/work-sessions/:id/end',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'End an active session as completed or abandoned',
        params: SessionIdParams,
        body: EndBody,
        response: changeResponses,
      },
    },
    async (request) => view(await service.end(request.params.id, request.body.status, await actor(request))),
  );
}
