/**
 * GET /_guard/status: the guard's readiness, for loopback and GAFFER_INTERNAL_NETWORKS only (404 to
 * anyone else, and to any request relayed by a proxy, so the reverse proxy never exposes it).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../clock.js';
import { sendError } from '../conventions.js';
import { AppError } from '../errors.js';
import type { Bans } from './bans.js';
import type { GuardEvents } from './events.js';

export interface RuleStatus {
  name: string;
  kind: 'ban' | 'rate_limit' | 'waf' | 'behaviour' | 'headers';
  active: boolean;
  description: string;
}

export interface GuardStatusSource {
  enabled: boolean;
  store: 'redis' | 'memory';
  rules: RuleStatus[];
  settings: { scan_response_body: boolean; log_suspicious_level: string; telemetry_enabled: boolean };
  bans: Bans | null;
  events: GuardEvents | null;
  clock: Clock;
}

const StatusBody = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  client_ip: Type.String(),
  guard: Type.Object({
    enabled: Type.Boolean(),
    store: Type.Union([Type.Literal('redis'), Type.Literal('memory')]),
    rules: Type.Array(
      Type.Object({
        name: Type.String(),
        kind: Type.String(),
        active: Type.Boolean(),
        description: Type.String(),
      }),
    ),
    scan_response_body: Type.Boolean(),
    log_suspicious_level: Type.String(),
    telemetry_enabled: Type.Boolean(),
    bans: Type.Object({
      active: Type.Union([Type.Integer(), Type.Null()]),
      error: Type.Optional(Type.String()),
    }),
    recent_blocks: Type.Object({
      window_seconds: Type.Integer(),
      waf: Type.Integer(),
      banned: Type.Integer(),
      rate_limited: Type.Integer(),
      suspicious: Type.Integer(),
    }),
  }),
});

export function registerGuardStatusRoute(
  app: FastifyInstance,
  source: GuardStatusSource,
  isInternal: (request: FastifyRequest) => boolean,
): void {
  const internalOnly = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isInternal(request)) {
      sendError(request, reply, new AppError(404, 'not_found', `no route ${request.method} ${request.url}`));
      return reply;
    }
  };
  app.get(
    '/_guard/status',
    {
      onRequest: internalOnly,
      schema: {
        tags: ['probes'],
        summary: 'Internal guard readiness (loopback and GAFFER_INTERNAL_NETWORKS only; 404 to anyone else)',
        description:
          'Rules loaded (and whether each is active), the store bans and rate limits live in, active bans and ' +
          'the blocks of the last 15 minutes on this replica. 503 `degraded` when the ban store does not answer.',
        response: { 200: StatusBody, 503: StatusBody },
      },
    },
    async (request, reply) => {
      let active: number | null = null;
      let error: string | undefined;
      if (source.bans) {
        try {
          active = (await source.bans.store.list(source.clock.now())).length;
        } catch (failure) {
          error = (failure as Error).message;
        }
      } else {
        active = 0;
      }
      reply.status(error ? 503 : 200);
      return {
        status: error ? ('degraded' as const) : ('ok' as const),
        client_ip: request.ip,
        guard: {
          enabled: source.enabled,
          store: source.store,
          rules: source.rules,
          ...source.settings,
          bans: { active, ...(error ? { error } : {}) },
          recent_blocks: source.events?.recentBlocks() ?? {
            window_seconds: 0,
            waf: 0,
            banned: 0,
            rate_limited: 0,
            suspicious: 0,
          },
        },
      };
    },
  );
}
