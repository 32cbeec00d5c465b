/**
 * The PR reviewer's verbs (reference A §9.8) and the auditor's waive_finding (§9.7). An inbound
 * review task is claimed and started (claim_pr_review) and finished with post_pr_review; an
 * assembled pull request is claimed at the gate (claim_gate_review, status stays) and passed
 * (pr_gate findings the author addressed become verified) or failed with findings.
 */

import { type CallOf, taskOf, type VerbCall, type VerbResult } from '../context.js';
import { assembleEvidence } from '../evidence.js';
import { failWithFindings, reviewClaim } from './reviews.js';
import { bestEffort, raiseFindings, recordNotes, requireOwner, transition } from './support.js';

export async function claimPrReview(call: VerbCall): Promise<VerbResult> {
  const task = await transition(call, taskOf(call), { chain: ['claim', 'start'] });
  return {
    task,
    evidence: await assembleEvidence(call.s, task, { priorFindings: true }),
    fullBriefing: true,
  };
}

export async function postPrReview(call: CallOf<'post_pr_review'>): Promise<VerbResult> {
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
}

export const claimGateReview = (call: VerbCall) => reviewClaim(call);

export async function prPass(call: CallOf<'pr_pass'>): Promise<VerbResult> {
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
}

export const prFail = (call: CallOf<'pr_fail'>) => failWithFindings(call, 'pr_fail', 'pr_gate');

export async function waiveFinding(call: CallOf<'waive_finding'>): Promise<VerbResult> {
  const { input } = call;
  const task = taskOf(call);
  const finding = await call.s.findings.waive(input.finding_id, { note: input.note, taskId: task.id });
  return { task, data: { finding: { id: finding.id, status: finding.status, severity: finding.severity } } };
}
