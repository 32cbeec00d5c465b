/** TypeBox schemas of /api/board-programs: they validate, serialise and document (/docs). */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';

export const TAGS = ['board-programs'];

export const CYCLES_LIMIT = { min: 1, max: 100, default: 20 } as const;

const NullableTime = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const ProgramKeyParams = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 100, description: 'The program’s key, e.g. `ci_watch`.' }),
});

export const CyclesQuery = Type.Object(
  {
    limit: Type.Optional(
      Type.Integer({
        minimum: CYCLES_LIMIT.min,
        maximum: CYCLES_LIMIT.max,
        default: CYCLES_LIMIT.default,
        description: 'How many cycles, newest first (1–100, default 20).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CycleView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    program_key: Type.String(),
    trigger: StringEnum(['interval', 'run_now'], {
      description: 'Started by its interval or by run-now.',
    }),
    opened_at: Type.String({ format: 'date-time' }),
    closed_at: NullableTime('Null while the cycle runs.'),
    items_examined: Type.Integer({ description: 'Items (projects, repositories) the sweep looked at.' }),
    tasks_opened: Type.Integer(),
    opened_task_ids: Type.Array(Type.String(), { description: 'The tasks it opened (the first 100).' }),
    skipped_by_cap: Type.Integer({ description: 'Items a per-cycle or open-task cap held back.' }),
    errors: Type.Integer({
      description: 'Errors met (items it could not handle, or the error that ended it).',
    }),
    error_messages: Type.Array(Type.String(), {
      description: 'Their messages (the first 20, each cut at 500).',
    }),
    outcome: StringEnum(['running', 'completed', 'failed', 'aborted'], {
      description:
        '`aborted`: stopped through its signal (kill pause, lost lease, shutdown); `failed`: the sweep threw, ' +
        'or the process running it stopped before closing it.',
    }),
    outcome_detail: Type.Union([Type.String(), Type.Null()], {
      description: 'Why it was aborted or failed.',
    }),
  },
  { additionalProperties: false },
);

export const CycleList = Type.Object({ cycles: Type.Array(CycleView) }, { additionalProperties: false });

export const ProgramView = Type.Object(
  {
    key: Type.String(),
    title: Type.String(),
    description: Type.String(),
    role: Type.String({ description: 'The role the program acts as.' }),
    trigger: Type.Literal('interval'),
    interval_seconds: Type.Number(),
    scope: StringEnum(['org', 'project']),
    enabled: Type.Boolean({ description: 'False: the program polls nothing.' }),
    last_cycle: Type.Union([CycleView, Type.Null()]),
    held_by_pause: Type.Union([Type.String(), Type.Null()], {
      description:
        'The maintenance pause (board_programs or engines) that holds it now: scope, mode, who, until when. ' +
        'Null when none does.',
    }),
  },
  { additionalProperties: false },
);

export const ProgramList = Type.Object(
  { programs: Type.Array(ProgramView, { description: 'Every registered program, in registration order.' }) },
  { additionalProperties: false },
);
