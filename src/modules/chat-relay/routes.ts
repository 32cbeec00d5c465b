/** /api/telegram/credentials, CEO only: whether credentials are set, and setting or clearing both. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { CredentialsBody, CredentialsStatus, TAGS } from './api-schemas.js';
import type { ChatRelayService } from './service.js';

export function registerChatRelayRoutes(app: FastifyInstance, service: ChatRelayService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const ceoOnly = requireRole('ceo');

  api.get(
    '/api/telegram/credentials',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Whether the Telegram relay credentials are set (never the credentials themselves)',
        response: { 200: CredentialsStatus, ...authErrorResponses },
      },
    },
    async () => ({ has_credentials: await service.hasCredentials() }),
  );

  api.post(
    '/api/telegram/credentials',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'Set both Telegram relay credentials, or clear both',
        description:
          'Both non-empty sets them (stored encrypted), both empty clears them; exactly one is ' +
          '400 `credentials_incomplete`. The values are never returned or logged.',
        body: CredentialsBody,
        response: {
          200: CredentialsStatus,
          400: errorResponse('Exactly one of bot_token and chat_id was given (`credentials_incomplete`).'),
          422: errorResponse('The body does not match the schema.'),
          ...authErrorResponses,
        },
      },
    },
    async (request) =>
      service.setCredentials(request.body.bot_token, request.body.chat_id, request.identity?.id ?? 'unknown'),
  );
}
