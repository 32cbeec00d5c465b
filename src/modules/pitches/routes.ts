/**
 * /api/pitches (feature flag `provisioning`; off: every route answers 409 `provisioning_disabled`):
 * the board proposes, the board, main PM, CEO and auditor read, the CEO approves (provisioning)
 * or rejects (notes required); deciding a decided pitch is a 409 `pitch_decided`.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import type { Identity } from '../../platform/http/auth/index.js';
import { requireIdentity, requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { AppError } from '../../platform/http/errors.js';
import {
  ApproveBody,
  NewPitchBody,
  PitchList,
  PitchListQuery,
  PitchParams,
  PitchSchema,
  RejectBody,
  TAGS,
} from './api-schemas.js';
import type { ForgeConfigStore } from './forge-config.js';
import { registerForgeRoutes } from './forge-routes.js';
import { PROPOSER_ROLES, READER_ROLES } from './rules.js';
import type { PitchActor, PitchesService } from './service.js';

const invalid = errorResponse('The request is invalid; `details` names the fields.');
const missing = errorResponse('No such pitch.');
const conflictResponse = errorResponse(
  '`provisioning_disabled` (the flag is off), `slug_taken`, or `pitch_decided` (only a proposed pitch is decided).',
);

/** The 409 of every pitch route and of a directive approving a pitch while the flag is off. */
export const provisioningDisabled = () =>
  new AppError(
    409,
    'provisioning_disabled',
    'pitch provisioning is disabled',
    undefined,
    'Turn on the `provisioning` feature flag (PUT /api/settings/provisioning) and restart.',
  );

export function registerPitchesRoutes(
  app: FastifyInstance,
  service: PitchesService,
  forge: ForgeConfigStore,
  actorOf: (identity: Identity) => Promise<PitchActor>,
  enabled: () => boolean,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const gate: preValidationAsyncHookHandler = async () => {
    if (!enabled()) throw provisioningDisabled();
  };
  const guard = (...roles: Parameters<typeof requireRole>) => ({
    preValidation: [requireIdentity, gate, requireRole(...roles)],
  });
  registerForgeRoutes(app, forge, guard('ceo'), async (request) => (await actorOf(request.identity!)).slug);

  api.post(
    '/api/pitches',
    {
      ...guard(...PROPOSER_ROLES),
      schema: {
        tags: TAGS,
        summary: 'Propose a product pitch (product owner, head of marketing)',
        body: NewPitchBody,
        response: { 201: PitchSchema, ...authErrorResponses, 409: conflictResponse, 422: invalid },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.propose(await actorOf(request.identity!), request.body)),
  );

  api.get(
    '/api/pitches',
    {
      ...guard(...READER_ROLES),
      schema: {
        tags: TAGS,
        summary: 'Pitches, newest first',
        querystring: PitchListQuery,
        response: { 200: PitchList, ...authErrorResponses, 409: conflictResponse, 422: invalid },
      },
    },
    async (request) => ({ pitches: await service.list(request.query.status) }),
  );

  api.get(
    '/api/pitches/:id',
    {
      ...guard(...READER_ROLES),
      schema: {
        tags: TAGS,
        summary: 'One pitch',
        params: PitchParams,
        response: { 200: PitchSchema, ...authErrorResponses, 404: missing, 409: conflictResponse },
      },
    },
    async (request) => service.get(request.params.id),
  );

  api.post(
    '/api/pitches/:id/approve',
    {
      ...guard('ceo'),
      schema: {
        tags: TAGS,
        summary: 'Approve a pitch and provision it (CEO)',
        description:
          'Per target cell a repository and a project (`<slug>`, or `<slug>-<cell>` for several cells; an ' +
          'existing project of that slug is reused), a product when several cells, and a planning task for ' +
          'the main PM. With a provisioning forge (PUT /api/pitches/forge) the repositories are created there ' +
          '(one of the same name is reused), else locally. A failure leaves the pitch proposed.',
        params: PitchParams,
        body: ApproveBody,
        response: {
          200: PitchSchema,
          ...authErrorResponses,
          404: missing,
          409: conflictResponse,
          422: invalid,
          502: errorResponse(
            '`forge_unavailable`: the provisioning forge could not create a repository (down, token refused); the pitch stays proposed.',
          ),
        },
      },
    },
    async (request) =>
      service.approve(request.params.id, request.body.notes ?? null, await actorOf(request.identity!)),
  );

  api.post(
    '/api/pitches/:id/reject',
    {
      ...guard('ceo'),
      schema: {
        tags: TAGS,
        summary: 'Reject a pitch with notes (CEO)',
        params: PitchParams,
        body: RejectBody,
        response: {
          200: PitchSchema,
          ...authErrorResponses,
          404: missing,
          409: conflictResponse,
          422: invalid,
        },
      },
    },
    async (request) =>
      service.reject(request.params.id, request.body.notes, await actorOf(request.identity!)),
  );
}
