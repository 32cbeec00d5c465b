/**
 * /api/a2a, participant-scoped: the caller (its roster agent) opens conversations the access
 * matrix allows, writes, reads, marks read and closes its own conversations, and reads its inbox.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireIdentity } from '../../platform/http/auth/index.js';
import { authErrorResponses, ErrorResponse, errorResponse } from '../../platform/http/error-schema.js';
import {
  CloseBody,
  ConversationIdParams,
  ConversationList,
  ConversationListQuery,
  ConversationView,
  InboxView,
  MessagePage,
  MessagePageQuery,
  NoContent,
  OpenConversationBody,
  SendMessageBody,
  SentMessageView,
  TAGS,
} from './api-schemas.js';
import type { A2aService } from './service.js';

const participantOnly = errorResponse(
  '`not_a_participant`: only the two participants may use the conversation; `not_an_agent`: the caller is no roster agent.',
);
const readResponses = { ...authErrorResponses, 403: participantOnly, 404: ErrorResponse, 422: ErrorResponse };

export function registerA2aRoutes(app: FastifyInstance, service: A2aService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // requireIdentity has run: the identity is there.
  const caller = (request: FastifyRequest) => service.agentFor(request.identity!);

  api.post(
    '/api/a2a/conversations',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Open a conversation with another agent, with its first message',
        description:
          'The access matrix decides who may initiate to whom: a refusal is 403 `a2a_access_denied` with ' +
          '`details.route_hint`, the chain to go through instead. Nobody initiates to the CEO. 404 for an unknown ' +
          'agent or task, 409 `agent_retired`, 422 `cannot_message_self`.',
        body: OpenConversationBody,
        response: {
          201: ConversationView,
          ...authErrorResponses,
          403: errorResponse('`a2a_access_denied` (with `details.route_hint`) or `not_an_agent`.'),
          404: ErrorResponse,
          409: errorResponse('`agent_retired`.'),
          422: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const { target_agent, topic, task_id, initial_message, requires_response } = request.body;
      const conversation = await service.openConversation(await caller(request), {
        targetAgent: target_agent,
        topic,
        taskId: task_id,
        initialMessage: initial_message,
        requiresResponse: requires_response,
      });
      return reply.status(201).send(conversation);
    },
  );

  api.get(
    '/api/a2a/conversations',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'List the caller’s conversations, most recently active first',
        querystring: ConversationListQuery,
        response: { 200: ConversationList, ...readResponses },
      },
    },
    async (request) => {
      const { status, with_agent, task_id, limit } = request.query;
      const conversations = await service.conversations(await caller(request), {
        status,
        withAgent: with_agent,
        taskId: task_id,
        limit,
      });
      return { conversations };
    },
  );

  api.get(
    '/api/a2a/conversations/:id',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Read one of the caller’s conversations',
        params: ConversationIdParams,
        response: { 200: ConversationView, ...readResponses },
      },
    },
    async (request) => service.conversation(await caller(request), request.params.id),
  );

  api.post(
    '/api/a2a/conversations/:id/messages',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Write a message in a conversation',
        description:
          '201 with the stored message. An identical message (same sender, kind and body) the other participant ' +
          'has not read yet is not stored again: 200 with `duplicate: true` and the existing message. In a ' +
          'conversation with the CEO, another agent may write only while it has sent fewer messages than the ' +
          'CEO (409 `awaiting_ceo`). 409 `conversation_closed` once closed.',
        params: ConversationIdParams,
        body: SendMessageBody,
        response: {
          200: SentMessageView,
          201: SentMessageView,
          ...readResponses,
          409: errorResponse('`awaiting_ceo` (reply-then-wait) or `conversation_closed`.'),
        },
      },
    },
    async (request, reply) => {
      const { body, kind, response_to_id, requires_response } = request.body;
      const sent = await service.sendJson({
        conversationId: request.params.id,
        sender: await caller(request),
        body,
        kind,
        responseToId: response_to_id,
        requiresResponse: requires_response,
      });
      return reply.status(sent.duplicate ? 200 : 201).send(sent);
    },
  );

  api.get(
    '/api/a2a/conversations/:id/messages',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Read a page of a conversation’s messages (latest first page, oldest first within it)',
        params: ConversationIdParams,
        querystring: MessagePageQuery,
        response: { 200: MessagePage, ...readResponses },
      },
    },
    async (request) => service.messages(await caller(request), request.params.id, request.query),
  );

  api.post(
    '/api/a2a/conversations/:id/read',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Mark a conversation read up to its latest message',
        params: ConversationIdParams,
        response: { 204: NoContent, ...readResponses },
      },
    },
    async (request, reply) => {
      await service.markRead(await caller(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/api/a2a/conversations/:id/close',
    {
      // The body is optional: no body means no resolution.
      preValidation: [
        requireIdentity,
        async (request) => {
          (request as { body: unknown }).body ??= {};
        },
      ],
      schema: {
        tags: TAGS,
        summary: 'Close a conversation, with an optional resolution (the body may be omitted)',
        params: ConversationIdParams,
        body: CloseBody,
        response: {
          200: ConversationView,
          ...readResponses,
          409: errorResponse('`conversation_closed`: it already is.'),
        },
      },
    },
    async (request) => service.close(await caller(request), request.params.id, request.body.resolution),
  );

  api.get(
    '/api/a2a/inbox',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'The caller’s unread counts and unanswered requests',
        response: { 200: InboxView, ...authErrorResponses, 403: participantOnly },
      },
    },
    async (request) => service.inbox(await caller(request)),
  );
}
