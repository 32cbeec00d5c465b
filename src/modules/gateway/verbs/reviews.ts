/**
 * The review verbs of QA and the documenter (reference A §9.2–9.3): the review claims (status
 * stays; the evidence comes back inline), QA's pass (every acceptance criterion verified with
 * evidence; QA-origin findings the author addressed become verified) and fail (findings into the
 * ledger; back to the author), and i_documented (the documentation files must be on the branch).
 */

import { Type } from 'typebox';
import { safeFailureMessage } from '../../../platform/store-errors.js';
import type { FindingInput } from '../../findings/index.js';
import type { TaskView } from '../../tasks/index.js';
import { taskOf, type VerbCall, type VerbResult } from '../context.js';
import { incompleteInput, tracingGap } from '../envelope.js';
import { assembleEvidence } from '../evidence.js';
import {
  Findings,
  Input,
  INPUT_LIMITS as L,
  Notes,
  Strings,
  TaskId,
  Text,
  taskOnly,
} from '../input-fields.js';
import { defineVerb } from './define.js';
import { bestEffort, gitAgent, raiseFindings, recordNotes, requireOwner, transition } from './support.js';

/** A review claim (QA, documenter, PR gate): the claim, then the evidence with the whole findings ledger. */
export async function reviewClaim(
  call: VerbCall,
  markers: Record<string, unknown> = {},
): Promise<VerbResult> {
  const { actor, s } = call;
  let task = await s.tasks.claim(taskOf(call), actor);
  // The reviewer's worktree of the branch (the documenter writes there; QA may run the tests).
  const warning = task.branch_name
    ? await bestEffort(() => s.git.prepareTask(task, gitAgent(actor)), 'preparing your worktree')
    : undefined;
  if (Object.keys(markers).length > 0) {
    task = await s.tasks.recordFacts(task.id, { markers }, actor, { action: call.verb.name });
  }
  const evidence = await assembleEvidence(s, task, { priorFindings: true });
  return { task, evidence, fullBriefing: true, ...(warning ? { warning } : {}) };
}

export const claimReview = defineVerb({
  name: 'claim_review',
  input: taskOnly('Claim a task for QA review; the evidence comes back inline.'),
  breaker: 'claim',
  suggestWhen: (task) => task.status === 'awaiting_qa' && !task.claimedByMe,
  run: (call) => reviewClaim(call, { qa_evidence_inspected: true }),
});

export const claimDocTask = defineVerb({
  name: 'claim_doc_task',
  input: taskOnly('Claim a task for documentation; the evidence comes back inline.'),
  breaker: 'claim',
  suggestWhen: (task) => task.status === 'awaiting_documentation' && !task.claimedByMe,
  run: (call) => reviewClaim(call),
});

const criterionKey = (text: string) => text.trim().toLowerCase();

/** The task's criteria none of `named` refers to (by id or exact text). */
export function uncoveredCriteria(task: TaskView, named: readonly string[]) {
  const keys = new Set(named.map(criterionKey));
  return task.acceptance_criteria.filter(
    (c) => !keys.has(criterionKey(c.id)) && !keys.has(criterionKey(c.text)),
  );
}

/** incomplete_input when a finding names a criterion the task does not have. */
export function checkFindingCriteria(task: TaskView, findings: FindingInput[] | undefined): void {
  const unknown = (findings ?? [])
    .map((f, index) => ({ index, criterion: f.criterion }))
    .filter(
      (f) => f.criterion && uncoveredCriteria(task, [f.criterion]).length === task.acceptance_criteria.length,
    );
  if (unknown.length === 0) return;
  throw incompleteInput(
    ['findings'],
    { findings: `criterion must be one of the task’s criteria (id or exact text): ${criteriaList(task)}` },
    `unknown criterion in ${unknown.map((f) => `findings[${f.index}]`).join(', ')}`,
  );
}

const criteriaList = (task: TaskView) =>
  task.acceptance_criteria.map((c) => `${c.id}: ${c.text}`).join(' | ');

const CriterionVerified = Type.Object({
  criterion: Text(1, 500, 'The acceptance-criterion id or its exact text.'),
  evidence: Text(L.evidenceMin, 2_000, `How you verified it (at least ${L.evidenceMin} characters).`),
});

export const pass = defineVerb({
  name: 'pass',
  input: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.qaNotesMin, `Your QA report (at least ${L.qaNotesMin} characters).`),
      criteria_verified: Type.Array(CriterionVerified, {
        minItems: 1,
        maxItems: 50,
        description: 'Every acceptance criterion of the task, each with the evidence you verified it by.',
      }),
    },
    'Pass the work; it goes to the documenter.',
  ),
  suggestWhen: (task) => task.status === 'awaiting_qa' && task.claimedByMe,
  async run(call) {
    const { actor, s, input } = call;
    const before = taskOf(call);
    requireOwner(before, actor, 'pass it');
    const uncovered = uncoveredCriteria(
      before,
      input.criteria_verified.map((c) => c.criterion),
    );
    if (uncovered.length > 0) {
      throw incompleteInput(
        ['criteria_verified'],
        {
          criteria_verified: `verify every criterion (id or exact text) with evidence; not yet: ${uncovered.map((c) => `${c.id}: ${c.text}`).join(' | ')}`,
        },
        `${uncovered.length} acceptance criteria are not verified`,
      );
    }
    let task = await transition(call, before, 'qa_pass');
    task = await recordNotes(call, task, {
      summary: input.notes.trim(),
      criteria_verified: input.criteria_verified,
    });
    const warning = await bestEffort(
      () => s.findings.verifyAddressed(task.id, 'qa'),
      'verifying addressed findings',
    );
    return { task, next: 'give_me_work', ...(warning ? { warning } : {}) };
  },
});

/** A failing review (QA fail, PR-gate fail, PM request_changes): findings, then the transition back. */
export async function failWithFindings(
  call: VerbCall<{ notes: string; findings: FindingInput[] }>,
  action: 'qa_fail' | 'pr_fail' | 'request_changes',
  origin: 'qa' | 'pr_gate' | 'pm',
): Promise<VerbResult> {
  const { input } = call;
  const before = taskOf(call);
  if (action !== 'request_changes') requireOwner(before, call.actor, 'fail it');
  checkFindingCriteria(before, input.findings);
  let task = await transition(call, before, action, input.notes.trim());
  task = await recordNotes(call, task, { summary: input.notes.trim() });
  let warning: string | undefined;
  let raised: string[] = [];
  try {
    raised = (await raiseFindings(call, before, origin, input.findings)).map((f) => f.id);
  } catch (error) {
    warning = `recording the findings failed: ${safeFailureMessage(error)}`;
  }
  return { task, next: 'give_me_work', data: { findings: raised }, ...(warning ? { warning } : {}) };
}

export const fail = defineVerb({
  name: 'fail',
  input: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.reasonMin, `Why it fails, in short (at least ${L.reasonMin} characters).`),
      findings: Findings('What is wrong (1–10 findings).'),
    },
    'Fail the work with findings; it goes back to its author.',
  ),
  run: (call) => failWithFindings(call, 'qa_fail', 'qa'),
});

export const iDocumented = defineVerb({
  name: 'i_documented',
  input: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.docNotesMin, `What you documented (at least ${L.docNotesMin} characters).`),
      files: Strings('The documentation files you wrote or changed (at least one).', 1, L.filesMax),
    },
    'The documentation is done; the task goes to PM review.',
  ),
  suggestWhen: (task) => task.status === 'awaiting_documentation' && task.claimedByMe,
  async run(call) {
    const { actor, s, input } = call;
    const before = taskOf(call);
    requireOwner(before, actor, 'finish its documentation');
    if (before.branch_name) {
      const changed = new Set((await s.git.diffSummary(before)).files_changed.map((f) => f.path));
      const uncommitted = input.files.filter((file) => !changed.has(file.replace(/^\.\//, '')));
      if (uncommitted.length > 0) {
        throw tracingGap(
          uncommitted.map((file) => `commit:${file}`),
          'Commit the documentation files on the task branch with the commit tool, then call i_documented again.',
          'docs_not_committed',
        );
      }
    }
    let task = await transition(call, before, 'docs_complete');
    task = await recordNotes(call, task, { summary: input.notes.trim(), files: input.files });
    return { task, next: 'give_me_work' };
  },
});
