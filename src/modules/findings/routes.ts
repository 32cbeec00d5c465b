/** GET /api/tasks/{id}/findings, for any authenticated caller. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { requireIdentity } from '../../platform/http/auth/index.js';
import { authErrorResponses, ErrorResponse } from '../../platform/http/error-schema.js';
import { FindingsLedgerView, TAGS, TaskIdParams } from './api-schemas.js';
import type { Finding, FindingsLedger, FindingsService } from './service.js';

export const findingView = (f: Finding) => ({
  id: f.id,
  id8: f.id.slice(0, 8),
  task_id: f.taskId,
  origin: f.origin,
  round: f.round,
  author_slug: f.authorSlug,
  file: f.file,
  line: f.line,
  severity: f.severity,
  criterion: f.criterion,
  expected: f.expected,
  actual: f.actual,
  fix: f.fix,
  evidence: f.evidence,
  status: f.status,
  addressed_by_commit: f.addressedByCommit,
  resolution_note: f.resolutionNote,
  created_at: f.createdAt.toISOString(),
  updated_at: f.updatedAt.toISOString(),
});

const ledgerView = (ledger: FindingsLedger) => ({
  task_id: ledger.taskId,
  findings: ledger.findings.map(findingView),
  summary: ledger.summary,
  total: ledger.total,
  truncated: ledger.truncated,
});

export function registerFindingsRoutes(app: FastifyInstance, service: FindingsService): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/api/tasks/:id/findings',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'The task’s findings ledger with per-origin status counts',
        description:
          'Findings raised by QA, the PR gate, PMs and the CEO across review rounds, newest round first, ' +
          'at most 500 (`truncated` says when there are more); `summary` counts every finding by origin and status.',
        params: TaskIdParams,
        response: { 200: FindingsLedgerView, ...authErrorResponses, 404: ErrorResponse, 422: ErrorResponse },
      },
    },
    async (request) => ledgerView(await service.ledger(request.params.id)),
  );
}
