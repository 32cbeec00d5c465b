/** `GET /api/tasks/activity`: the newest task audit rows across all tasks (the inbox's activity feed). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireIdentity } from '../../platform/http/auth/index.js';
import { authErrorResponses, ErrorResponse } from '../../platform/http/error-schema.js';
import { ActivityList, ActivityQuery } from './activity-schemas.js';
import { TAGS } from './api-schemas.js';
import type { TasksService } from './service.js';

export function registerActivityRoute(app: FastifyInstance, service: TasksService): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/tasks/activity',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Recent task activity across all tasks (moves, creations, edits), newest first',
        description:
          'The newest audit rows with each task’s title and `source` (an engine origination shows its engine). ' +
          'Page back with `before` = the last event id.',
        querystring: ActivityQuery,
        response: { 200: ActivityList, ...authErrorResponses, 422: ErrorResponse },
      },
    },
    async (request) => ({ events: await service.activity(request.query.limit, request.query.before) }),
  );
}
