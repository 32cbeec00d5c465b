/**
 * The developer's own verbs (reference A §9.1): i_will_work_on (branch and worktree, claim, plan,
 * start — or re-entry on one's own claim), open_pr, i_am_done (tracing gates: a commit, the pull
 * request, every open finding addressed; then self-verification and QA) and sync_branch.
 */
import { Type } from 'typebox';
import { teamMatches } from '../../lifecycle/index.js';
import type { TaskView } from '../../tasks/index.js';
import { taskOf, type VerbCall, type VerbResult } from '../context.js';
import { reject, tracingGap } from '../envelope.js';
import { assembleEvidence } from '../evidence.js';
import {
  Input,
  INPUT_LIMITS as L,
  Notes,
  ResolvedFindings,
  Strings,
  TaskId,
  Text,
  taskOnly,
} from '../input-fields.js';
import { defineVerb } from './define.js';
import {
  bestEffort,
  gitAgent,
  ownsTask,
  recordNotes,
  requireCommits,
  requireOwner,
  settleFindings,
  transition,
} from './support.js';

/** The checks of a fresh claim the git work must not run ahead of: team and pre-assignment. */
export function refuseForeignClaim(call: VerbCall, task: TaskView): void {
  const { actor } = call;
  if (!teamMatches(actor.role, actor.team, task.team)) {
    throw reject(
      'not_authorized',
      `a ${actor.role} of team ${actor.team ?? 'none'} may not take a ${task.team} task`,
      'Call give_me_work for work of your own team.',
      { reason: 'team_mismatch' },
    );
  }
  if (task.assigned_to && task.assigned_to !== actor.id) {
    throw reject(
      'not_authorized',
      `task ${task.id} is assigned to another agent`,
      'Call give_me_work for the work assigned to you.',
      { reason: 'assigned_elsewhere' },
    );
  }
}

/**
 * Claims (unless already the owner of a claimed task), prepares the branch first so a git failure
 * leaves no claim behind, records the plan and starts. Shared with the PMs' i_will_plan.
 */
export async function claimPlanStart(call: VerbCall, plan: Record<string, unknown>): Promise<VerbResult> {
  const { actor, s } = call;
  let task = taskOf(call);
  if (ownsTask(task, actor) && task.status === 'in_progress') {
    return { task, status: 'ok', data: { reentry: true }, fullBriefing: true };
  }
  const resuming = ownsTask(task, actor) && task.status === 'claimed';
  if (!resuming) refuseForeignClaim(call, task);
  const { branch } = await s.git.prepareTask(task, gitAgent(actor));
  if (!resuming) task = await s.tasks.claim(task, actor);
  if (branch && branch !== task.branch_name) {
    task = await s.tasks.recordFacts(task.id, { branch_name: branch }, actor, { action: 'branch' });
  }
  const stamped = { ...plan, by: actor.slug, at: s.clock.now().toISOString() };
  task = await s.tasks.recordFacts(task.id, { plan: stamped }, actor, { action: 'plan' });
  task = await transition(call, task, 'start');
  return { task, fullBriefing: true, data: { branch_name: task.branch_name } };
}

const Step = Type.Object({
  title: Text(1, L.titleMax, 'A short name for the step.'),
  description: Text(
    L.stepDescriptionMin,
    L.stepDescriptionMax,
    `What the step does and how you will know it is done (${L.stepDescriptionMin}–${L.stepDescriptionMax} characters).`,
  ),
});

const Risk = Type.Object({
  risk: Text(1, L.listItemMax, 'What could go wrong.'),
  mitigation: Text(1, L.listItemMax, 'What you will do about it.'),
});

export const iWillWorkOn = defineVerb({
  name: 'i_will_work_on',
  input: Input(
    {
      task_id: TaskId(),
      plan: Text(
        L.planMin,
        L.planMax,
        `Your approach in prose (at least ${L.planMin} characters): what you will change and why.`,
      ),
      steps: Type.Array(Step, {
        minItems: 1,
        maxItems: L.stepsMax,
        description: `The steps in order (1–${L.stepsMax}), each with a title and a ${L.stepDescriptionMin}+ character description.`,
      }),
      technical_considerations: Strings('Technical considerations (at least one).', 1),
      risks: Type.Array(Risk, {
        minItems: 1,
        maxItems: L.listMax,
        description: 'Risks with their mitigation (at least one).',
      }),
      open_questions: Type.Optional(Strings('Questions still open, if any.')),
    },
    'Claim and start a task with a plan (re-entry on your own claim is fine).',
  ),
  breaker: 'claim',
  suggestWhen: (task) => ['pending', 'needs_revision', 'claimed'].includes(task.status),
  run: (call) =>
    claimPlanStart(call, {
      approach: call.input.plan,
      steps: call.input.steps,
      technical_considerations: call.input.technical_considerations,
      risks: call.input.risks,
      open_questions: call.input.open_questions ?? [],
    }),
});

export const openPr = defineVerb({
  name: 'open_pr',
  input: taskOnly('Push the task branch and open its pull request (idempotent).'),
  // Its push can fail transiently, so it gets more tries.
  breakerLimit: 5,
  suggestWhen: (task) => task.status === 'in_progress' && !task.prCreated,
  run: openPrRun,
});

async function openPrRun(call: VerbCall): Promise<VerbResult> {
  const { actor, s } = call;
  let task = taskOf(call);
  requireOwner(task, actor, 'open its pull request');
  if (task.pr_created && task.pr_number !== null) {
    return {
      task,
      status: 'noop',
      data: { pull_request: { number: task.pr_number, url: task.pr_url, created: false } },
    };
  }
  await requireCommits(s, task);
  const pr = await s.git.openPullRequest(task, gitAgent(actor));
  task = await s.tasks.recordFacts(task.id, { pull_request: { number: pr.number, url: pr.url } }, actor, {
    action: 'open_pr',
    data: { pr_number: pr.number, base: pr.base },
  });
  return { task, next: 'i_am_done', data: { pull_request: pr } };
}

export const iAmDone = defineVerb({
  name: 'i_am_done',
  input: Input(
    {
      task_id: TaskId(),
      notes: Notes(
        L.devNotesMin,
        `What you did and how you verified it, for QA (at least ${L.devNotesMin} characters).`,
      ),
      resolved_findings: ResolvedFindings,
    },
    'Submit the work: self-verification, then QA. Needs a commit and an open pull request.',
  ),
  suggestWhen: (task) => (task.status === 'in_progress' && task.prCreated) || task.status === 'verifying',
  async run(call) {
    const { actor, s } = call;
    const { input } = call;
    const before = taskOf(call);
    requireOwner(before, actor, 'submit it');
    if (before.status === 'in_progress') {
      const missing: string[] = [];
      if ((await s.git.commitsOf(before)).length === 0) missing.push('commit');
      if (!before.pr_created || before.pr_number === null) missing.push('pull_request');
      if (missing.length > 0) {
        throw tracingGap(
          missing,
          missing.includes('commit')
            ? 'Commit your work with the commit tool (do/commit), open the pull request with open_pr, then call i_am_done again.'
            : 'Open the pull request with open_pr, then call i_am_done again.',
          missing.includes('commit') ? 'no_commits' : 'no_pull_request',
        );
      }
      await settleFindings(s, before, input.resolved_findings);
    }
    let task = await transition(call, before, { chain: ['submit_verification', 'submit_qa'] });
    task = await recordNotes(call, task, { summary: input.notes.trim() });
    const evidence = await assembleEvidence(s, task);
    const qa = (await s.agents.byRole('qa', task.team as never))[0];
    const warning = qa
      ? await bestEffort(
          () =>
            s.notifications.send(
              {
                type: 'review_request',
                recipients: [qa.id],
                subject: `QA: “${task.title}” is ready for review`,
                body: `${actor.slug} submitted task ${task.id} for QA: ${input.notes.trim().slice(0, 500)}`,
                related_task_id: task.id,
              },
              { id: actor.id, role: actor.role },
            ),
          'notifying QA',
        )
      : undefined;
    return { task, evidence, next: 'give_me_work', ...(warning ? { warning } : {}) };
  },
});

export const syncBranch = defineVerb({
  name: 'sync_branch',
  input: Input(
    {
      task_id: TaskId(),
      stash: Type.Optional(Type.Boolean({ default: false, description: 'Stash uncommitted changes first.' })),
    },
    'Rebase the task branch onto its base.',
  ),
  async run(call) {
    const task = taskOf(call);
    requireOwner(task, call.actor, 'sync its branch');
    const stash = call.input.stash === true;
    const result = await call.s.git.syncBranch(task, gitAgent(call.actor), { stash });
    return { task, data: { sync: result } };
  },
});
