/** /api/workforce: the scorecards of who delivers, and the tasks behind each figure (CEO and PMs). */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { requireRole } from '../../platform/http/auth/index.js';
import { authErrorResponses, errorResponse } from '../../platform/http/error-schema.js';
import {
  ScorecardQuery,
  ScorecardsView,
  ScorecardTasksQuery,
  ScorecardTasksView,
  TAGS,
} from './api-schemas.js';
import { type ScorecardFilter, scorecards, scorecardTasks } from './scorecards.js';
import { MIN_SAMPLE } from './stats.js';

export const WORKFORCE_READER_ROLES = ['ceo', 'main_pm', 'cell_pm'] as const;

const responses = {
  401: authErrorResponses[401],
  403: errorResponse('The scorecards are for the CEO and the PMs.'),
  422: errorResponse(
    'An unknown period, grouping or measure, or another query field is wrong (`validation_failed`).',
  ),
};

export function registerWorkforceRoutes(
  app: FastifyInstance,
  db: Db,
  clock: Clock,
  rebuild: () => Promise<number>,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const readers = requireRole(...WORKFORCE_READER_ROLES);
  const filterOf = (query: {
    period?: string;
    by?: string;
    role?: string;
    project_id?: string;
  }): ScorecardFilter =>
    ({
      period: query.period ?? '30d',
      by: query.by ?? 'role',
      ...(query.role ? { role: query.role } : {}),
      ...(query.project_id ? { projectId: query.project_id } : {}),
    }) as ScorecardFilter;

  api.get(
    '/api/workforce/scorecards',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        operationId: 'listScorecards',
        summary:
          'Who delivers: first-pass QA, rework, findings, time and cost, by role, CLI, model, agent or project',
        description:
          'The tasks that ended in the period (merged, accepted, cancelled), grouped by who did their own work. ' +
          `Each group: its tasks, and — from ${MIN_SAMPLE} tasks on — the first-pass QA rate with its 95 % Wilson ` +
          'interval, mean rework rounds, findings per task by severity; always the p50/p90 time from claim to end, ' +
          'the cost (per merged root task, its whole tree; per accepted subtask) and the failure-on-start rate of ' +
          'its runs. Every figure lists its tasks at `/api/workforce/scorecards/tasks`.',
        querystring: ScorecardQuery,
        response: { 200: ScorecardsView, ...responses },
      },
    },
    async (request) => {
      const filter = filterOf(request.query);
      const groups = await scorecards(db, filter, clock.now());
      return { period: filter.period, by: filter.by, min_sample: MIN_SAMPLE, groups };
    },
  );

  api.get(
    '/api/workforce/scorecards/tasks',
    {
      preValidation: readers,
      schema: {
        tags: TAGS,
        operationId: 'listScorecardTasks',
        summary: 'The tasks behind one figure of a scorecard',
        querystring: ScorecardTasksQuery,
        response: { 200: ScorecardTasksView, ...responses },
      },
    },
    async (request) => {
      const { key, measure, limit } = request.query;
      const rows = await scorecardTasks(
        db,
        { ...filterOf(request.query), key: key ?? null, measure: measure ?? 'tasks', limit: limit ?? 100 },
        clock.now(),
      );
      return { tasks: rows.map((row) => ({ ...row, ended_at: row.ended_at?.toISOString() ?? null })) };
    },
  );

  api.post(
    '/api/workforce/outcomes/rebuild',
    {
      preValidation: requireRole('ceo'),
      schema: {
        tags: TAGS,
        operationId: 'rebuildOutcomes',
        summary:
          'Fold every task’s outcome again from the record alone (what `gaffer evidence rebuild` asks)',
        description:
          'The audit trail, the runs, the findings and the usage ledger are read again for every task and each ' +
          'outcome row rewritten: the rows the scorecards read are the record’s, whatever happened to the ' +
          'read model. Safe while agents work (a fold never replaces one that saw more).',
        response: {
          200: Type.Object({ tasks: Type.Integer({ minimum: 0, description: 'Rows written.' }) }),
          401: authErrorResponses[401],
          403: errorResponse('Only the CEO rebuilds the evidence.'),
        },
      },
    },
    async () => ({ tasks: await rebuild() }),
  );
}
