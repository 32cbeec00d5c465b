/**
 * delegate (reference A §9.4): a PM creates a subtask of the in-progress task it owns, for a member
 * of its chain — the main PM to the cell PMs (planning), a cell PM to its own cell's developers
 * (code, research; design in the UX cell) or QA (code). Documentation is never delegated (it is
 * the documenter's stage of every task). At most 12 subtasks per parent, no duplicate titles among
 * open siblings, code subtasks declare what they will touch, covered parent criteria must exist.
 * The subtask is created through the tasks service (so every create rule applies) and its
 * assignee notified.
 */

import { type Static, Type } from 'typebox';
import { TEAMS, type Team } from '../../../platform/http/auth/identity.js';
import type { Agent } from '../../agents/index.js';
import type { Role, TaskStatus } from '../../lifecycle/index.js';
import { isTerminal } from '../../lifecycle/index.js';
import {
  COMPLEXITIES,
  type CreateTaskInput,
  TASK_NATURES,
  TASK_TYPES,
  type TaskType,
  type TaskView,
} from '../../tasks/index.js';
import { taskOf, type VerbCall, type VerbResult } from '../context.js';
import { incompleteInput, reject } from '../envelope.js';
import { Input, INPUT_LIMITS as L, Strings, TaskId, Text } from '../input-fields.js';
import { defineVerb } from './define.js';
import { uncoveredCriteria } from './reviews.js';
import { bestEffort, requireOwner } from './support.js';

export const MAX_SUBTASKS = 12;

const DelegateInput = Input(
  {
    task_id: TaskId('The parent task you own (in progress) the subtask belongs to.'),
    title: Text(1, L.titleMax, 'The subtask’s title.'),
    description: Text(20, 20_000, 'What to do and why (at least 20 characters).'),
    assigned_to: Text(
      1,
      100,
      'The slug or UUID of the agent to do it (a cell PM delegates to its own cell).',
    ),
    team: Type.Optional(
      Type.Enum([...TEAMS], { description: 'The subtask’s team (default: the assignee’s).' }),
    ),
    task_type: Type.Enum([...TASK_TYPES], { description: TASK_TYPES.join(' | ') }),
    nature: Type.Enum([...TASK_NATURES], { description: TASK_NATURES.join(' | ') }),
    complexity: Type.Enum([...COMPLEXITIES], { description: COMPLEXITIES.join(' | ') }),
    acceptance_criteria: Type.Array(Text(1, 200, 'One criterion.'), {
      minItems: 1,
      maxItems: 7,
      description: 'Acceptance criteria of the subtask (1–7).',
    }),
    intends_to_touch: Type.Optional(
      Strings('Path globs the work will touch (required for code subtasks).', 0, 100),
    ),
    covers_parent_criteria: Type.Optional(
      Strings('Ids (or exact texts) of the parent’s criteria this subtask covers.'),
    ),
    project_id: Type.Optional(TaskId('Target repository, when it is not the parent’s.')),
    depends_on: Type.Optional(
      Type.Array(TaskId('A task id.'), { maxItems: 50, description: 'Tasks that must complete first.' }),
    ),
    adds_migration: Type.Optional(Type.Boolean({ description: 'The work adds a database migration.' })),
    touches_shared: Type.Optional(Type.Boolean({ description: 'The work touches shared code.' })),
    priority: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 3, description: '0 is highest (default: the parent’s).' }),
    ),
  },
  'Create a subtask of your in-progress task for a member of your team.',
);
type DelegateInput = Static<typeof DelegateInput>;

/** Task types each assignee role may be delegated (documentation never). */
function typesFor(role: Role, team: string | null): readonly TaskType[] {
  if (role === 'developer') return team === 'ux_ui' ? ['code', 'research', 'design'] : ['code', 'research'];
  if (role === 'qa') return ['code'];
  if (role === 'cell_pm') return ['planning'];
  return [];
}

/** Why the caller may not delegate to `assignee`, or null. */
function chainRefusal(actor: VerbCall['actor'], assignee: Agent): string | null {
  if (actor.role === 'main_pm') {
    return assignee.role === 'cell_pm' ? null : 'the main PM delegates to the cell PMs only';
  }
  const ownCell = assignee.team !== null && assignee.team === actor.team;
  if (!ownCell || (assignee.role !== 'developer' && assignee.role !== 'qa')) {
    return 'a cell PM delegates to the developers and QA of its own cell only';
  }
  return null;
}

async function checkDelegation(call: VerbCall, parent: TaskView, input: DelegateInput): Promise<Agent> {
  const { actor, s } = call;
  requireOwner(parent, actor, 'delegate from it');
  const assignee = await s.agents.resolve(input.assigned_to);
  if (!assignee || assignee.retiredAt) {
    throw reject(
      'not_found',
      `there is no agent "${input.assigned_to}"`,
      'Name an agent of your chain by slug.',
      {
        reason: 'unknown_agent',
      },
    );
  }
  const refusal = chainRefusal(actor, assignee);
  if (refusal)
    throw reject('not_authorized', refusal, 'Delegate to a member of your chain.', {
      reason: 'delegation_chain',
    });
  if (input.task_type === 'documentation') {
    throw reject(
      'invalid_state',
      'documentation is never delegated: every task gets its documentation stage after QA',
      'Delegate the code, research or planning work instead.',
      { reason: 'documentation_not_delegatable' },
    );
  }
  const allowed = typesFor(assignee.role, assignee.team);
  if (!allowed.includes(input.task_type)) {
    throw incompleteInput(
      ['task_type'],
      { task_type: `a ${assignee.role} takes ${allowed.join(' or ')} tasks` },
      `a ${input.task_type} task cannot go to a ${assignee.role}`,
    );
  }
  if (input.task_type === 'code' && (input.intends_to_touch ?? []).length === 0) {
    throw incompleteInput(
      ['intends_to_touch'],
      {
        intends_to_touch: 'Path globs the code subtask will touch, e.g. ["src/api/**"] (collision planning).',
      },
      'a code subtask must declare what it intends to touch',
    );
  }
  const uncovered = (input.covers_parent_criteria ?? []).filter(
    (named) => uncoveredCriteria(parent, [named]).length === parent.acceptance_criteria.length,
  );
  if (uncovered.length > 0) {
    throw incompleteInput(
      ['covers_parent_criteria'],
      {
        covers_parent_criteria: `the parent’s criteria by id or exact text: ${parent.acceptance_criteria.map((c) => `${c.id}: ${c.text}`).join(' | ')}`,
      },
      `not criteria of the parent: ${uncovered.join(', ')}`,
    );
  }
  const { tasks: children } = await s.tasks.list({ parent_task_id: parent.id, limit: 100 });
  if (children.length >= MAX_SUBTASKS) {
    throw reject(
      'invalid_state',
      `task ${parent.id} already has ${children.length} subtasks`,
      'Finish or cancel subtasks before adding more.',
      {
        reason: 'too_many_subtasks',
      },
    );
  }
  const title = input.title.trim().toLowerCase();
  const twin = children.find(
    (c) => !isTerminal(c.status as TaskStatus) && c.title.trim().toLowerCase() === title,
  );
  if (twin) {
    throw reject(
      'invalid_state',
      `an open subtask with this title exists: ${twin.id}`,
      'Give the new subtask a distinct title, or reuse the existing one.',
      {
        reason: 'duplicate_subtask',
        details: { task_id: twin.id },
      },
    );
  }
  return assignee;
}

export const delegate = defineVerb({
  name: 'delegate',
  input: DelegateInput,
  suggestWhen: (task) => task.status === 'in_progress',
  run: delegateRun,
});

async function delegateRun(call: VerbCall<DelegateInput>): Promise<VerbResult> {
  const { actor, s } = call;
  const { input } = call;
  const parent = taskOf(call);
  const assignee = await checkDelegation(call, parent, input);
  const create: CreateTaskInput = {
    title: input.title,
    description: input.description,
    acceptance_criteria: input.acceptance_criteria,
    team: input.team ?? (assignee.team as Team),
    task_type: input.task_type,
    nature: input.nature,
    complexity: input.complexity,
    priority: input.priority ?? parent.priority,
    parent_task_id: parent.id,
    ...(input.project_id ? { project_id: input.project_id } : {}),
    dependency_ids: input.depends_on ?? [],
    intends_to_touch: input.intends_to_touch ?? [],
    adds_migration: input.adds_migration ?? false,
    touches_shared: input.touches_shared ?? false,
    assigned_to: assignee.id,
  };
  let child = await s.tasks.create(create, actor);
  const covered = input.covers_parent_criteria ?? [];
  if (covered.length > 0) {
    const ids = parent.acceptance_criteria
      .filter((c) => uncoveredCriteria(parent, covered).every((u) => u.id !== c.id))
      .map((c) => c.id);
    child = await s.tasks.recordFacts(child.id, { markers: { parent_ac_refs: ids } }, actor, {
      action: 'declare_coverage',
    });
  }
  const warning = await bestEffort(
    () =>
      s.notifications.send(
        {
          type: 'task_assignment',
          recipients: [assignee.id],
          subject: `New task for you: “${child.title}”`,
          body: `${actor.slug} delegated task ${child.id} to you. Call give_me_work to pick it up.`,
          related_task_id: child.id,
        },
        { id: actor.id, role: actor.role },
      ),
    'notifying the assignee',
  );
  return {
    task: parent,
    data: {
      subtask: {
        id: child.id,
        title: child.title,
        status: child.status,
        assigned_to: assignee.slug,
        team: child.team,
      },
    },
    ...(warning ? { warning } : {}),
  };
}
