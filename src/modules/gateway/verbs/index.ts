/**
 * Which implementation answers each verb of each route. The verb list itself is the lifecycle
 * module's (VERBS); a test checks every verb there has an implementation here.
 */
import type { GatewayRoute, TaskStatus } from '../../lifecycle/index.js';
import type { CallOf, VerbHandler, VerbResult } from '../context.js';
import type { VerbName } from '../verb-inputs.js';
import { blockedRemediate, iAmBlocked, iAmIdle, resume, unclaim } from './common.js';
import { delegate } from './delegate.js';
import { iAmDone, iWillWorkOn, openPr, syncBranch } from './developer.js';
import { declareCoverage, escalateUp, iWillPlan, planRemediate, requestChanges, unblock } from './pm.js';
import { claimGateReview, claimPrReview, postPrReview, prFail, prPass, waiveFinding } from './pr-reviewer.js';
import { claimDocTask, claimReview, fail, iDocumented, pass } from './reviews.js';
import { cellComplete, escalateToCeo, mainComplete, reassign, submitRoot, submitUp } from './roll-up.js';
import { giveMeWork, triage, triageAll } from './work-queue.js';

export interface VerbEntry {
  readonly name: VerbName;
  readonly run: VerbHandler;
  /** A better remediate than "call one of valid_next_verbs" when the task is in a state the verb is not valid from. */
  readonly stateRemediate?: (status: TaskStatus) => string | undefined;
}

/**
 * One verb's implementation, its handler typed from the verb's input schema (verb-inputs.ts). The
 * runner checks every body against that schema before it calls `run`, which is what makes the one
 * widening below sound.
 */
function defineVerb<N extends VerbName>(
  name: N,
  run: (call: CallOf<N>) => Promise<VerbResult>,
  stateRemediate?: VerbEntry['stateRemediate'],
): VerbEntry {
  return { name, run: run as VerbHandler, ...(stateRemediate ? { stateRemediate } : {}) };
}

const byName = (...entries: VerbEntry[]): Readonly<Record<string, VerbEntry>> =>
  Object.fromEntries(entries.map((entry) => [entry.name, entry]));

const COMMON = [
  defineVerb('give_me_work', giveMeWork),
  defineVerb('resume', resume),
  defineVerb('unclaim', unclaim),
  defineVerb('i_am_blocked', iAmBlocked, blockedRemediate),
  defineVerb('i_am_idle', iAmIdle),
];

const PM = [
  ...COMMON,
  defineVerb('i_will_plan', iWillPlan, planRemediate),
  defineVerb('delegate', delegate),
  defineVerb('request_changes', requestChanges),
  defineVerb('triage', triage),
  defineVerb('unblock', unblock),
  defineVerb('escalate_up', escalateUp),
  defineVerb('declare_coverage', declareCoverage),
];

const IMPLEMENTATIONS: Readonly<Record<GatewayRoute, Readonly<Record<string, VerbEntry>>>> = {
  developer: byName(
    ...COMMON,
    defineVerb('i_will_work_on', iWillWorkOn),
    defineVerb('open_pr', openPr),
    defineVerb('i_am_done', iAmDone),
    defineVerb('sync_branch', syncBranch),
  ),
  qa: byName(
    ...COMMON,
    defineVerb('claim_review', claimReview),
    defineVerb('pass', pass),
    defineVerb('fail', fail),
  ),
  documenter: byName(
    ...COMMON,
    defineVerb('claim_doc_task', claimDocTask),
    defineVerb('i_documented', iDocumented),
  ),
  cell_pm: byName(
    ...PM,
    defineVerb('submit_up', submitUp),
    defineVerb('complete', cellComplete, (s) => (s === 'in_progress' ? 'Call submit_up first.' : undefined)),
    defineVerb('reassign', reassign),
  ),
  main_pm: byName(
    ...PM,
    defineVerb('submit_root', submitRoot),
    defineVerb('complete', mainComplete),
    defineVerb('triage_all', triageAll),
    defineVerb('escalate_to_ceo', escalateToCeo),
  ),
  board: byName(
    defineVerb('triage', triage),
    defineVerb('escalate_to_ceo', escalateToCeo),
    defineVerb('i_am_idle', iAmIdle),
  ),
  auditor: byName(
    defineVerb('triage', triage),
    defineVerb('waive_finding', waiveFinding),
    defineVerb('i_am_idle', iAmIdle),
  ),
  pr_reviewer: byName(
    defineVerb('give_me_work', giveMeWork),
    defineVerb('claim_pr_review', claimPrReview),
    defineVerb('post_pr_review', postPrReview),
    defineVerb('claim_gate_review', claimGateReview),
    defineVerb('pr_pass', prPass),
    defineVerb('pr_fail', prFail),
    defineVerb('unclaim', unclaim),
    defineVerb('i_am_idle', iAmIdle),
  ),
};

export const verbEntry = (route: GatewayRoute, verb: string): VerbEntry | undefined =>
  IMPLEMENTATIONS[route][verb];
