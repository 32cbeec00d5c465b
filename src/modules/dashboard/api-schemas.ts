/** HTTP shapes of /api/dashboard. */
import { type TSchema, Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';

export const TAGS = ['dashboard'];

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Timestamp = Type.String({ format: 'date-time' });

export const DaysQuery = Type.Object(
  { days: Type.Integer({ minimum: 1, maximum: 90, default: 30, description: 'Window in days, 1–90.' }) },
  { additionalProperties: false },
);

export const SpawnWasteQuery = Type.Object(
  {
    days: Type.Integer({ minimum: 1, maximum: 90, default: 30, description: 'Window in days, 1–90.' }),
    agent: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Only this agent’s runs (id or slug).' }),
    ),
  },
  { additionalProperties: false },
);

export const OverviewQuery = Type.Object(
  {
    days: Type.Integer({
      minimum: 1,
      maximum: 90,
      default: 7,
      description: 'Throughput and lead time over the last `days` UTC days (today included), 1–90.',
    }),
  },
  { additionalProperties: false },
);

export const ActivityQuery = Type.Object(
  {
    hours: Type.Integer({ minimum: 1, maximum: 168, default: 24, description: 'How far back, 1–168 hours.' }),
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  },
  { additionalProperties: false },
);

export const StalledTasks = Type.Object({
  tasks: Type.Array(
    Type.Object({
      task_id: Type.String({ format: 'uuid' }),
      title: Type.String(),
      assignee_id: Nullable(Type.String()),
      assignee_slug: Nullable(Type.String()),
      status: Type.String(),
      reason: Type.String({
        description: 'Why it was given up on, e.g. `breaker_tripped: 3 spawns of … made no progress`.',
      }),
      stalled_since: Timestamp,
      stalled_seconds: Type.Integer({ minimum: 0 }),
    }),
    { description: 'Oldest stall first.' },
  ),
});

const WasteRow = Type.Object({
  key: Type.String({ description: 'Agent id, team, or task id.' }),
  label: Type.String({ description: 'Agent slug, team, or task title.' }),
  runs: Type.Integer(),
  zero_progress_runs: Type.Integer(),
  zero_progress_cost_usd: Type.Number(),
});

export const SpawnWasteView = Type.Object(
  {
    days: Type.Integer(),
    total_runs: Type.Integer({ description: 'Ended runs on a task that started in the window.' }),
    zero_progress_runs: Type.Integer({
      description:
        'Runs with no audit row on their task by their agent inside the run (no state advance, claim, plan, commit, note, review verdict or delegation).',
    }),
    total_cost_usd: Type.Number(),
    zero_progress_cost_usd: Type.Number(),
    zero_progress_cost_share: Type.Number({
      description: 'zero_progress_cost_usd / total_cost_usd (0 when nothing was spent).',
    }),
    by_agent: Type.Array(WasteRow),
    by_team: Type.Array(WasteRow),
    by_task: Type.Array(WasteRow, { description: 'At most 50 rows, the worst first.' }),
  },
  { description: 'Each breakdown sorted by zero-progress runs, then their cost.' },
);

export const ProvenanceView = Type.Object({
  days: Type.Integer(),
  total: Type.Integer({ description: 'Tasks created in the window.' }),
  human: Type.Integer({
    description: 'Root ancestor written by the CEO (or taken from a human by the intake interviewer).',
  }),
  agent: Type.Integer({ description: 'Root ancestor written by an agent.' }),
  engine: Type.Integer({ description: 'Root ancestor opened by an engine or the system.' }),
  human_rate: Type.Number({ description: 'human / total (0 when there are none).' }),
});

export const OverviewView = Type.Object({
  days: Type.Integer(),
  teams: Type.Array(
    Type.Object({
      team: Type.String(),
      status: StringEnum(['ok', 'slow', 'critical'], {
        description:
          'ok: nothing blocked or stalled; critical: 3 or more blocked or stalled, or more than half the open work; slow otherwise.',
      }),
      open_tasks: Type.Integer(),
      active_tasks: Type.Integer({ description: 'Claimed, in progress, verifying or in revision.' }),
      blocked_tasks: Type.Integer(),
      stalled_tasks: Type.Integer(),
    }),
  ),
  blockers: Type.Array(
    Type.Object({
      task_id: Type.String({ format: 'uuid' }),
      title: Type.String(),
      team: Type.String(),
      assignee_slug: Nullable(Type.String()),
      reason: Nullable(Type.String()),
      blocked_since: Timestamp,
      blocked_seconds: Type.Integer({ minimum: 0 }),
    }),
    { description: 'Blocked tasks, longest blocked first.' },
  ),
  throughput: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), completed: Type.Integer() }), {
    description: 'Tasks completed per UTC day, oldest first.',
  }),
  completed: Type.Integer(),
  median_lead_time_hours: Nullable(Type.Number({ description: 'Creation to completion.' })),
});
