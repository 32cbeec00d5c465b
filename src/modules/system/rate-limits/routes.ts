/** `GET /api/system/rate-limits`: the parked providers (the polling fallback of the /ws/system events). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireIdentity } from '../../../platform/http/auth/index.js';
import { authErrorResponses } from '../../../platform/http/error-schema.js';
import { StringEnum } from '../../../platform/http/schema-types.js';
import type { RateLimitService } from './service.js';

const Iso = Type.String({ format: 'date-time' });

export const RateLimitEntry = Type.Object({
  provider: Type.String({
    description:
      "The routed model provider's name, or the agent CLI's kind (`claude`, `codex`) when none is routed.",
  }),
  kind: StringEnum(['rate_limited', 'overloaded'], {
    description: '`rate_limited` (429) or `overloaded` (529/503).',
  }),
  affected_agents: Type.Array(Type.String(), { description: 'Slugs of the agents parked on it.' }),
  hit_at: Iso,
  resume_at: { ...Iso, description: 'When it is tried again (the end of its window, or the next probe).' },
  retry_after_seconds: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
    description: "The provider's own Retry-After, when it gave one.",
  }),
  probe_failures: Type.Integer({ minimum: 0 }),
});

const RateLimitList = Type.Object({ entries: Type.Array(RateLimitEntry) });

export function registerRateLimitRoutes(app: FastifyInstance, service: RateLimitService): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/system/rate-limits',
    {
      preValidation: requireIdentity,
      schema: {
        tags: ['system'],
        summary: 'Parked model providers',
        description:
          'Every provider parked after a rate limit or overload, soonest resume first; an empty list when ' +
          'none is. The same entries RATE_LIMIT_HIT carries on /ws/system, for polling while the socket is down.',
        response: { 200: RateLimitList, ...authErrorResponses },
      },
    },
    async () => ({ entries: await service.list() }),
  );
}
