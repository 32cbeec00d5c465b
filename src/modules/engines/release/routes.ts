/**
 * /api/release (CEO only; any other role 403): the open proposal with its executor state, approve
 * (202 at once, the executor in the background; 409 `release_in_flight` while one runs anywhere)
 * and reject (`{required_changes}`, ≥ 10 characters → CANCELLED). Thin: schema in, the manager, the view out.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireRole } from '../../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../../platform/http/error-schema.js';
import { Accepted, ProposalView, RejectBody, Rejected, TAGS } from './api-schemas.js';
import type { ReleaseManager } from './manager.js';

const none = errorResponse('There is no open release proposal (`not_found`).');
const storeDown = errorResponse(
  'The release lock’s store (Redis or the database) is unreachable (`store_unavailable`, with `Retry-After`): nothing is started.',
);
const inFlight = errorResponse(
  'A release approve is in flight on this or another replica (`release_in_flight`); not queued.',
);

export function registerReleaseRoutes(app: FastifyInstance, manager: ReleaseManager): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const ceoOnly = requireRole('ceo');

  api.get(
    '/api/release/proposal',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'The single held release proposal, with its report and executor state',
        description:
          '404 when there is none (its `details.last_readiness` says why the last readiness pass proposed nothing, ' +
          'when this replica ran one). `execute_status`/`execute_detail` report the last approve; an approve whose ' +
          'process stopped reads `failed_interrupted`.',
        response: { 200: ProposalView, 404: none, ...authErrorResponses },
      },
    },
    async () => manager.view(),
  );

  api.post(
    '/api/release/proposal/approve',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Approve the proposal: 202 at once, the fail-closed executor runs in the background',
        description:
          'Merges the ladder into prod, bumps the version and the CHANGELOG, verifies the head rung’s CI, commits ' +
          '`chore(release): X.Y.Z`, pushes, waits for that commit’s CI and publishes through the forge. Poll the GET ' +
          'for the outcome. A second approve while one runs → 409 `release_in_flight` (a distributed mutex, never queued). ' +
          'Approving after a failure retries, resuming a release commit already pushed.',
        response: { 202: Accepted, 404: none, 409: inFlight, 503: storeDown, ...authErrorResponses },
      },
    },
    async (request, reply) => {
      const actor = await manager.actorFor(request.identity!);
      return reply.status(202).send(await manager.approvals.approve(actor));
    },
  );

  api.post(
    '/api/release/proposal/reject',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Reject the proposal with the changes required: it is CANCELLED and the slot freed',
        body: RejectBody,
        response: {
          200: Rejected,
          404: none,
          409: inFlight,
          503: storeDown,
          422: errorResponse(
            '`required_changes` is missing or shorter than 10 characters (`validation_failed`).',
          ),
          ...authErrorResponses,
        },
      },
    },
    async (request) => {
      const actor = await manager.actorFor(request.identity!);
      const requiredChanges = request.body.required_changes.trim();
      const { proposal, status } = await manager.approvals.reject(actor, requiredChanges);
      return {
        task_id: proposal.taskId,
        version: proposal.report.version,
        status,
        required_changes: requiredChanges,
      };
    },
  );
}
