/** The TypeBox schemas of /api/workforce (they validate the queries and appear in /docs). */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { GROUPINGS, MEASURES, PERIODS } from './scorecards.js';
import { MIN_SAMPLE } from './stats.js';

export const TAGS = ['workforce'];

const Period = StringEnum(Object.keys(PERIODS) as (keyof typeof PERIODS)[], {
  default: '30d',
  description:
    'The tasks that ended (merged, accepted or cancelled) in the window ending now: 7d, 30d or 90d.',
});
const By = StringEnum([...GROUPINGS], {
  default: 'role',
  description:
    'Group by the role, the agent CLI, the model or the agent that did each task’s own work, or by project.',
});
const Filters = {
  period: Type.Optional(Period),
  by: Type.Optional(By),
  role: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 40,
      pattern: '^[a-z_]+$',
      description: 'Only tasks done by this role.',
    }),
  ),
  project_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only this project’s tasks.' })),
};

export const ScorecardQuery = Type.Object(Filters, { additionalProperties: false });

export const ScorecardTasksQuery = Type.Object(
  {
    ...Filters,
    key: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'The group (as the scorecard names it); absent: the group whose key is not known.',
      }),
    ),
    measure: Type.Optional(
      StringEnum([...MEASURES], {
        default: 'tasks',
        description: 'Which of the group’s tasks: those a figure counts.',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
  },
  { additionalProperties: false },
);

export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(
  schema: T,
  description?: string,
) => Type.Union([schema, Type.Null()], description ? { description } : {});

export const IntervalView = Nullable(
  Type.Object(
    {
      rate: Type.Number({ minimum: 0, maximum: 1 }),
      low: Type.Number({ minimum: 0, maximum: 1, description: 'The 95 % Wilson interval’s lower end.' }),
      high: Type.Number({ minimum: 0, maximum: 1 }),
      n: Type.Integer({ minimum: 1, description: 'The observations the rate is of.' }),
    },
    { additionalProperties: false },
  ),
  `Null below ${MIN_SAMPLE} observations ("not enough data").`,
);

const ScorecardView = Type.Object(
  {
    key: Nullable(
      Type.String(),
      'The group: a role, a CLI, a model, an agent id or a project id; null when not known.',
    ),
    tasks: Type.Integer({ minimum: 0, description: 'Tasks of the group that ended in the period.' }),
    enough: Type.Boolean({ description: `At least ${MIN_SAMPLE} tasks: the rates are shown.` }),
    first_pass_qa: IntervalView,
    mean_rework_rounds: Nullable(
      Type.Number({ minimum: 0 }),
      'QA fails, PR-review fails, PM and CEO send-backs per task.',
    ),
    findings_per_task: Nullable(
      Type.Object(
        { blocker: Type.Number(), major: Type.Number(), minor: Type.Number(), nit: Type.Number() },
        { additionalProperties: false },
      ),
    ),
    claim_to_end_seconds: Type.Object(
      {
        p50: Nullable(Type.Number({ minimum: 0 })),
        p90: Nullable(Type.Number({ minimum: 0 })),
      },
      { additionalProperties: false, description: 'From the first claim to the merge or acceptance.' },
    ),
    cost_usd: Type.Number({ minimum: 0 }),
    cost_per_merged_root: Nullable(Type.Number({ minimum: 0 }), 'A merged root task’s whole tree.'),
    cost_per_accepted_subtask: Nullable(Type.Number({ minimum: 0 })),
    failure_on_start: IntervalView,
    runs: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export const ScorecardsView = Type.Object(
  {
    period: Period,
    by: By,
    min_sample: Type.Integer({ description: 'Below this many tasks a group shows counts, not rates.' }),
    groups: Type.Array(ScorecardView),
  },
  { additionalProperties: false },
);

export const ScorecardTasksView = Type.Object(
  {
    tasks: Type.Array(
      Type.Object(
        {
          task_id: Type.String({ format: 'uuid' }),
          title: Type.String(),
          status: Type.String(),
          end: Nullable(Type.String()),
          ended_at: Nullable(Type.String({ format: 'date-time' })),
          owner_agent_id: Nullable(Type.String({ format: 'uuid' })),
          cli: Nullable(Type.String()),
          model: Nullable(Type.String()),
          qa_first_pass: Nullable(Type.Boolean()),
          rework_rounds: Type.Integer({ minimum: 0 }),
          cost_usd: Type.Number({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
