/** /api/prompter: the intake interviewer's live chat (CEO only). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { type LiveChat, SessionParams, SessionStarted } from '../live-chat/index.js';
import { ConfirmBody, Confirmed, StartBody, TAGS } from './api-schemas.js';
import type { IntakeService } from './intake-service.js';

const invalid = errorResponse('The request is invalid; `details` names the fields.');
const noProvider = errorResponse(
  'No model provider is routed for the intake interviewer (`no_model_provider`).',
);

export const PROMPTER_LIVE = '/api/prompter/live';

export function registerPrompterRoutes(app: FastifyInstance, chat: LiveChat, intake: IntakeService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    `${PROMPTER_LIVE}/start`,
    {
      preValidation: requireRole('ceo'),
      schema: {
        tags: TAGS,
        summary: 'Start an intake interview',
        description:
          'Scoped to one project (`project_id`), one product (`product_id`) or several projects ' +
          '(`project_ids`). The interviewer asks until it can propose a task or a batch; ' +
          '`initial_message` is the CEO’s first turn. 409 `no_model_provider` when no model is routed.',
        body: StartBody,
        response: { 201: SessionStarted, ...authErrorResponses, 409: noProvider, 422: invalid },
      },
    },
    async (request, reply) => {
      const scope = await intake.scopeOf(request.body);
      const session = await chat.bridge.start(request.identity!.id, scope, request.body.initial_message);
      return reply.code(201).send({ session_id: session.id });
    },
  );

  chat.registerRoutes(app, PROMPTER_LIVE, TAGS);

  api.post(
    `${PROMPTER_LIVE}/:sid/confirm`,
    {
      preValidation: requireRole('ceo'),
      schema: {
        tags: TAGS,
        summary: 'Confirm the proposed task(s)',
        description:
          'Opens the proposed task (with `draft` edits) or the batch (as edited in `tasks`) through the tasks ' +
          'service, routed to the main PM (default) or the board. 409 `no_draft` when nothing is proposed.',
        params: SessionParams,
        body: ConfirmBody,
        response: {
          201: Confirmed,
          ...authErrorResponses,
          404: errorResponse('No such session.'),
          409: errorResponse('Nothing proposed (`no_draft`) or the session ended (`session_ended`).'),
          422: invalid,
        },
      },
    },
    async (request, reply) => {
      const confirmed = await intake.confirm(request.params.sid, request.identity!, request.body);
      return reply.code(201).send(confirmed);
    },
  );
}
