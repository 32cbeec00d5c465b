/** /api/company-goals: anyone authenticated reads the charter; only the CEO changes it (audited). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Identity } from '../../platform/http/auth/index.js';
import { requireIdentity, requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import {
  CompanyGoalHistory,
  CompanyGoalsUpdate,
  CompanyGoalsView,
  HistoryQuery,
  TAGS,
} from './api-schemas.js';
import type { CompanyGoalsService } from './service.js';

const invalid = errorResponse('The request is invalid; `details` names the fields.');

export function registerCompanyGoalsRoutes(
  app: FastifyInstance,
  service: CompanyGoalsService,
  whoIs: (identity: Identity) => Promise<string>,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/api/company-goals',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'The company charter',
        description:
          'Company name, north star, objectives, constraints, operating policy and brand voice. ' +
          'Empty values until the CEO writes them.',
        response: { 200: CompanyGoalsView, ...authErrorResponses },
      },
    },
    async () => service.get(),
  );

  api.put(
    '/api/company-goals',
    {
      preValidation: requireRole('ceo'),
      schema: {
        tags: TAGS,
        summary: 'Change the company charter (CEO)',
        description:
          'A partial update: only the fields given change; each change is audited (see /history). ' +
          'Unknown fields or values out of bounds are a 422 and nothing changes.',
        body: CompanyGoalsUpdate,
        response: { 200: CompanyGoalsView, ...authErrorResponses, 422: invalid },
      },
    },
    async (request) => service.update(request.body, await whoIs(request.identity!)),
  );

  api.get(
    '/api/company-goals/history',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Changes of the company charter, newest first',
        description: 'Who changed which fields when, with their values before and after.',
        querystring: HistoryQuery,
        response: { 200: CompanyGoalHistory, ...authErrorResponses, 422: invalid },
      },
    },
    async (request) => ({ changes: await service.history(request.query.limit) }),
  );
}
