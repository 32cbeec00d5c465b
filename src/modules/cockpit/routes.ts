/** /api/cockpit: the CEO's read-only business summary (CEO only). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses } from '../../platform/http/error-schema.js';
import { CockpitSummary, TAGS } from './api-schemas.js';
import type { CockpitService } from './service.js';

export function registerCockpitRoutes(app: FastifyInstance, service: CockpitService): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/cockpit/summary',
    {
      preValidation: requireRole('ceo'),
      schema: {
        tags: TAGS,
        summary: 'The business summary: north star, delivery, spend and signals (CEO)',
        response: { 200: CockpitSummary, ...authErrorResponses },
      },
    },
    async () => service.summary(),
  );
}
