/**
 * The routes every live chat has under its prefix: the event stream (a plain `reply.raw` SSE
 * stream), a user turn, stop and status. CEO only; the start route (its scope differs) and any
 * confirm belong to the chat's own module.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import {
  Accepted,
  ActiveSession,
  EventStream,
  MessageBody,
  SessionParams,
  SessionStatus,
  Stopped,
} from './api-schemas.js';
import type { ChatEvent, LiveChatBridge } from './bridge.js';

const HEARTBEAT_MS = 15_000;
const missing = errorResponse('No such session.');
const ended = errorResponse(
  'The session has ended (`session_ended`) or is still answering (`turn_in_progress`).',
);
const invalid = errorResponse('The request is invalid; `details` names the fields.');

export const sseFrame = (event: ChatEvent): string =>
  `${event.id !== undefined ? `id: ${event.id}\n` : ''}event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;

export function registerLiveChatRoutes(
  app: FastifyInstance,
  options: { prefix: string; tags: string[]; what: string; bridge: LiveChatBridge },
): void {
  const { prefix, tags, what, bridge } = options;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const ceo = requireRole('ceo');
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const close of [...open]) close();
    bridge.closeAllStreams();
  });

  api.get(
    `${prefix}/active`,
    {
      preValidation: ceo,
      schema: {
        tags,
        summary: `The ${what} chat live now, if any`,
        description:
          'So a second device (or a reload that lost its session id) joins it instead of starting another.',
        response: { 200: ActiveSession, ...authErrorResponses },
      },
    },
    async (request) => {
      const row = await bridge.store.latestActive(request.identity!.id);
      return { active: row !== null, session_id: row?.id ?? null };
    },
  );

  api.get(
    `${prefix}/:sid/stream`,
    {
      preValidation: ceo,
      schema: {
        tags,
        summary: `Stream the ${what} chat (server-sent events)`,
        description:
          'Replays the persisted turns, then streams replies live until the session ends. Reconnecting ' +
          '(a page reload) replays again, so nothing is lost while the session is alive.',
        params: SessionParams,
        produces: ['text/event-stream'],
        response: { 200: EventStream, ...authErrorResponses, 404: missing, 422: invalid },
      },
    },
    async (request, reply) => {
      const ownerId = request.identity!.id;
      await bridge.session(request.params.sid, ownerId);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write(': connected\n\n');
      let closed = false;
      let detach: () => void = () => undefined;
      const heartbeat = setInterval(() => raw.write(': ping\n\n'), HEARTBEAT_MS);
      const close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        open.delete(close);
        detach();
        raw.end();
      };
      open.add(close);
      raw.on('close', close);
      try {
        detach = await bridge.attach(request.params.sid, ownerId, {
          send: (event) => {
            if (!closed) raw.write(sseFrame(event));
          },
          close,
        });
        if (closed) detach();
      } catch (error) {
        raw.write(sseFrame({ event: 'error', data: { message: String(error) } }));
        close();
      }
    },
  );

  api.post(
    `${prefix}/:sid/messages`,
    {
      preValidation: ceo,
      schema: {
        tags,
        summary: `Send the CEO's turn to the ${what} chat`,
        description:
          'Stored at once (202); the reply streams on the session stream. 409 once the session ended.',
        params: SessionParams,
        body: MessageBody,
        response: { 202: Accepted, ...authErrorResponses, 404: missing, 409: ended, 422: invalid },
      },
    },
    async (request, reply) => {
      await bridge.send(request.params.sid, request.identity!.id, request.body.text);
      return reply.code(202).send({ accepted: true });
    },
  );

  api.post(
    `${prefix}/:sid/stop`,
    {
      preValidation: ceo,
      schema: {
        tags,
        summary: `End the ${what} chat now`,
        description: 'Cancels a reply in flight and closes the streams; further messages are a 409.',
        params: SessionParams,
        response: { 200: Stopped, ...authErrorResponses, 404: missing, 422: invalid },
      },
    },
    async (request) => {
      await bridge.stop(request.params.sid, request.identity!.id);
      return { status: 'ended' as const };
    },
  );

  api.get(
    `${prefix}/:sid/status`,
    {
      preValidation: ceo,
      schema: {
        tags,
        summary: `Whether the ${what} chat is alive, with its turn count and proposal`,
        params: SessionParams,
        response: { 200: SessionStatus, ...authErrorResponses, 404: missing, 422: invalid },
      },
    },
    async (request) => bridge.status(request.params.sid, request.identity!.id),
  );
}
