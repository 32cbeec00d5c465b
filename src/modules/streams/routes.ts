/**
 * The three WebSocket endpoints. Each route checks its agents and token in a preHandler, before the
 * upgrade is accepted, so a refusal reaches the client as an HTTP 4xx (ws: `unexpected-response`).
 * An accepted socket gets `{type:"connected", ...}` first, then the frames of its channel.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Platform } from '../../platform/context.js';
import type { Agent } from '../agents/index.js';
import { admitCaller, knownAgent } from './admission.js';
import type { StreamsDeps } from './deps.js';
import { agentChannel, type Channel, notificationsChannel, SYSTEM_CHANNEL } from './frames.js';
import {
  AgentPathParams,
  AgentStreamQuery,
  NotificationStreamQuery,
  routeDocs,
  SystemStreamQuery,
} from './schemas.js';
import type { StreamsService } from './service.js';

/** What the preHandler admitted, for the socket handler of the same request. */
interface Admission {
  channel: Channel;
  connected: Record<string, unknown>;
}

export function registerStreamRoutes(
  app: FastifyInstance,
  platform: Platform,
  deps: StreamsDeps,
  service: StreamsService,
): void {
  const admissions = new WeakMap<FastifyRequest, Admission>();
  const accept = (socket: WebSocket, request: FastifyRequest) => {
    const admission = admissions.get(request);
    if (!admission) return socket.close(1008, 'not admitted');
    admissions.delete(request);
    const live = service.attach(socket, admission.channel);
    live.send(JSON.stringify({ type: 'connected', ...admission.connected }));
  };

  // @fastify/websocket hides websocket routes from the docs; these are documented on purpose.
  void app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      if (route.schema) route.schema.hide = false;
    });
    const routes = scope.withTypeProvider<TypeBoxTypeProvider>();

    routes.get(
      '/ws/system',
      {
        websocket: true,
        schema: { ...routeDocs.system, querystring: SystemStreamQuery },
        preHandler: async (request) => {
          await admitCaller(platform, request, request.query.token, null);
          admissions.set(request, { channel: SYSTEM_CHANNEL, connected: { stream: 'system' } });
        },
      },
      accept,
    );

    routes.get(
      '/ws/agents/:agent_id',
      {
        websocket: true,
        schema: { ...routeDocs.agents, params: AgentPathParams, querystring: AgentStreamQuery },
        preHandler: async (request) => {
          const { viewer_id, agent_id, token } = request.query;
          const streamed = await knownAgent(deps.agents, request.params.agent_id, 'path agent');
          const viewer = await knownViewer(deps, viewer_id ?? agent_id, 'viewer_id or agent_id');
          await admitCaller(platform, request, token, viewer);
          admissions.set(request, {
            channel: agentChannel(streamed.id),
            connected: { stream: 'agents', agent_id: streamed.id, viewer_id: viewer.id },
          });
        },
      },
      accept,
    );

    routes.get(
      '/ws/notifications/:agent_id',
      {
        websocket: true,
        schema: { ...routeDocs.notifications, params: AgentPathParams, querystring: NotificationStreamQuery },
        preHandler: async (request) => {
          const { agent_id, token } = request.query;
          const recipient = await knownAgent(deps.agents, request.params.agent_id, 'path agent');
          const viewer = await knownViewer(deps, agent_id, 'agent_id');
          await admitCaller(platform, request, token, viewer);
          admissions.set(request, {
            channel: notificationsChannel(recipient.id),
            connected: { stream: 'notifications', agent_id: recipient.id },
          });
        },
      },
      accept,
    );
  });
}

async function knownViewer(deps: StreamsDeps, idOrSlug: string | undefined, what: string): Promise<Agent> {
  return knownAgent(deps.agents, idOrSlug ?? '', what);
}
