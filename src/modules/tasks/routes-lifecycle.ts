/**
 * The lifecycle action routes, `POST /api/tasks/{id}/<action>`, one per entry of the route table
 * (route-actions.ts). Each is authorised by the lifecycle tables inside the service; the body
 * schema (an optional or required reason) and the docs are derived from the same tables.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireIdentity } from '../../platform/http/auth/index.js';
import { transitionBody } from './api-bodies.js';
import { TAGS, TaskIdParams, TaskView } from './api-schemas.js';
import { ACTION_ROUTES, routeActions, routeDescription } from './route-actions.js';
import { actorOf, taskErrors } from './route-support.js';
import type { TasksService } from './service.js';

/** A POST without a body means an empty one: most actions take nothing, or only an optional reason. */
const bodyOptional = async (request: FastifyRequest) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

export function registerLifecycleRoutes(app: FastifyInstance, service: TasksService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  for (const route of ACTION_ROUTES) {
    const body = transitionBody(routeActions(route));
    api.post(
      `/api/tasks/:id/${route.path}`,
      {
        preValidation: [requireIdentity, bodyOptional],
        schema: {
          tags: TAGS,
          summary: route.summary,
          description: routeDescription(route),
          params: TaskIdParams,
          body,
          response: { 200: TaskView, ...taskErrors },
        },
      },
      async (request) => {
        const actor = await actorOf(service, request);
        const input = request.body as { reason?: string };
        if (route.path === 'claim') return service.claim(request.params.id, actor);
        return service.transition(request.params.id, route.plan, actor, input);
      },
    );
  }
}
