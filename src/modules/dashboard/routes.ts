/** /api/dashboard: the CEO's and PMs' aggregated views (PM or above reads; nobody writes here). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import { ActivityList } from '../tasks/index.js';
import {
  ActivityQuery,
  DaysQuery,
  OverviewQuery,
  OverviewView,
  ProvenanceView,
  SpawnWasteQuery,
  SpawnWasteView,
  StalledTasks,
  TAGS,
} from './api-schemas.js';
import type { DashboardService } from './service.js';

/** PM or above: the PMs and the CEO. */
export const DASHBOARD_READER_ROLES = ['ceo', 'main_pm', 'cell_pm'] as const;

const auth = {
  401: authErrorResponses[401],
  403: errorResponse('Only a PM or the CEO reads the dashboard.'),
};
const invalid = errorResponse('The request is invalid; `details` names the fields.');

export function registerDashboardRoutes(app: FastifyInstance, service: DashboardService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const readers = requireRole(...DASHBOARD_READER_ROLES);

  api.get(
    '/api/dashboard/stalled-tasks',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        summary: 'Stuck-task feed: open tasks the respawn breaker gave up on, oldest first',
        description:
          'A task is listed from the moment the dispatcher stalls it (its agent was spawned the respawn limit ' +
          'times in a row without progress) until anyone other than the system moves it forward.',
        response: { 200: StalledTasks, ...auth },
      },
    },
    async () => ({ tasks: await service.stalledTasks() }),
  );

  api.get(
    '/api/dashboard/metrics/spawn-waste',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        summary: 'Spawn waste: agent runs that made no progress, and their share of the cost',
        description:
          'Over the ended runs on a task that started in the last `days` days: a run made no progress when ' +
          'no audit row on its task by its agent falls inside the run. Cost of a run = the usage its agent ' +
          'recorded on its task during it. An unknown `agent` is a 422.',
        querystring: SpawnWasteQuery,
        response: { 200: SpawnWasteView, ...auth, 422: invalid },
      },
    },
    async (request) => service.spawnWaste(request.query.days, request.query.agent),
  );

  api.get(
    '/api/dashboard/metrics/provenance',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        summary: 'Provenance: tasks created in the window by the source of their root ancestor',
        querystring: DaysQuery,
        response: { 200: ProvenanceView, ...auth, 422: invalid },
      },
    },
    async (request) => service.provenance(request.query.days),
  );

  api.get(
    '/api/dashboard/overview',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        summary: 'CEO overview: team health, blockers, throughput and lead time',
        querystring: OverviewQuery,
        response: { 200: OverviewView, ...auth, 422: invalid },
      },
    },
    async (request) => service.overview(request.query.days),
  );

  api.get(
    '/api/dashboard/activity',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        summary: 'Recent task activity of the last `hours` hours, newest first',
        description: 'The task audit feed of GET /api/tasks/activity, limited to a time window.',
        querystring: ActivityQuery,
        response: {
          200: Type.Object({ hours: Type.Integer(), events: ActivityList.properties.events }),
          ...auth,
          422: invalid,
        },
      },
    },
    async (request) => ({
      hours: request.query.hours,
      events: await service.activity(request.query.hours, request.query.limit),
    }),
  );
}
