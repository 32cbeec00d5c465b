/** The TypeBox schemas of /api/workforce/experiments (they validate the bodies and appear in /docs). */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { IntervalView, Nullable } from './api-schemas.js';
import { DEFAULT_MAX_TASKS, DEFAULT_START_FAILURE_BOUND, START_FAILURE_MIN_RUNS } from './experiments.js';

const Name = (description: string) => Type.Optional(Nullable(Type.String({ maxLength: 200, description })));

const ArmInput = Type.Object(
  {
    cli: Name('The agent CLI the arm runs (a command template of this server); absent: the usual one.'),
    provider: Name('The model provider (by name, Settings → Models & agents); absent: the role’s route.'),
    model: Name('The model; absent: the provider’s default (or the agent’s own model).'),
  },
  {
    additionalProperties: false,
    description: 'One route: name at least one of its CLI, provider and model.',
  },
);

export const ArmParam = StringEnum(['a', 'b'], { description: 'The arm: `a` or `b`.' });

export const ExperimentInputSchema = Type.Object(
  {
    role: Type.String({
      minLength: 1,
      maxLength: 40,
      pattern: '^[a-z_]+$',
      description: 'The role whose work is split.',
    }),
    a: ArmInput,
    b: ArmInput,
    share_b: Type.Integer({
      minimum: 1,
      maximum: 99,
      description: 'The share of the role’s tasks (in %) arm B gets; the rest go to arm A.',
    }),
    max_tasks: Type.Optional(
      Type.Integer({
        minimum: 2,
        maximum: 10_000,
        default: DEFAULT_MAX_TASKS,
        description: 'Tasks given an arm at most; the experiment ends when they have all ended.',
      }),
    ),
    cost_cap_usd: Type.Optional(
      Nullable(
        Type.Number({
          minimum: 0.01,
          description: 'Ends the experiment once its tasks cost this much.',
        }),
      ),
    ),
    start_failure_bound: Type.Optional(
      Type.Number({
        minimum: 0.01,
        maximum: 1,
        default: DEFAULT_START_FAILURE_BOUND,
        description: `An arm whose runs fail on start more often than this (from ${START_FAILURE_MIN_RUNS} runs on) stops getting work at once, and the experiment ends.`,
      }),
    ),
  },
  { additionalProperties: false },
);

const ArmView = Type.Object(
  {
    cli: Nullable(Type.String()),
    provider: Nullable(Type.String()),
    model: Nullable(Type.String()),
    share: Type.Integer({ minimum: 1, maximum: 99, description: 'Its share of the tasks, in %.' }),
    tasks: Type.Integer({ minimum: 0, description: 'Tasks given this arm.' }),
    ended: Type.Integer({ minimum: 0 }),
    first_pass_qa: IntervalView,
    mean_rework_rounds: Nullable(Type.Number({ minimum: 0 })),
    findings_per_task: Nullable(Type.Number({ minimum: 0 })),
    cost_usd: Type.Number({ minimum: 0 }),
    cost_per_accepted_task: Nullable(Type.Number({ minimum: 0 })),
    runs: Type.Integer({ minimum: 0 }),
    failure_on_start: IntervalView,
  },
  { additionalProperties: false },
);

export const ExperimentView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    role: Type.String(),
    status: StringEnum(['running', 'ended']),
    ended_reason: Nullable(StringEnum(['task_count', 'cost_cap', 'start_failures', 'stopped'])),
    stopped_arm: Nullable(ArmParam),
    adopted_arm: Nullable(ArmParam),
    share_b: Type.Integer(),
    max_tasks: Type.Integer(),
    cost_cap_usd: Nullable(Type.Number()),
    start_failure_bound: Type.Number(),
    started_at: Type.String({ format: 'date-time' }),
    ended_at: Nullable(Type.String({ format: 'date-time' })),
    adopted_at: Nullable(Type.String({ format: 'date-time' })),
    arms: Type.Object({ a: ArmView, b: ArmView }, { additionalProperties: false }),
    verdict: Type.Object(
      {
        better: Nullable(ArmParam),
        text: Type.String({
          description:
            'Which arm is better on which measure where the 95 % intervals separate, else “no difference yet (n = …)”.',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const ExperimentList = Type.Object(
  { experiments: Type.Array(ExperimentView) },
  { additionalProperties: false },
);

export const TaskArmsView = Type.Object(
  {
    arms: Type.Array(
      Type.Object(
        {
          experiment_id: Type.String({ format: 'uuid' }),
          role: Type.String(),
          arm: ArmParam,
          route: Type.Object(
            {
              cli: Nullable(Type.String()),
              provider: Nullable(Type.String()),
              model: Nullable(Type.String()),
            },
            { additionalProperties: false },
          ),
          status: StringEnum(['running', 'ended']),
          released: Type.Boolean({
            description: 'The arm was stopped: the task is back on the usual route.',
          }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
