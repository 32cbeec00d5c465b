/** HTTP shapes of /api/prompter (the intake interviewer's live chat). */
import { Type } from 'typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { TASK_LIMITS, TASK_TYPES } from '../tasks/index.js';

export const TAGS = ['prompter'];

export const DRAFT_TEAMS = ['backend', 'frontend', 'ux_ui', 'board', 'main_pm'] as const;
export const INTAKE_ROUTES = ['main_pm', 'board'] as const;
export type IntakeRoute = (typeof INTAKE_ROUTES)[number];

const Id = Type.String({ minLength: 1, maxLength: 100 });

/** One task as the interviewer proposes it (also the shape of its `propose_task` tool). */
export const TaskDraft = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: TASK_LIMITS.titleMax }),
    description: Type.String({
      minLength: TASK_LIMITS.descriptionMin,
      maxLength: TASK_LIMITS.descriptionMax,
    }),
    acceptance_criteria: Type.Array(Type.String({ minLength: 1, maxLength: TASK_LIMITS.criterionMax }), {
      minItems: TASK_LIMITS.criteriaMin,
      maxItems: TASK_LIMITS.criteriaMax,
    }),
    team: StringEnum([...DRAFT_TEAMS], { description: 'The team the work belongs to.' }),
    type: StringEnum([...TASK_TYPES], { description: 'The kind of work.' }),
    project_id: Type.Optional({ ...Id, description: 'With a several-project scope: which of them.' }),
  },
  { additionalProperties: false },
);

export const TaskDraftEdits = Type.Partial(TaskDraft, { additionalProperties: false });

export const BatchDraft = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: TASK_LIMITS.titleMax }),
    tasks: Type.Array(TaskDraft, { minItems: 1, maxItems: 12 }),
  },
  { additionalProperties: false },
);

export const StartBody = Type.Object(
  {
    project_id: Type.Optional(Id),
    product_id: Type.Optional(Id),
    project_ids: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: 10, uniqueItems: true })),
    initial_message: Type.Optional(Type.String({ minLength: 1, maxLength: 20_000 })),
  },
  { additionalProperties: false },
);

export const ConfirmBody = Type.Object(
  {
    route: Type.Optional(
      StringEnum([...INTAKE_ROUTES], {
        description: 'Who takes it: the main PM (default; plans and delegates) or the board (review first).',
      }),
    ),
    draft: Type.Optional({ ...TaskDraftEdits, description: 'Edits over the proposed task (a task draft).' }),
    tasks: Type.Optional(
      Type.Array(TaskDraft, {
        minItems: 1,
        maxItems: 12,
        description: 'The batch as edited (a batch draft).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const Confirmed = Type.Object({
  route: StringEnum([...INTAKE_ROUTES]),
  task_ids: Type.Array(Type.String()),
  tasks: Type.Array(
    Type.Object({ id: Type.String(), title: Type.String(), team: Type.String(), status: Type.String() }),
  ),
});
