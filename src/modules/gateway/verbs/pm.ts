/**
 * Verbs both PMs share (reference A §9.4): i_will_plan, request_changes, unblock, escalate_up and
 * declare_coverage. Delegation is in delegate.ts; the roll-up and completion verbs per PM in
 * cell-pm.ts and main-pm.ts.
 */
import { Type } from 'typebox';
import type { TaskView } from '../../tasks/index.js';
import { taskOf, type VerbCall } from '../context.js';
import { incompleteInput, reject } from '../envelope.js';
import { Findings, Input, INPUT_LIMITS as L, Notes, Reason, Strings, TaskId, Text } from '../input-fields.js';
import { defineVerb } from './define.js';
import { claimPlanStart } from './developer.js';
import { failWithFindings, uncoveredCriteria } from './reviews.js';
import { asAgent, bestEffort, ownsTask, transition } from './support.js';

const SubTask = Type.Object({
  title: Text(1, L.titleMax, 'The subtask’s title.'),
  description: Text(
    L.stepDescriptionMin,
    L.stepDescriptionMax,
    `What the subtask delivers (${L.stepDescriptionMin}–${L.stepDescriptionMax} characters).`,
  ),
});

export const iWillPlan = defineVerb({
  name: 'i_will_plan',
  input: Input(
    {
      task_id: TaskId(),
      plan: Text(1, 2_000, 'The plan in one paragraph.'),
      approach: Text(
        L.planMin,
        L.planMax,
        `How the work will be split and why (at least ${L.planMin} characters).`,
      ),
      sub_tasks: Type.Array(SubTask, {
        minItems: 1,
        maxItems: L.subTasksMax,
        description: `The subtasks you will delegate (1–${L.subTasksMax}), each with a ${L.stepDescriptionMin}+ character description.`,
      }),
      risks: Type.Optional(Strings('Risks, if any.')),
    },
    'Claim and start a task with a plan (re-entry on your own claim is fine).',
  ),
  breaker: 'claim',
  suggestWhen: (task) => ['pending', 'claimed', 'needs_revision'].includes(task.status),
  // From a review state, say what to do instead.
  stateRemediate: (status) =>
    status === 'awaiting_pm_review' ? 'It waits for your review: complete or request_changes.' : undefined,
  run: (call) =>
    claimPlanStart(call, {
      summary: call.input.plan,
      approach: call.input.approach,
      sub_tasks: call.input.sub_tasks,
      risks: call.input.risks ?? [],
    }),
});

export const requestChanges = defineVerb({
  name: 'request_changes',
  input: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.reasonMin, `What must change, in short (at least ${L.reasonMin} characters).`),
      findings: Findings('What is wrong (1–10 findings).'),
    },
    'Send reviewed work back to its author with findings.',
  ),
  run: (call) => failWithFindings(call, 'request_changes', 'pm'),
});

export const unblock = defineVerb({
  name: 'unblock',
  input: Input(
    {
      task_id: TaskId(),
      reason: Reason(`How the blocker was resolved (at least ${L.reasonMin} characters).`),
    },
    'Unblock a task: it returns to the state and owner it had before it was blocked (or to the pool).',
  ),
  suggestWhen: (task) => task.status === 'blocked',
  run: async (call) => ({ task: await transition(call, taskOf(call), 'unblock', call.input.reason.trim()) }),
});

/** Notifies whoever `call.actor` escalates to about `task` (best effort). */
export async function notifyEscalation(call: VerbCall, task: TaskView, reason: string) {
  const target = await call.s.agents.escalationTarget(asAgent(call.actor));
  if (!target) return { target: null, warning: undefined };
  const warning = await bestEffort(
    () =>
      call.s.notifications.send(
        {
          type: 'blocker_escalation',
          priority: 'high',
          recipients: [target.id],
          subject: `${call.actor.slug} escalates “${task.title}”`,
          body: `${reason}\n\nTask ${task.id} is blocked until someone unblocks it.`,
          related_task_id: task.id,
        },
        { id: call.actor.id, role: call.actor.role },
      ),
    'notifying the escalation target',
  );
  return { target: target.slug, warning };
}

export const escalateUp = defineVerb({
  name: 'escalate_up',
  input: Input(
    { task_id: TaskId(), reason: Reason(`Why it needs the next rung (at least ${L.reasonMin} characters).`) },
    'Escalate a task one rung up the chain.',
  ),
  async run(call) {
    const reason = call.input.reason.trim();
    const task = await transition(call, taskOf(call), 'escalate_up', reason);
    const { target, warning } = await notifyEscalation(call, task, reason);
    return { task, data: { escalated_to: target }, ...(warning ? { warning } : {}) };
  },
});

export const declareCoverage = defineVerb({
  name: 'declare_coverage',
  input: Input(
    {
      task_id: TaskId('The subtask that covers the criteria.'),
      criteria: Strings('Ids (or exact texts) of the parent’s criteria it covers (at least one).', 1),
    },
    'Declare which of its parent’s criteria a subtask covers.',
  ),
  async run(call) {
    const { actor, s } = call;
    const child = taskOf(call);
    const { criteria } = call.input;
    const parent = child.parent_task_id ? await s.tasks.find(child.parent_task_id) : null;
    if (!parent) {
      throw reject(
        'invalid_state',
        `task ${child.id} is a root: it has no parent criteria to cover`,
        'Declare coverage on a subtask.',
        {
          reason: 'no_parent',
        },
      );
    }
    const mayDeclare =
      ownsTask(parent, actor) ||
      actor.role === 'main_pm' ||
      (actor.role === 'cell_pm' && actor.team === child.team);
    if (!mayDeclare) {
      throw reject(
        'not_authorized',
        'only the parent’s owner or the PM of the subtask’s team may declare its coverage',
        'Ask the parent’s owner.',
        {
          reason: 'not_owner',
        },
      );
    }
    const unknown = criteria.filter(
      (named) => uncoveredCriteria(parent, [named]).length === parent.acceptance_criteria.length,
    );
    if (unknown.length > 0) {
      throw incompleteInput(
        ['criteria'],
        {
          criteria: `name the parent’s criteria by id or exact text: ${parent.acceptance_criteria.map((c) => `${c.id}: ${c.text}`).join(' | ')}`,
        },
        `not criteria of the parent: ${unknown.join(', ')}`,
      );
    }
    const covered = parent.acceptance_criteria.filter((c) =>
      uncoveredCriteria(parent, criteria).every((u) => u.id !== c.id),
    );
    const task = await s.tasks.recordFacts(
      child.id,
      { markers: { parent_ac_refs: covered.map((c) => c.id) } },
      actor,
      {
        action: 'declare_coverage',
      },
    );
    return { task, data: { parent_ac_refs: covered.map((c) => c.id) } };
  },
});
