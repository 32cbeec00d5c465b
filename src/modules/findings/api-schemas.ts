/** TypeBox schemas of GET /api/tasks/{id}/findings: they validate, serialise and document (/docs). */
import { Type } from 'typebox';
import { FINDING_ORIGINS, FINDING_SEVERITIES, FINDING_STATUSES, LEDGER_CAP } from './rules.js';

export const TAGS = ['tasks'];

export const TaskIdParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The full 36-character task UUID.' }),
});

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const FindingView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    id8: Type.String({ description: 'Short form, as in `[F-1a2b3c4d]` references.' }),
    task_id: Type.String({ format: 'uuid' }),
    origin: Type.String({ description: `Who raised it: ${FINDING_ORIGINS.join(', ')}.` }),
    round: Type.Integer({ description: 'The revision round it was raised in (1 for the first review).' }),
    author_slug: Type.String(),
    file: nullable(Type.String({ description: 'Repo-relative path.' })),
    line: nullable(Type.Integer({ minimum: 1 })),
    severity: Type.String({ description: FINDING_SEVERITIES.join(' | ') }),
    criterion: nullable(Type.String({ description: 'The acceptance-criterion id or text it concerns.' })),
    expected: Type.String(),
    actual: Type.String(),
    fix: Type.String(),
    evidence: nullable(Type.String()),
    status: Type.String({
      description: `${FINDING_STATUSES.join(' | ')} (open → addressed → verified, or waived)`,
    }),
    addressed_by_commit: nullable(Type.String()),
    resolution_note: nullable(Type.String()),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { description: 'One review finding. Append-only: only status, commit and note ever change.' },
);

const Count = Type.Integer({ minimum: 0 });

export const OriginSummaryView = Type.Object({
  origin: Type.String(),
  open: Count,
  addressed: Count,
  verified: Count,
  waived: Count,
});

export const FindingsLedgerView = Type.Object(
  {
    task_id: Type.String({ format: 'uuid' }),
    findings: Type.Array(FindingView, {
      description: `Newest round first, then newest raised (one raise keeps its written order); at most ${LEDGER_CAP}.`,
    }),
    summary: Type.Array(OriginSummaryView, {
      description:
        'Status counts per origin over the whole ledger (origins with findings only; qa, pr_gate, pm, ceo order).',
    }),
    total: Count,
    truncated: Type.Boolean({ description: 'total is greater than the number of findings returned.' }),
  },
  { description: 'The findings ledger of a task.' },
);
