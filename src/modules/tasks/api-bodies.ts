/**
 * TypeBox schemas of the /api/tasks request bodies: create, update (PATCH, with CEO god mode),
 * lifecycle actions (the reason rule comes from the lifecycle action table) and approve-and-start.
 */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { ACTION_RULES, CELL_TEAMS, type LifecycleAction } from '../lifecycle/index.js';
import {
  ComplexitySchema,
  NatureSchema,
  StatusSchema,
  TaskTypeSchema,
  TeamSchema,
  Uuid,
} from './api-schemas.js';
import { TASK_LIMITS } from './types.js';

const L = TASK_LIMITS;

const Title = Type.String({ minLength: 1, maxLength: L.titleMax, pattern: '\\S' });
const Description = Type.String({ minLength: L.descriptionMin, maxLength: L.descriptionMax });
const Criteria = Type.Array(Type.String({ minLength: 1, maxLength: L.criterionMax, pattern: '\\S' }), {
  minItems: L.criteriaMin,
  maxItems: L.criteriaMax,
  description: 'Acceptance criteria texts (1–7); ids are generated and kept across edits of other criteria.',
});
const Priority = Type.Integer({
  minimum: L.priorityMin,
  maximum: L.priorityMax,
  description: '0 is highest.',
});
const Sequence = Type.Integer({ minimum: 0, maximum: 1000, description: 'Order among siblings.' });
const Globs = Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 100 });
const DependencyIds = Type.Array(Uuid(), { maxItems: 50, uniqueItems: true });
const Budget = Type.Union([
  Type.Number({ minimum: 0.01, maximum: 1_000_000, description: 'Spend cap in USD.' }),
  Type.Null(),
]);
const AgentRef = Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], {
  description: 'Agent UUID or slug; null to unassign.',
});
const NullableUuid = Type.Union([Uuid(), Type.Null()]);

const CellProjects = Type.Object(
  Object.fromEntries(CELL_TEAMS.map((team) => [team, Type.Optional(Uuid())])),
  {
    additionalProperties: false,
    description:
      'Per-cell project map (cell → project id) of a coordination task spanning several repositories.',
  },
);

export const CreateTaskBody = Type.Object(
  {
    title: Title,
    description: Description,
    acceptance_criteria: Criteria,
    team: TeamSchema,
    task_type: TaskTypeSchema,
    nature: NatureSchema,
    complexity: ComplexitySchema,
    priority: Type.Optional({ ...Priority, default: L.priorityDefault }),
    sequence: Type.Optional(Sequence),
    status: Type.Optional(StringEnum(['pending', 'backlog'], { description: 'Default pending.' })),
    project_id: Type.Optional(NullableUuid),
    product_id: Type.Optional(NullableUuid),
    cell_projects: Type.Optional(Type.Union([CellProjects, Type.Null()])),
    batch_id: Type.Optional(NullableUuid),
    parent_task_id: Type.Optional(NullableUuid),
    dependency_ids: Type.Optional(DependencyIds),
    intends_to_touch: Type.Optional(Globs),
    adds_migration: Type.Optional(Type.Boolean()),
    touches_shared: Type.Optional(Type.Boolean()),
    assigned_to: Type.Optional(AgentRef),
    budget_usd: Type.Optional(Budget),
  },
  {
    additionalProperties: false,
    description:
      'Exactly one target: `project_id`, `product_id` or a non-empty `cell_projects` — except a MegaTask ' +
      'umbrella (`batch_id`, no parent, no target). A child without a target inherits its parent’s.',
  },
);

export const UpdateTaskBody = Type.Object(
  {
    title: Type.Optional(Title),
    description: Type.Optional(Description),
    acceptance_criteria: Type.Optional(Criteria),
    priority: Type.Optional(Priority),
    sequence: Type.Optional(Sequence),
    intends_to_touch: Type.Optional(Globs),
    adds_migration: Type.Optional(Type.Boolean()),
    touches_shared: Type.Optional(Type.Boolean()),
    assigned_to: Type.Optional(AgentRef),
    team: Type.Optional(TeamSchema),
    project_id: Type.Optional(NullableUuid),
    dependency_ids: Type.Optional(DependencyIds),
    plan: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
    budget_usd: Type.Optional(Budget),
    status: Type.Optional(StatusSchema),
    force: Type.Optional(
      Type.Boolean({
        description: 'Required to override into a review or terminal state, or out of a terminal one.',
      }),
    ),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: L.reasonMax })),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description:
      'Owners change their own fields; PMs only title, description, acceptance criteria and priority (a cell ' +
      'PM on its own team); assignment, team, project, dependencies, sequence, plan and budget need the CEO, ' +
      'the board or the auditor; `status` is the CEO’s audited override (god mode).',
  },
);

/**
 * The body of a lifecycle action route. A reason is required (with the table's minimum length)
 * when every action behind the route requires one; otherwise it is optional.
 */
export function transitionBody(actions: readonly LifecycleAction[]) {
  const rules = actions.map((action) => ACTION_RULES[action].reason);
  const required = rules.every((rule) => rule.required);
  const minLength = required ? Math.min(...rules.map((rule) => rule.minLength)) : 1;
  const reason = Type.String({
    minLength,
    maxLength: L.reasonMax,
    description: required ? `Why (at least ${minLength} characters).` : 'Why (optional).',
  });
  return Type.Object(required ? { reason } : { reason: Type.Optional(reason) }, {
    additionalProperties: false,
  });
}

export const ApproveAndStartBody = Type.Object(
  {
    notes: Type.String({
      minLength: 20,
      maxLength: L.reasonMax,
      description: 'The CEO’s confirmation notes (at least 20 characters).',
    }),
  },
  { additionalProperties: false },
);
