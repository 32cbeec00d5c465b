/**
 * The PR reviewer's verbs (reference A §9.8) and the auditor's waive_finding (§9.7). An inbound
 * review task is claimed and started (claim_pr_review) and finished with post_pr_review; an
 * assembled pull request is claimed at the gate (claim_gate_review, status stays) and passed
 * (pr_gate findings the author addressed become verified) or failed with findings.
 */
import { Type } from 'typebox';
import { taskOf } from '../context.js';
import { assembleEvidence } from '../evidence.js';
import { Findings, Input, INPUT_LIMITS as L, Notes, TaskId, Text, taskOnly } from '../input-fields.js';
import { defineVerb } from './define.js';
import { failWithFindings, reviewClaim } from './reviews.js';
import { bestEffort, raiseFindings, recordNotes, requireOwner, transition } from './support.js';

export const claimPrReview = defineVerb({
  name: 'claim_pr_review',
  input: taskOnly('Claim and start an inbound pull-request review task.'),
  breaker: 'claim',
  suggestWhen: (task) => task.status === 'pending',
  async run(call) {
    const task = await transition(call, taskOf(call), { chain: ['claim', 'start'] });
    return {
      task,
      evidence: await assembleEvidence(call.s, task, { priorFindings: true }),
      fullBriefing: true,
    };
  },
});

export const postPrReview = defineVerb({
  name: 'post_pr_review',
  input: Input(
    {
      task_id: TaskId(),
      body: Notes(L.reviewerNotesMin, `The review (at least ${L.reviewerNotesMin} characters).`),
      event: Type.Optional(
        Type.Enum(['APPROVE', 'REQUEST_CHANGES', 'COMMENT'], {
          default: 'REQUEST_CHANGES',
          description: 'APPROVE | REQUEST_CHANGES | COMMENT.',
        }),
      ),
      findings: Type.Optional(Findings('What is wrong, if anything (1–10 findings).')),
    },
    'Post the review and complete the review task.',
  ),
  suggestWhen: (task) => task.status === 'in_progress',
  async run(call) {
    const { input } = call;
    const before = taskOf(call);
    requireOwner(before, call.actor, 'post its review');
    let task = await transition(call, before, 'pr_review_done');
    const event = input.event ?? 'REQUEST_CHANGES';
    task = await recordNotes(call, task, { summary: input.body.trim(), event });
    const warning = await bestEffort(
      () => raiseFindings(call, before, 'pr_gate', input.findings),
      'recording the findings',
    );
    return { task, next: 'give_me_work', data: { event }, ...(warning ? { warning } : {}) };
  },
});

export const claimGateReview = defineVerb({
  name: 'claim_gate_review',
  input: taskOnly('Claim an assembled pull request at the gate; the evidence comes back inline.'),
  breaker: 'claim',
  suggestWhen: (task) => task.status === 'awaiting_pr_review' && !task.claimedByMe,
  run: (call) => reviewClaim(call),
});

export const prPass = defineVerb({
  name: 'pr_pass',
  input: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.reviewerNotesMin, `Your gate verdict (at least ${L.reviewerNotesMin} characters).`),
    },
    'Pass the gate; the task goes to PM review.',
  ),
  suggestWhen: (task) => task.status === 'awaiting_pr_review' && task.claimedByMe,
  async run(call) {
    const notes = call.input.notes.trim();
    const before = taskOf(call);
    requireOwner(before, call.actor, 'pass it');
    let task = await transition(call, before, 'pr_pass');
    task = await recordNotes(call, task, { summary: notes });
    const warning = await bestEffort(
      () => call.s.findings.verifyAddressed(task.id, 'pr_gate'),
      'verifying addressed findings',
    );
    return { task, next: 'give_me_work', ...(warning ? { warning } : {}) };
  },
});

export const prFail = defineVerb({
  name: 'pr_fail',
  input: Input(
    {
      task_id: TaskId(),
      notes: Notes(L.reasonMin, `Why it fails, in short (at least ${L.reasonMin} characters).`),
      findings: Findings('What is wrong (1–10 findings).'),
    },
    'Fail the gate with findings; the task goes back to its author.',
  ),
  run: (call) => failWithFindings(call, 'pr_fail', 'pr_gate'),
});

export const waiveFinding = defineVerb({
  name: 'waive_finding',
  input: Input(
    {
      task_id: TaskId(),
      finding_id: Text(8, 40, 'The finding’s id, or its first 8+ characters.'),
      note: Text(1, 300, 'Why it may be waived.'),
    },
    'Waive a minor or nit finding.',
  ),
  async run(call) {
    const { input } = call;
    const task = taskOf(call);
    const finding = await call.s.findings.waive(input.finding_id, { note: input.note, taskId: task.id });
    return {
      task,
      data: { finding: { id: finding.id, status: finding.status, severity: finding.severity } },
    };
  },
});
