/**
 * The CEO's ban routes: GET /api/guard/bans lists the bans in force, DELETE /api/guard/bans/{address}
 * lifts one. A banned address may still reach these two routes (they require the CEO), so an
 * operator who banned their own address can lift the ban.
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../clock.js';
import { requireRole } from '../auth/index.js';
import { authErrorResponses, errorResponse } from '../error-schema.js';
import { notFound } from '../errors.js';
import type { BanStore } from './ban-store.js';

const TAGS = ['guard'];

const BanView = Type.Object({
  address: Type.String({ description: 'The banned client address.' }),
  reason: Type.String({
    description: 'Why: how many blocked requests within the window, and the last kind.',
  }),
  banned_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time', description: 'When the ban ends on its own.' }),
});

const AddressParams = Type.Object({
  address: Type.String({
    anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }],
    description: 'The banned IPv4 or IPv6 address.',
  }),
});

export function registerBanRoutes(app: FastifyInstance, store: BanStore, clock: Clock): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.get(
    '/api/guard/bans',
    {
      preValidation: requireRole('ceo'),
      config: { guardBanExempt: true },
      schema: {
        tags: TAGS,
        summary: 'List the request guard’s IP bans in force (CEO only)',
        response: { 200: Type.Object({ bans: Type.Array(BanView) }), ...authErrorResponses },
      },
    },
    async () => ({ bans: await store.list(clock.now()) }),
  );

  api.delete(
    '/api/guard/bans/:address',
    {
      preValidation: requireRole('ceo'),
      config: { guardBanExempt: true },
      schema: {
        tags: TAGS,
        summary: 'Lift an IP ban (CEO only)',
        description: 'The address may call again at once, on every replica. 404 when it is not banned.',
        params: AddressParams,
        response: {
          200: Type.Object({ address: Type.String(), lifted: Type.Literal(true) }),
          ...authErrorResponses,
          404: errorResponse('The address is not banned (`not_found`).'),
          422: errorResponse('The address is not an IP address (`validation_failed`).'),
        },
      },
    },
    async (request) => {
      const { address } = request.params;
      if (!(await store.lift(address, clock.now()))) throw notFound(`${address} is not banned`);
      return { address, lifted: true as const };
    },
  );
}
