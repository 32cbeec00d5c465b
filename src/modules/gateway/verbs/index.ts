/**
 * Which implementation answers each verb of each route. The verb list itself is the lifecycle
 * module's (VERBS); a test checks every verb there has an implementation here.
 */
import type { GatewayRoute, TaskStatus } from '../../lifecycle/index.js';
import type { VerbHandler } from '../context.js';
import { blockedRemediate, iAmBlocked, iAmIdle, resume, unclaim } from './common.js';
import { delegate } from './delegate.js';
import { iAmDone, iWillWorkOn, openPr, syncBranch } from './developer.js';
import { declareCoverage, escalateUp, iWillPlan, planRemediate, requestChanges, unblock } from './pm.js';
import { claimGateReview, claimPrReview, postPrReview, prFail, prPass, waiveFinding } from './pr-reviewer.js';
import { claimDocTask, claimReview, fail, iDocumented, pass } from './reviews.js';
import { cellComplete, escalateToCeo, mainComplete, reassign, submitRoot, submitUp } from './roll-up.js';
import { giveMeWork, triage, triageAll } from './work-queue.js';

export interface VerbEntry {
  readonly run: VerbHandler;
  /** A better remediate than "call one of valid_next_verbs" when the task is in a state the verb is not valid from. */
  readonly stateRemediate?: (status: TaskStatus) => string | undefined;
}

const COMMON: Record<string, VerbEntry> = {
  give_me_work: { run: giveMeWork },
  resume: { run: resume },
  unclaim: { run: unclaim },
  i_am_blocked: { run: iAmBlocked, stateRemediate: blockedRemediate },
  i_am_idle: { run: iAmIdle },
};

const PM: Record<string, VerbEntry> = {
  ...COMMON,
  i_will_plan: { run: iWillPlan, stateRemediate: planRemediate },
  delegate: { run: delegate },
  request_changes: { run: requestChanges },
  triage: { run: triage },
  unblock: { run: unblock },
  escalate_up: { run: escalateUp },
  declare_coverage: { run: declareCoverage },
};

const IMPLEMENTATIONS: Readonly<Record<GatewayRoute, Readonly<Record<string, VerbEntry>>>> = {
  developer: {
    ...COMMON,
    i_will_work_on: { run: iWillWorkOn },
    open_pr: { run: openPr },
    i_am_done: { run: iAmDone },
    sync_branch: { run: syncBranch },
  },
  qa: { ...COMMON, claim_review: { run: claimReview }, pass: { run: pass }, fail: { run: fail } },
  documenter: { ...COMMON, claim_doc_task: { run: claimDocTask }, i_documented: { run: iDocumented } },
  cell_pm: {
    ...PM,
    submit_up: { run: submitUp },
    complete: {
      run: cellComplete,
      stateRemediate: (s) => (s === 'in_progress' ? 'Call submit_up first.' : undefined),
    },
    reassign: { run: reassign },
  },
  main_pm: {
    ...PM,
    submit_root: { run: submitRoot },
    complete: { run: mainComplete },
    triage_all: { run: triageAll },
    escalate_to_ceo: { run: escalateToCeo },
  },
  board: { triage: { run: triage }, escalate_to_ceo: { run: escalateToCeo }, i_am_idle: { run: iAmIdle } },
  auditor: { triage: { run: triage }, waive_finding: { run: waiveFinding }, i_am_idle: { run: iAmIdle } },
  pr_reviewer: {
    give_me_work: { run: giveMeWork },
    claim_pr_review: { run: claimPrReview },
    post_pr_review: { run: postPrReview },
    claim_gate_review: { run: claimGateReview },
    pr_pass: { run: prPass },
    pr_fail: { run: prFail },
    unclaim: { run: unclaim },
    i_am_idle: { run: iAmIdle },
  },
};

export const verbEntry = (route: GatewayRoute, verb: string): VerbEntry | undefined =>
  IMPLEMENTATIONS[route][verb];
