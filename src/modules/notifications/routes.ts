/**
 * /api/notifications: send (PMs, board, CEO, system), and each caller's own list, read and ack.
 * Thin: schema in, the service, the view out.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { requireIdentity, requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { unauthorized } from '../../platform/http/errors.js';
import {
  ListQuery,
  NotificationIdParams,
  NotificationListView,
  NotificationView,
  SendNotificationBody,
  SentNotificationView,
  TAGS,
} from './api-schemas.js';
import { SENDER_ROLES } from './rules.js';
import type { NotificationsService } from './service.js';

const caller = (request: FastifyRequest) => {
  if (!request.identity) throw unauthorized();
  return request.identity;
};

const notFound = errorResponse('No notification with this id.');
const notRecipient = errorResponse('The caller is not a recipient of this notification (`forbidden`).');
const invalid = errorResponse('The request does not match the schema (`validation_failed`).');

export function registerNotificationRoutes(app: FastifyInstance, service: NotificationsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/api/notifications',
    {
      preValidation: requireRole(...SENDER_ROLES),
      schema: {
        tags: TAGS,
        summary: 'Send a notification to one or more agents',
        description:
          'Recipients by UUID or slug. Ack is required for priority_change, blocker_escalation, approval and ' +
          'alert; unacked ones are re-escalated up the chain. Also relayed to the chat when the relay is on.',
        body: SendNotificationBody,
        response: {
          201: SentNotificationView,
          422: errorResponse('Invalid body, `unknown_recipient` or `unknown_task`.'),
          ...authErrorResponses,
        },
      },
    },
    async (request, reply) => {
      const { id, role } = caller(request);
      reply.code(201);
      return service.send(request.body, { id, role });
    },
  );

  api.get(
    '/api/notifications',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Your own notifications, newest first, with unread and pending-ack counts',
        querystring: ListQuery,
        response: { 200: NotificationListView, 422: invalid, ...authErrorResponses },
      },
    },
    async (request) =>
      service.list(caller(request).id, {
        unreadOnly: request.query.unread_only,
        pendingAckOnly: request.query.pending_ack_only,
        type: request.query.type,
        limit: request.query.limit,
      }),
  );

  api.get(
    '/api/notifications/:id',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Read one of your notifications (marks it read)',
        params: NotificationIdParams,
        response: {
          200: NotificationView,
          404: notFound,
          422: invalid,
          ...authErrorResponses,
          403: notRecipient,
        },
      },
    },
    async (request) => service.get(request.params.id, caller(request).id),
  );

  api.post(
    '/api/notifications/:id/read',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Mark one of your notifications read',
        params: NotificationIdParams,
        response: {
          204: Type.Null({ description: 'Marked read.' }),
          404: notFound,
          422: invalid,
          ...authErrorResponses,
          403: notRecipient,
        },
      },
    },
    async (request, reply) => {
      await service.read(request.params.id, caller(request).id);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/api/notifications/:id/ack',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Acknowledge one of your ack-required notifications',
        description: 'Stops its re-escalation. 400 `ack_not_required` for a type that needs no ack.',
        params: NotificationIdParams,
        response: {
          200: NotificationView,
          400: errorResponse('This notification needs no acknowledgement (`ack_not_required`).'),
          404: notFound,
          422: invalid,
          ...authErrorResponses,
          403: notRecipient,
        },
      },
    },
    async (request) => service.ack(request.params.id, caller(request).id),
  );
}
