/**
 * Helpers the verb implementations share: ownership checks, lifecycle transitions through the
 * tasks service, the typed notes per role and the journal, the git agent, findings raised by a
 * review, and the tracing gates on commits, the pull request and open findings.
 */
import type { Team } from '../../../platform/http/auth/identity.js';
import { messageOf } from '../../../platform/message-of.js';
import type { FindingInput, FindingOrigin } from '../../findings/index.js';
import type { ActionPlan, Actor, TaskView } from '../../tasks/index.js';
import type { GatewayServices, VerbCall } from '../context.js';
import { reject, tracingGap } from '../envelope.js';
import type { GitAgent } from '../git-port.js';

export const gitAgent = (actor: Actor): GitAgent => ({
  id: actor.id,
  slug: actor.slug,
  role: actor.role,
  team: actor.team,
});

/** The caller as the roster's org helpers take it (escalation chain lookups). */
export const asAgent = (actor: Actor) => ({
  id: actor.id,
  role: actor.role,
  team: actor.team as Team | null,
});

export const ownsTask = (task: TaskView, actor: Actor): boolean =>
  task.assigned_to === actor.id || task.active_claimant_id === actor.id;

/** not_authorized unless the caller owns the task (assignee or claimant). */
export function requireOwner(task: TaskView, actor: Actor, doing: string): void {
  if (ownsTask(task, actor)) return;
  throw reject(
    'not_authorized',
    `only the task’s owner may ${doing}; task ${task.id} is not yours`,
    'Call give_me_work for the task that is yours.',
    {
      reason: 'not_owner',
      details: { assigned_to: task.assigned_to, active_claimant_id: task.active_claimant_id },
    },
  );
}

/**
 * A lifecycle transition through the tasks service (all holds, rules and audit apply), decided on
 * the view in hand (the tasks service re-reads only if the task changed since).
 */
export const transition = (
  call: VerbCall,
  task: TaskView,
  plan: ActionPlan,
  reason?: string,
): Promise<TaskView> => call.s.tasks.transition(task, plan, call.actor, reason ? { reason } : {});

/** Writes the caller's role section of the task notes (`notes.<role>`), with who and when. */
export function recordNotes(
  call: VerbCall,
  task: TaskView,
  section: Record<string, unknown>,
  audit = `${call.verb.name}_notes`,
): Promise<TaskView> {
  const entry = { ...section, by: call.actor.slug, at: call.s.clock.now().toISOString() };
  return call.s.tasks.recordFacts(task.id, { notes: { [call.actor.role]: entry } }, call.actor, {
    action: audit,
  });
}

/** Appends an entry to the task's journal (`notes.journal`, the last 50 kept). */
export function appendJournal(
  s: GatewayServices,
  task: TaskView,
  actor: Actor,
  entry: { scope: string; text: string },
): Promise<TaskView> {
  const journal = Array.isArray(task.notes.journal) ? (task.notes.journal as unknown[]) : [];
  const item = { ...entry, by: actor.slug, role: actor.role, at: s.clock.now().toISOString() };
  return s.tasks.recordFacts(task.id, { notes: { journal: [...journal, item].slice(-50) } }, actor, {
    action: 'note',
    data: { scope: entry.scope },
  });
}

/** The findings of a review round, in the ledger (round = the revision about to be asked for). */
export function raiseFindings(
  call: VerbCall,
  before: TaskView,
  origin: FindingOrigin,
  findings: FindingInput[] | undefined,
) {
  if (!findings || findings.length === 0) return Promise.resolve([]);
  return call.s.findings.raise(before.id, origin, before.revision_count + 1, call.actor.slug, findings);
}

/** tracing_gap unless the task branch has at least one commit. */
export async function requireCommits(s: GatewayServices, task: TaskView): Promise<number> {
  const commits = await s.git.commitsOf(task);
  if (commits.length === 0) {
    throw tracingGap(['commit'], 'Commit your work with the commit tool first (do/commit).', 'no_commits');
  }
  return commits.length;
}

/** tracing_gap unless the task has its pull request. */
export function requirePullRequest(task: TaskView, remediate = 'Open it with open_pr first.'): void {
  if (!task.pr_created || task.pr_number === null) {
    throw tracingGap(['pull_request'], remediate, 'no_pull_request');
  }
}

/** Marks the given findings addressed, then tracing_gap for every open finding still left. */
export async function settleFindings(
  s: GatewayServices,
  task: TaskView,
  resolved: { finding_id: string; commit?: string; note?: string }[] | undefined,
): Promise<void> {
  if (resolved && resolved.length > 0) await s.findings.markAddressed(task.id, resolved);
  const ledger = await s.findings.ledger(task.id, { limit: 500 });
  const open = ledger.findings.filter((f) => f.status === 'open');
  if (open.length > 0) {
    throw tracingGap(
      open.map((f) => `finding:${f.id.slice(0, 8)}`),
      'Address each open finding and list it in resolved_findings ({finding_id, commit, note}).',
      'findings_open',
    );
  }
}

/** Best-effort side effect after a committed change: a failure becomes the envelope's warning. */
export async function bestEffort(work: () => Promise<unknown>, what: string): Promise<string | undefined> {
  try {
    await work();
    return undefined;
  } catch (error) {
    return `${what} failed: ${messageOf(error)}`;
  }
}
