/**
 * /api/maintenance-pause (CEO only): the state of the three scopes, pause one (`drain` or `kill`,
 * until `expires_at`), resume one. Thin: schema in, the service, the row out.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { unauthorized } from '../../platform/http/errors.js';
import { PauseBody, PauseListView, PauseRowView, ScopeParams, TAGS } from './api-schemas.js';
import type { MaintenancePauseService } from './service.js';

const callerId = (request: FastifyRequest) => {
  if (!request.identity) throw unauthorized();
  return request.identity.id;
};

const invalid = errorResponse(
  'Unknown scope, missing or unknown mode, reason over 500 characters, or `expires_at` not a timestamp ' +
    'with an offset, in the past or more than 336 h ahead (`validation_failed`).',
);

export function registerMaintenancePauseRoutes(app: FastifyInstance, service: MaintenancePauseService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const ceoOnly = requireRole('ceo');

  api.get(
    '/api/maintenance-pause',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'The maintenance pause state of all three scopes',
        description:
          'A pause past its `expires_at` reads as running. When the stored state cannot be read the scope ' +
          'counts as paused (fail closed) and `read_degraded_since` says since when.',
        response: { 200: PauseListView, ...authErrorResponses },
      },
    },
    async () => ({ scopes: await service.list() }),
  );

  api.post(
    '/api/maintenance-pause/:scope',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Pause one scope (drain or kill) until expires_at',
        description:
          '`drain` lets in-flight work finish and starts nothing new; `kill` also interrupts in-flight work ' +
          '(engine sweeps and board-program cycles are aborted). Default expiry 4 h, at most 336 h. ' +
          'Publishes MAINTENANCE_PAUSE_CHANGED on /ws/system.',
        params: ScopeParams,
        body: PauseBody,
        response: { 200: PauseRowView, 422: invalid, ...authErrorResponses },
      },
    },
    async (request) => service.pause(request.params.scope, request.body, callerId(request)),
  );

  api.delete(
    '/api/maintenance-pause/:scope',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Resume one scope now (idempotent)',
        description: 'Publishes MAINTENANCE_PAUSE_CHANGED on /ws/system.',
        params: ScopeParams,
        response: { 200: PauseRowView, 422: invalid, ...authErrorResponses },
      },
    },
    async (request) => service.resume(request.params.scope, callerId(request)),
  );
}
