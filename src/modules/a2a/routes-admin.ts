/**
 * /api/a2a/admin, the CEO's live view: every conversation, and the full text of any conversation's
 * messages (how the panel refetches the body of an `a2a.message` frame, whose excerpt is capped).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, ErrorResponse } from '../../platform/http/error-schema.js';
import {
  AdminConversationListQuery,
  ConversationIdParams,
  ConversationList,
  MessagePage,
  MessagePageQuery,
  TAGS,
} from './api-schemas.js';
import type { A2aService } from './service.js';

export function registerA2aAdminRoutes(app: FastifyInstance, service: A2aService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const ceoOnly = requireRole('ceo');

  api.get(
    '/api/a2a/admin/conversations',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'CEO: every agent-to-agent conversation, most recently active first',
        querystring: AdminConversationListQuery,
        response: { 200: ConversationList, ...authErrorResponses, 404: ErrorResponse, 422: ErrorResponse },
      },
    },
    async (request) => {
      const { status, agent, task_id, limit } = request.query;
      return { conversations: await service.allConversations({ status, agent, taskId: task_id, limit }) };
    },
  );

  api.get(
    '/api/a2a/admin/conversations/:id/messages',
    {
      preValidation: ceoOnly,
      schema: {
        tags: TAGS,
        summary: 'CEO: the full text of any conversation’s messages, a page at a time',
        params: ConversationIdParams,
        querystring: MessagePageQuery,
        response: { 200: MessagePage, ...authErrorResponses, 404: ErrorResponse, 422: ErrorResponse },
      },
    },
    async (request) => service.adminMessages(request.params.id, request.query),
  );
}
