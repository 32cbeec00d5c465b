/**
 * TypeBox schemas of the task view and the /api/tasks reads: they validate, serialise and document
 * (/docs) the same shapes. Request bodies are in api-bodies.ts.
 */
import { type Static, Type } from 'typebox';
import { TEAMS } from '../../platform/http/auth/identity.js';
import { QueryInteger, StringEnum } from '../../platform/http/schema-types.js';
import { TASK_STATUSES } from '../lifecycle/index.js';
import { COMPLEXITIES, TASK_LIMITS, TASK_NATURES, TASK_TYPES } from './types.js';

export const TAGS = ['tasks'];

export const Uuid = (description?: string) =>
  Type.String({ format: 'uuid', ...(description ? { description } : {}) });
const NullableUuid = (description: string) => Type.Union([Uuid(), Type.Null()], { description });
const Timestamp = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const StatusSchema = StringEnum(TASK_STATUSES, { description: 'A lifecycle state.' });
export const TeamSchema = StringEnum(TEAMS, { description: 'The owning cell or team.' });
export const TaskTypeSchema = StringEnum(TASK_TYPES);
export const NatureSchema = StringEnum(TASK_NATURES);
export const ComplexitySchema = StringEnum(COMPLEXITIES);

export const TaskIdParams = Type.Object({
  id: Uuid('The task’s full 36-character UUID.'),
});

export const AcceptanceCriterionView = Type.Object({
  id: Type.String({ description: 'Stable id, kept across edits while the text is unchanged.' }),
  text: Type.String(),
});

export const TaskView = Type.Object(
  {
    id: Uuid(),
    title: Type.String(),
    description: Type.String(),
    acceptance_criteria: Type.Array(AcceptanceCriterionView),
    status: StatusSchema,
    priority: Type.Integer({ description: '0 is the highest priority.' }),
    sequence: Type.Integer({ description: 'Order among siblings.' }),
    task_type: TaskTypeSchema,
    nature: NatureSchema,
    complexity: ComplexitySchema,
    team: TeamSchema,
    project_id: NullableUuid('Target repository.'),
    product_id: NullableUuid('Target product (a repository per cell).'),
    cell_projects: Type.Record(Type.String(), Uuid(), {
      description: 'Per-cell project map of a coordination task (team → project id); empty otherwise.',
    }),
    batch_id: NullableUuid('MegaTask grouping.'),
    parent_task_id: NullableUuid('The parent task.'),
    depth: Type.Integer({ description: '0 for a root, at most 3.' }),
    dependency_ids: Type.Array(Uuid(), { description: 'Dependencies not yet completed.' }),
    completed_dependency_ids: Type.Array(Uuid(), { description: 'Dependencies completed.' }),
    intends_to_touch: Type.Array(Type.String(), { description: 'Declared path globs (collision surface).' }),
    adds_migration: Type.Boolean(),
    touches_shared: Type.Boolean(),
    branch_name: Type.Union([Type.String(), Type.Null()]),
    pr_number: Type.Union([Type.Integer(), Type.Null()]),
    pr_url: Type.Union([Type.String(), Type.Null()]),
    pr_created: Type.Boolean(),
    docs_complete: Type.Boolean(),
    created_by: Type.String({ description: 'Agent id of the creator.' }),
    assigned_to: NullableUuid('The owner.'),
    claimed_by: NullableUuid('Who claimed it last.'),
    active_claimant_id: NullableUuid('The one agent holding the claim right now.'),
    claimed_at: Timestamp('When it was last claimed.'),
    started_at: Timestamp('When work first started.'),
    completed_at: Timestamp('When it was completed.'),
    last_heartbeat_at: Timestamp('Claim liveness.'),
    revision_count: Type.Integer({ description: 'Times it was sent back for revision.' }),
    source: Type.String({
      description: 'Who or what opened it: manual, ci_watch, dep_update, release_manager, …',
    }),
    budget_usd: Type.Union([Type.Number(), Type.Null()]),
    plan: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    notes: Type.Record(Type.String(), Type.Unknown(), { description: 'Typed notes per role.' }),
    markers: Type.Record(Type.String(), Type.Unknown(), {
      description: 'Machine markers: original_developer, pre_block, admin_override, …',
    }),
    held: Type.Boolean({ description: 'Never dispatched, claimed or started (a release proposal).' }),
    confirmed_by_human: Type.Boolean(),
    stalled_reason: Type.Union([Type.String(), Type.Null()]),
    stalled_since: Timestamp('When the dispatcher gave up on it.'),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { description: 'A task as the API shows it.' },
);

/** The public view of a task. */
export type TaskView = Static<typeof TaskView>;

export const TaskListQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Array(StatusSchema, { description: 'Any of these states (repeat the parameter).' }),
    ),
    team: Type.Optional(TeamSchema),
    project_id: Type.Optional(Uuid()),
    assigned_to: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Owner: agent UUID or slug.' }),
    ),
    parent_task_id: Type.Optional(Uuid()),
    source: Type.Optional(Type.String({ minLength: 1, maxLength: TASK_LIMITS.sourceMax })),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'Text search: tasks whose title contains this text, or whose id starts with it (any case).',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    offset: Type.Optional(QueryInteger({ minimum: 0, description: 'Offset pagination (or use `cursor`).' })),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Opaque `next_cursor` of the previous page.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const TaskList = Type.Object(
  {
    tasks: Type.Array(TaskView),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `cursor` for the next page; null on the last page.',
    }),
  },
  { description: 'A page of tasks, newest first.' },
);

export const TaskEventView = Type.Object({
  id: Type.Integer(),
  task_id: Uuid(),
  actor_id: Type.String({ description: 'Who: agent id.' }),
  actor_role: Type.String({ description: 'In which role.' }),
  action: Type.String({ description: 'create, claim, a lifecycle action, update, admin_override, …' }),
  from_status: Type.Union([Type.String(), Type.Null()]),
  to_status: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'Why.' }),
  data: Type.Record(Type.String(), Type.Unknown()),
  created_at: Type.String({ format: 'date-time' }),
});

export const TaskEventList = Type.Object(
  { events: Type.Array(TaskEventView) },
  { description: 'The audit trail of a task, oldest first.' },
);
