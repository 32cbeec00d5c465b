/**
 * /api/tasks: create, read, list, audit trail, PATCH (with CEO god mode), assign-review-pm and
 * approve-and-start; the lifecycle action routes are in routes-lifecycle.ts. Thin: schema in, the
 * acting agent resolved from the proven identity, the service called, the view out.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireIdentity, requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, ErrorResponse } from '../../platform/http/error-schema.js';
import { ApproveAndStartBody, CreateTaskBody, UpdateTaskBody } from './api-bodies.js';
import { TAGS, TaskEventList, TaskIdParams, TaskList, TaskListQuery, TaskView } from './api-schemas.js';
import { actorOf, taskErrors } from './route-support.js';
import { registerActivityRoute } from './routes-activity.js';
import { registerLifecycleRoutes } from './routes-lifecycle.js';
import type { TasksService } from './service.js';

export function registerTaskRoutes(app: FastifyInstance, service: TasksService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/api/tasks',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Open a task',
        description:
          'Validation as the original: exactly one target (project, product or per-cell map; none for a MegaTask ' +
          'umbrella), title ≤200, description ≥20, 1–7 acceptance criteria, team, type, nature and complexity ' +
          'declared, hierarchy at most 4 levels, a PM never assigned a fresh code task; references must exist (422).',
        body: CreateTaskBody,
        response: { 201: TaskView, ...authErrorResponses, 422: ErrorResponse },
      },
    },
    async (request, reply) => {
      const view = await service.create(request.body, await actorOf(service, request));
      return reply.status(201).send(view);
    },
  );

  api.get(
    '/api/tasks',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'List tasks (filters, cursor or offset pagination)',
        querystring: TaskListQuery,
        response: { 200: TaskList, ...authErrorResponses, 422: ErrorResponse },
      },
    },
    async (request) => service.list(request.query),
  );

  api.get(
    '/api/tasks/:id',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Read a task',
        params: TaskIdParams,
        response: { 200: TaskView, ...authErrorResponses, 404: ErrorResponse, 422: ErrorResponse },
      },
    },
    async (request) => service.get(request.params.id),
  );

  api.get(
    '/api/tasks/:id/events',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Read a task’s audit trail (who, role, from, to, when, why)',
        params: TaskIdParams,
        response: { 200: TaskEventList, ...authErrorResponses, 404: ErrorResponse, 422: ErrorResponse },
      },
    },
    async (request) => ({ events: await service.events(request.params.id) }),
  );

  api.patch(
    '/api/tasks/:id',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Edit a task; the CEO may override its status (god mode)',
        description:
          'With the CEO’s proven identity (`X-Agent-Role: ceo` and the CEO token, or the panel session), `status` ' +
          'is an audited override (`admin_override`) that bypasses the transition table; moving into a review or ' +
          'terminal state, or out of a terminal one, needs `"force": true` (else 409 `force_required`). Other roles: ' +
          'owners their own fields, PMs wording and priority only, privileged fields the board or auditor (else 403).',
        params: TaskIdParams,
        body: UpdateTaskBody,
        response: { 200: TaskView, ...taskErrors },
      },
    },
    async (request) => service.update(request.params.id, request.body, await actorOf(service, request)),
  );

  api.post(
    '/api/tasks/:id/assign-review-pm',
    {
      preValidation: requireRole('ceo', 'main_pm', 'system'),
      schema: {
        tags: TAGS,
        summary: 'Assign the reviewing PM to a task awaiting PM review',
        description:
          'Only for awaiting_pm_review (else 409 `invalid_state`): the cell PM of the task’s team, else the main PM, ' +
          'becomes owner and claimant. A no-op when that is already so.',
        params: TaskIdParams,
        response: { 200: TaskView, ...taskErrors },
      },
    },
    async (request) => service.assignReviewPm(request.params.id, await actorOf(service, request)),
  );

  api.post(
    '/api/tasks/:id/approve-and-start',
    {
      preValidation: requireRole('ceo'),
      schema: {
        tags: TAGS,
        summary: 'The CEO confirms a pending task and hands it to the main PM',
        description:
          'Notes of at least 20 characters (else 422); the task must be pending (else 409 `invalid_state`). Reassigns ' +
          'it to the main PM without a status change, sets `confirmed_by_human`, team main_pm (a code task becomes ' +
          'planning), releases an umbrella’s held subtasks; audited as `approve_and_start`.',
        params: TaskIdParams,
        body: ApproveAndStartBody,
        response: { 200: TaskView, ...taskErrors },
      },
    },
    async (request) =>
      service.approveAndStart(request.params.id, request.body.notes, await actorOf(service, request)),
  );

  registerLifecycleRoutes(app, service);
  registerActivityRoute(app, service);
}
