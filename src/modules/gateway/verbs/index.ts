/**
 * Every gateway verb's definition (each beside its handler), by name. Which routes have a verb is
 * the lifecycle's (VERBS); a verb is served on a route when both know it — a test keeps the two
 * name sets equal. The input schemas, the breaker's lists and the next-verb suggestions are read
 * from here (verb-inputs.ts, breaker.ts, next-verbs.ts; the routes and the MCP catalogue through
 * verbInputSchema).
 */
import { findVerb, type GatewayRoute, VERBS } from '../../lifecycle/index.js';
import { iAmBlocked, iAmIdle, resume, unclaim } from './common.js';
import type { VerbEntry } from './define.js';
import { delegate } from './delegate.js';
import { iAmDone, iWillWorkOn, openPr, syncBranch } from './developer.js';
import { declareCoverage, escalateUp, iWillPlan, requestChanges, unblock } from './pm.js';
import { claimGateReview, claimPrReview, postPrReview, prFail, prPass, waiveFinding } from './pr-reviewer.js';
import { claimDocTask, claimReview, fail, iDocumented, pass } from './reviews.js';
import { complete, escalateToCeo, reassign, submitRoot, submitUp } from './roll-up.js';
import { giveMeWork, triage, triageAll } from './work-queue.js';

export type { BreakerClass, SuggestFacts, VerbEntry } from './define.js';

export const VERB_DEFINITIONS: readonly VerbEntry[] = [
  giveMeWork,
  triage,
  triageAll,
  resume,
  unclaim,
  iAmBlocked,
  iAmIdle,
  iWillWorkOn,
  openPr,
  iAmDone,
  syncBranch,
  claimReview,
  pass,
  fail,
  claimDocTask,
  iDocumented,
  iWillPlan,
  delegate,
  requestChanges,
  unblock,
  escalateUp,
  declareCoverage,
  submitUp,
  submitRoot,
  complete,
  reassign,
  escalateToCeo,
  waiveFinding,
  claimPrReview,
  postPrReview,
  claimGateReview,
  prPass,
  prFail,
];

const BY_NAME: ReadonlyMap<string, VerbEntry> = new Map(VERB_DEFINITIONS.map((verb) => [verb.name, verb]));

/** The definition of a verb by name (on whichever routes have it). */
export const verbDefinition = (verb: string): VerbEntry | undefined => BY_NAME.get(verb);

/** The definition of `verb` as served on `route`; undefined when the route has no such verb. */
export const verbEntry = (route: GatewayRoute, verb: string): VerbEntry | undefined =>
  findVerb(route, verb) ? BY_NAME.get(verb) : undefined;

/** The definitions of `route`'s verbs, in lifecycle order. */
export const routeDefinitions = (route: GatewayRoute): VerbEntry[] =>
  VERBS[route].flatMap((verb) => BY_NAME.get(verb.name) ?? []);

/** The names of `route`'s verbs that carry `rank`, lowest first (the ways out, the ways to find work). */
export const rankedVerbs = (route: GatewayRoute, rank: 'exitRank' | 'fallbackRank'): string[] =>
  routeDefinitions(route)
    .filter((verb) => verb[rank] !== undefined)
    .sort((a, b) => (a[rank] ?? 0) - (b[rank] ?? 0))
    .map((verb) => verb.name);
