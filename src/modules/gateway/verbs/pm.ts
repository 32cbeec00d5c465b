/**
 * Verbs both PMs share (reference A §9.4): i_will_plan, request_changes, unblock, escalate_up and
 * declare_coverage. Delegation is in delegate.ts; the roll-up and completion verbs per PM in
 * cell-pm.ts and main-pm.ts.
 */
import type { TaskStatus } from '../../lifecycle/index.js';
import type { TaskView } from '../../tasks/index.js';
import { type CallOf, taskOf, type VerbCall, type VerbResult } from '../context.js';
import { incompleteInput, reject } from '../envelope.js';
import { claimPlanStart } from './developer.js';
import { failWithFindings, uncoveredCriteria } from './reviews.js';
import { asAgent, bestEffort, ownsTask, transition } from './support.js';

export async function iWillPlan(call: CallOf<'i_will_plan'>): Promise<VerbResult> {
  const { input } = call;
  return claimPlanStart(call, {
    summary: input.plan,
    approach: input.approach,
    sub_tasks: input.sub_tasks,
    risks: input.risks ?? [],
  });
}

/** What to do instead of i_will_plan from a review state. */
export const planRemediate = (status: TaskStatus): string | undefined =>
  status === 'awaiting_pm_review' ? 'It waits for your review: complete or request_changes.' : undefined;

export const requestChanges = (call: CallOf<'request_changes'>) =>
  failWithFindings(call, 'request_changes', 'pm');

export async function unblock(call: CallOf<'unblock'>): Promise<VerbResult> {
  const reason = call.input.reason.trim();
  return { task: await transition(call, taskOf(call), 'unblock', reason) };
}

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

export async function escalateUp(call: CallOf<'escalate_up'>): Promise<VerbResult> {
  const reason = call.input.reason.trim();
  const task = await transition(call, taskOf(call), 'escalate_up', reason);
  const { target, warning } = await notifyEscalation(call, task, reason);
  return { task, data: { escalated_to: target }, ...(warning ? { warning } : {}) };
}

export async function declareCoverage(call: CallOf<'declare_coverage'>): Promise<VerbResult> {
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
}
