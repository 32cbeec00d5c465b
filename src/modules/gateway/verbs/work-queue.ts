/**
 * Finding work: give_me_work (the caller's own tasks in hand first, then tasks pre-assigned to
 * it, then its role's review queue in its team, then a paused task to resume) and the triage
 * verbs (a PM's blocked and awaiting-review tasks; the board's roots awaiting review; the
 * auditor's longest-blocked tasks). Pending tasks nobody was assigned are the dispatcher's to
 * route, so give_me_work never offers them.
 */
import {
  ACTIVE_STATES,
  claimableStatuses,
  isTeamExempt,
  REVIEW_CLAIM_STATES,
  REVIEW_STATES,
  type TaskStatus,
} from '../../lifecycle/index.js';
import type { Actor, TaskListFilter, TaskView } from '../../tasks/index.js';
import type { GatewayServices, VerbCall, VerbResult } from '../context.js';
import { nothing } from '../input-fields.js';
import { defineVerb } from './define.js';

const FETCH = 100;

/** Highest priority (0) first, then lowest sequence, then oldest. */
const byUrgency = (a: TaskView, b: TaskView) =>
  a.priority - b.priority || a.sequence - b.sequence || a.created_at.localeCompare(b.created_at);

async function tasksWhere(s: GatewayServices, filter: TaskListFilter): Promise<TaskView[]> {
  const { tasks } = await s.tasks.list({ ...filter, limit: FETCH });
  return tasks.filter((task) => !task.held).sort(byUrgency);
}

/** What the caller has in hand before new work: its active tasks and those in a review queue (not the CEO's). */
const IN_HAND: readonly TaskStatus[] = [
  ...ACTIVE_STATES,
  ...REVIEW_STATES.filter((status) => status !== 'awaiting_ceo_approval'),
];

/** The caller's next task, or null when there is none. */
export async function nextWorkFor(s: GatewayServices, actor: Actor): Promise<TaskView | null> {
  const mine = await tasksWhere(s, { assigned_to: actor.id, status: [...IN_HAND, 'pending', 'paused'] });
  const rank = (task: TaskView) =>
    IN_HAND.includes(task.status as TaskStatus) ? 0 : task.status === 'pending' ? 1 : 2;
  const inHand = mine.filter((task) => rank(task) < 2).sort((a, b) => rank(a) - rank(b))[0];
  if (inHand) return inHand;
  const queues = claimableStatuses(actor.role).filter((status) =>
    (REVIEW_CLAIM_STATES as readonly string[]).includes(status),
  );
  if (queues.length > 0) {
    const queued = await tasksWhere(s, {
      status: [...queues],
      ...(isTeamExempt(actor.role) || !actor.team ? {} : { team: actor.team }),
    });
    const open = queued.find(
      (task) => task.active_claimant_id === null && task.markers.original_developer !== actor.id,
    );
    if (open) return open;
  }
  return mine.find((task) => task.status === 'paused') ?? null;
}

export const giveMeWork = defineVerb({
  name: 'give_me_work',
  input: nothing('No input: the next task for you, or idle.'),
  breaker: 'find_work',
  fallbackRank: 1,
  async run(call) {
    const task = await nextWorkFor(call.s, call.actor);
    if (!task) return { status: 'idle', task: null, next: 'i_am_idle', fullBriefing: true };
    return { task, fullBriefing: true };
  },
});

const teamScope = (actor: Actor) => (actor.team ? { team: actor.team } : {});

async function firstOf(s: GatewayServices, filters: TaskListFilter[], keep = (_: TaskView) => true) {
  for (const filter of filters) {
    const found = (await tasksWhere(s, filter)).find(keep);
    if (found) return found;
  }
  return null;
}

const triaged = (task: TaskView | null): VerbResult =>
  task ? { task, fullBriefing: true } : { status: 'idle', task: null, next: 'i_am_idle', fullBriefing: true };

/** The board's and the auditor's own triage; a PM's: the first blocked task of its team, else the first awaiting PM review. */
export const triage = defineVerb({
  name: 'triage',
  input: nothing('No input: the next task to look at, or idle.'),
  breaker: 'find_work',
  fallbackRank: 2,
  async run(call) {
    const { s, actor } = call;
    if (call.route === 'board') return boardTriage(call);
    if (call.route === 'auditor') return auditorTriage(call);
    return triaged(
      await firstOf(s, [
        { status: ['blocked'], ...teamScope(actor) },
        { status: ['awaiting_pm_review'], ...teamScope(actor) },
      ]),
    );
  },
});

/** The main PM's cross-team triage. */
export const triageAll = defineVerb({
  name: 'triage_all',
  input: nothing('No input: the next blocked or awaiting-review task of any team.'),
  breaker: 'find_work',
  run: async (call) =>
    triaged(await firstOf(call.s, [{ status: ['blocked'] }, { status: ['awaiting_pm_review'] }])),
});

/** The board: the next strategic root (no parent) awaiting PM review, to escalate to the CEO. */
async function boardTriage(call: VerbCall): Promise<VerbResult> {
  return triaged(
    await firstOf(call.s, [{ status: ['awaiting_pm_review'] }], (task) => task.parent_task_id === null),
  );
}

/** The auditor: the longest-blocked task first (anomalies to look into). */
async function auditorTriage(call: VerbCall): Promise<VerbResult> {
  const { tasks } = await call.s.tasks.list({ status: ['blocked'], limit: FETCH });
  const oldest = [...tasks].sort((a, b) => a.updated_at.localeCompare(b.updated_at))[0] ?? null;
  return triaged(oldest);
}
