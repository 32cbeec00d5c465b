/** /api/secretary: the secretary's live chat and the directive queue (CEO only). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { type LiveChat, SessionStarted } from '../live-chat/index.js';
import {
  Directive,
  DirectiveList,
  DirectiveParams,
  DirectiveQuery,
  RejectBody,
  StartBody,
  TAGS,
} from './api-schemas.js';
import type { DirectivesService } from './directives.js';

const invalid = errorResponse('The request is invalid; `details` names the fields.');
const missing = errorResponse('No such directive.');
const notPending = errorResponse('The directive is no longer pending (`directive_not_pending`).');

export const SECRETARY_LIVE = '/api/secretary/live';

export function registerSecretaryRoutes(
  app: FastifyInstance,
  chat: LiveChat,
  directives: DirectivesService,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const ceo = requireRole('ceo');

  api.post(
    `${SECRETARY_LIVE}/start`,
    {
      preValidation: ceo,
      schema: {
        tags: TAGS,
        summary: 'Start a chat with the secretary',
        description:
          '`initial_message` is the CEO’s first turn. 409 `no_model_provider` when no model is routed for the secretary.',
        body: StartBody,
        response: {
          201: SessionStarted,
          ...authErrorResponses,
          409: errorResponse('No model provider is routed for the secretary (`no_model_provider`).'),
          422: invalid,
        },
      },
    },
    async (request, reply) => {
      const session = await chat.bridge.start(request.identity!.id, {}, request.body.initial_message);
      return reply.code(201).send({ session_id: session.id });
    },
  );

  chat.registerRoutes(app, SECRETARY_LIVE, TAGS);

  api.get(
    '/api/secretary/directives',
    {
      preValidation: ceo,
      schema: {
        tags: TAGS,
        summary: 'The directives the secretary filed, newest first',
        description: '`status=pending` is the queue waiting for the CEO.',
        querystring: DirectiveQuery,
        response: { 200: DirectiveList, ...authErrorResponses, 422: invalid },
      },
    },
    async (request) => ({ directives: await directives.list(request.query.status) }),
  );

  api.post(
    '/api/secretary/directives/:id/confirm',
    {
      preValidation: ceo,
      schema: {
        tags: TAGS,
        summary: 'Confirm a directive: carry it out with the CEO’s authority',
        description: 'Answers the directive `executed` with what it did, or `failed` with the error.',
        params: DirectiveParams,
        response: { 200: Directive, ...authErrorResponses, 404: missing, 409: notPending, 422: invalid },
      },
    },
    async (request) => directives.confirm(request.params.id, request.identity!),
  );

  api.post(
    '/api/secretary/directives/:id/reject',
    {
      preValidation: ceo,
      schema: {
        tags: TAGS,
        summary: 'Reject a directive',
        params: DirectiveParams,
        body: RejectBody,
        response: { 200: Directive, ...authErrorResponses, 404: missing, 409: notPending, 422: invalid },
      },
    },
    async (request) => directives.reject(request.params.id, request.body?.reason ?? '', request.identity!),
  );
}
