/**
 * The PMs' roll-up and completion verbs (reference A §4 steps 7–11, §9.4–9.5): submit_up (cell →
 * root pull request) and submit_root (root → default branch pull request) send assembled work to
 * the PR gate — or straight to PM review when the branch has no commits (PR waived); the cell PM's
 * complete merges the reviewed pull request into its base and completes; the main PM's complete
 * hands a root to the CEO (it never merges to the default branch); escalate_to_ceo; reassign.
 */
import type { Static } from 'typebox';
import { isTerminal, type TaskStatus } from '../../lifecycle/index.js';
import type { TaskView } from '../../tasks/index.js';
import { taskOf, type VerbCall, type VerbResult } from '../context.js';
import { reject, tracingGap } from '../envelope.js';
import { Input, INPUT_LIMITS as L, Notes, Reason, ResolvedFindings, TaskId, Text } from '../input-fields.js';
import { defineVerb } from './define.js';
import {
  bestEffort,
  gitAgent,
  recordNotes,
  requireOwner,
  requirePullRequest,
  settleFindings,
  transition,
} from './support.js';

async function requireSubtasksTerminal(call: VerbCall, task: TaskView): Promise<void> {
  const { tasks } = await call.s.tasks.list({ parent_task_id: task.id, limit: 100 });
  const open = tasks.filter((child) => !isTerminal(child.status as TaskStatus));
  if (open.length > 0) {
    throw tracingGap(
      open.map((child) => `subtask:${child.id.slice(0, 8)}`),
      'Every subtask must be completed or cancelled first; see triage.',
      'subtasks_open',
    );
  }
}

const waived = (task: TaskView) => task.markers.pr_waived === true;

const SubmitUpInput = Input(
  {
    task_id: TaskId(),
    notes: Notes(L.pmNotesMin, `What the cell delivered (at least ${L.pmNotesMin} characters).`),
    resolved_findings: ResolvedFindings,
  },
  'Open the cell pull request to the root and submit it to the PR gate.',
);

/** submit_up / submit_root: the assembled branch to the PR gate, or PR-waived to PM review. */
async function submitAssembled(call: VerbCall<Static<typeof SubmitUpInput>>): Promise<VerbResult> {
  const { actor, s } = call;
  const { input } = call;
  let task = taskOf(call);
  requireOwner(task, actor, 'submit it');
  await requireSubtasksTerminal(call, task);
  await settleFindings(s, task, input.resolved_findings);
  const commits = task.branch_name ? await s.git.commitsOf(task) : [];
  if (commits.length === 0) {
    task = await s.tasks.recordFacts(task.id, { markers: { pr_waived: true } }, actor, {
      action: 'pr_waived',
    });
    task = await transition(call, task, 'submit_pm_review');
  } else {
    if (!task.pr_created || task.pr_number === null) {
      const pr = await s.git.openPullRequest(task, gitAgent(actor));
      task = await s.tasks.recordFacts(task.id, { pull_request: { number: pr.number, url: pr.url } }, actor, {
        action: 'open_pr',
        data: { pr_number: pr.number, base: pr.base },
      });
    }
    task = await transition(call, task, 'submit_for_review');
  }
  task = await recordNotes(call, task, { summary: input.notes.trim() });
  return { task, next: 'give_me_work', data: { pr_waived: commits.length === 0 } };
}

export const submitUp = defineVerb({ name: 'submit_up', input: SubmitUpInput, run: submitAssembled });

export const submitRoot = defineVerb({
  name: 'submit_root',
  input: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.pmNotesMin, `What the root delivered (at least ${L.pmNotesMin} characters).`),
      resolved_findings: ResolvedFindings,
    },
    'Open the root pull request and submit it to the PR gate.',
  ),
  async run(call) {
    const task = taskOf(call);
    if (task.parent_task_id !== null) {
      throw reject(
        'invalid_state',
        `task ${task.id} is not a root`,
        'A subtask rolls up with submit_up (its cell PM).',
        { reason: 'not_a_root' },
      );
    }
    if (task.task_type === 'code') {
      throw reject(
        'invalid_state',
        'a root is a coordination task, never a code task',
        'Delegate the code to the cells.',
        { reason: 'root_is_code' },
      );
    }
    return submitAssembled(call);
  },
});

/** The PR is needed unless waived or the task has no branch at all (branchless coordination). */
const needsPullRequest = (task: TaskView) => task.branch_name !== null && !waived(task);

const CompleteInput = Input(
  {
    task_id: TaskId(),
    notes: Notes(L.pmNotesMin, `Your review verdict (at least ${L.pmNotesMin} characters).`),
  },
  'Complete a reviewed task (the cell PM merges it; the main PM hands a root to the CEO).',
);
type CompleteCall = VerbCall<Static<typeof CompleteInput>>;

/** The cell PM merges; the main PM hands a root to the CEO. */
export const complete = defineVerb({
  name: 'complete',
  input: CompleteInput,
  suggestWhen: (task) => task.status === 'awaiting_pm_review' && task.mine,
  // The cell PM's complete is not valid from in_progress (the main PM's is, so it never sees this).
  stateRemediate: (status) => (status === 'in_progress' ? 'Call submit_up first.' : undefined),
  run: (call) => (call.route === 'main_pm' ? mainComplete(call) : cellComplete(call)),
});

async function cellComplete(call: CompleteCall): Promise<VerbResult> {
  const { actor, s } = call;
  const notes = call.input.notes.trim();
  let task = taskOf(call);
  requireOwner(task, actor, 'complete it');
  await requireSubtasksTerminal(call, task);
  let merged: { merged: boolean; sha: string | null } | null = null;
  if (needsPullRequest(task)) {
    requirePullRequest(
      task,
      'The work reaches its base through a pull request: it must be opened before completion.',
    );
    try {
      merged = await s.git.mergePullRequest(task, gitAgent(actor));
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ceo_only') {
        throw reject(
          'invalid_state',
          (error as Error).message,
          'Only the CEO merges into the default branch: escalate_up to the main PM.',
          {
            reason: 'ceo_only',
          },
        );
      }
      throw error;
    }
  }
  task = await transition(call, task, 'complete', notes);
  task = await recordNotes(call, task, { summary: notes });
  const warning = await bestEffort(
    () => s.findings.verifyAddressed(task.id, 'pm'),
    'verifying addressed findings',
  );
  return { task, next: 'give_me_work', data: { merge: merged }, ...(warning ? { warning } : {}) };
}

async function mainComplete(call: CompleteCall): Promise<VerbResult> {
  const { actor, s } = call;
  const notes = call.input.notes.trim();
  let task = taskOf(call);
  requireOwner(task, actor, 'complete it');
  const parent = task.parent_task_id ? await s.tasks.find(task.parent_task_id) : null;
  const megaTaskWave = parent !== null && parent.batch_id !== null && parent.parent_task_id === null;
  if (parent && !megaTaskWave) {
    throw reject('invalid_state', `task ${task.id} is not a root`, 'Its cell PM completes a subtask.', {
      reason: 'not_a_root',
    });
  }
  if (needsPullRequest(task)) {
    if (task.status === 'in_progress') {
      throw reject(
        'invalid_state',
        'a root with a branch goes through the PR gate first',
        'Call submit_root.',
        {
          reason: 'submit_first',
        },
      );
    }
    requirePullRequest(task, 'Call submit_root to open it.');
  }
  await requireSubtasksTerminal(call, task);
  task = await transition(call, task, { chain: ['submit_pm_review', 'escalate_to_ceo'] }, notes);
  task = await recordNotes(call, task, { summary: notes });
  return { task, next: 'give_me_work' };
}

export const escalateToCeo = defineVerb({
  name: 'escalate_to_ceo',
  input: Input(
    {
      task_id: TaskId(),
      reason: Reason(`Why the CEO should sign it off (at least ${L.reasonMin} characters).`),
    },
    'Escalate to the CEO for sign-off.',
  ),
  // The board's one move on a root; the main PM completes or unblocks instead.
  suggestWhen: (task) =>
    task.route === 'board' && (task.status === 'awaiting_pm_review' || task.status === 'blocked'),
  run: async (call) => ({
    task: await transition(call, taskOf(call), 'escalate_to_ceo', call.input.reason.trim()),
    next: 'i_am_idle',
  }),
});

export const reassign = defineVerb({
  name: 'reassign',
  input: Input(
    {
      task_id: TaskId(),
      new_assignee: Text(1, 100, 'The slug or UUID of a developer of your cell.'),
    },
    'Hand a claimed or in-progress task to another developer of the cell.',
  ),
  async run(call) {
    const { actor, s } = call;
    const task = taskOf(call);
    const to = call.input.new_assignee;
    if (task.team !== actor.team) {
      throw reject(
        'not_authorized',
        `task ${task.id} belongs to team ${task.team}, not yours`,
        'Reassign tasks of your own cell.',
        {
          reason: 'team_mismatch',
        },
      );
    }
    const agent = await s.agents.resolve(to);
    if (!agent || agent.retiredAt) {
      throw reject('not_found', `there is no agent "${to}"`, 'Name a developer of your cell by slug.', {
        reason: 'unknown_agent',
      });
    }
    if (agent.role !== 'developer' || agent.team !== actor.team) {
      throw reject(
        'not_authorized',
        `${agent.slug} is not a developer of your cell`,
        'Name a developer of your cell.',
        {
          reason: 'delegation_chain',
        },
      );
    }
    return { task: await s.tasks.reassign(task.id, agent.id, actor), data: { assigned_to: agent.slug } };
  },
});
