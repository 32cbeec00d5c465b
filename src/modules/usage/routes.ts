/** /api/usage: token and cost analytics for the CEO and the PMs (PM-or-above). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { AppError } from '../../platform/http/errors.js';
import { BREAKDOWNS, type Breakdown, type UsageAnalytics } from './analytics.js';
import {
  BreakdownView,
  PeriodQuery,
  ProjectionView,
  SeriesQuery,
  SeriesView,
  SummaryView,
  TAGS,
} from './api-schemas.js';
import type { Period } from './periods.js';

/** PM-or-above: the PMs and the CEO. */
export const USAGE_READER_ROLES = ['ceo', 'main_pm', 'cell_pm'] as const;

export interface AgentLookup {
  resolve(idOrSlug: string): Promise<{ id: string } | null>;
}

const auth = {
  401: authErrorResponses[401],
  403: errorResponse('Usage is for the CEO and the PMs.'),
};
const invalid = { 422: errorResponse('`period` is not 24h, 7d or 30d (or another query field is wrong).') };

export function registerUsageRoutes(
  app: FastifyInstance,
  analytics: UsageAnalytics,
  agents: AgentLookup,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const readers = requireRole(...USAGE_READER_ROLES);
  const periodOf = (query: { period?: Period }): Period => query.period ?? '24h';

  api.get(
    '/api/usage/summary',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        summary: 'Token and cost summary of a period, with its trend against the window before',
        querystring: PeriodQuery,
        response: { 200: SummaryView, ...auth, ...invalid },
      },
    },
    async (request) => analytics.summary(periodOf(request.query)),
  );

  api.get(
    '/api/usage/time-series',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        summary: 'Tokens and cost per hour (24h) or per day (7d, 30d), zero-filled, oldest first',
        querystring: SeriesQuery,
        response: { 200: SeriesView, ...auth, ...invalid },
      },
    },
    async (request) => {
      let agentId: string | null = null;
      if (request.query.agent !== undefined) {
        const agent = await agents.resolve(request.query.agent);
        if (!agent) {
          throw new AppError(422, 'unknown_agent', `there is no agent "${request.query.agent}"`, [
            { field: 'agent', message: 'no agent has this slug or id' },
          ]);
        }
        agentId = agent.id;
      }
      return analytics.timeSeries(periodOf(request.query), agentId);
    },
  );

  for (const by of BREAKDOWNS) registerBreakdown(by);

  function registerBreakdown(by: Breakdown) {
    api.get(
      `/api/usage/by-${by}`,
      {
        preValidation: readers,
        schema: {
          tags: TAGS,
          summary: `Tokens and cost of a period per ${by}, costliest first`,
          querystring: PeriodQuery,
          response: { 200: BreakdownView, ...auth, ...invalid },
        },
      },
      async (request) => analytics.breakdown(by, periodOf(request.query)),
    );
  }

  api.get(
    '/api/usage/projection',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        summary: "The month's projected cost (last 7 days' daily average) against the company monthly budget",
        response: { 200: ProjectionView, ...auth },
      },
    },
    async () => analytics.projection(),
  );
}
