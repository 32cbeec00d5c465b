/**
 * The envelope's introspection: `current_state` and `valid_next_verbs` come from the lifecycle
 * data for the caller's role and the task's state (`validVerbs`; preconditions such as ownership
 * are not evaluated), and `next` is the one verb a rule-following agent of that role would call
 * now — always one of the valid ones (or a taskless verb when none of the task's is). The
 * lifecycle answers are pure functions of static tables, so each is computed once per process.
 */
import {
  gatewayRouteOf,
  type Role,
  type TaskStatus,
  type VerbSpec,
  validVerbs,
  verbStates,
} from '../lifecycle/index.js';
import type { TaskView } from '../tasks/index.js';

const validByRoleAndStatus = new Map<string, readonly string[]>();

/** `validVerbs(role, status)`, computed once per role and status. */
function validVerbsOnce(role: Role, status: TaskStatus | undefined): string[] {
  const key = `${role}:${status ?? ''}`;
  let verbs = validByRoleAndStatus.get(key);
  if (!verbs) {
    verbs = validVerbs(role, status);
    validByRoleAndStatus.set(key, verbs);
  }
  return [...verbs];
}

const statesByVerb = new WeakMap<VerbSpec, Map<Role, readonly TaskStatus[]>>();

/** `verbStates(verb, role)`, computed once per verb and role. */
export function verbStatesOnce(verb: VerbSpec, role: Role): readonly TaskStatus[] {
  let byRole = statesByVerb.get(verb);
  if (!byRole) {
    byRole = new Map();
    statesByVerb.set(verb, byRole);
  }
  let states = byRole.get(role);
  if (!states) {
    states = verbStates(verb, role);
    byRole.set(role, states);
  }
  return states;
}

export interface Introspection {
  current_state: TaskStatus | null;
  valid_next_verbs: string[];
}

export function introspect(role: Role, task: Pick<TaskView, 'status'> | null): Introspection {
  const status = task ? (task.status as TaskStatus) : undefined;
  return { current_state: status ?? null, valid_next_verbs: validVerbsOnce(role, status) };
}

type Facts = Pick<TaskView, 'status' | 'assigned_to' | 'active_claimant_id' | 'pr_created'>;

/** The verb a role would naturally call next on a task it sees in this state (before the validity filter). */
function natural(role: Role, task: Facts, me: string): string | undefined {
  const mine = task.active_claimant_id === me || task.assigned_to === me;
  const claimedByMe = task.active_claimant_id === me;
  switch (gatewayRouteOf(role)) {
    case 'developer':
      return (
        {
          pending: 'i_will_work_on',
          needs_revision: 'i_will_work_on',
          claimed: 'i_will_work_on',
          in_progress: task.pr_created ? 'i_am_done' : 'open_pr',
          verifying: 'i_am_done',
          paused: 'resume',
        } as Partial<Record<string, string>>
      )[task.status];
    case 'qa':
      if (task.status === 'awaiting_qa') return claimedByMe ? 'pass' : 'claim_review';
      return task.status === 'paused' ? 'resume' : undefined;
    case 'documenter':
      if (task.status === 'awaiting_documentation') return claimedByMe ? 'i_documented' : 'claim_doc_task';
      return task.status === 'paused' ? 'resume' : undefined;
    case 'cell_pm':
    case 'main_pm':
      return (
        {
          pending: 'i_will_plan',
          claimed: 'i_will_plan',
          needs_revision: 'i_will_plan',
          in_progress: 'delegate',
          awaiting_pm_review: mine ? 'complete' : undefined,
          blocked: 'unblock',
          paused: 'resume',
        } as Partial<Record<string, string | undefined>>
      )[task.status];
    case 'pr_reviewer':
      if (task.status === 'pending') return 'claim_pr_review';
      if (task.status === 'in_progress') return 'post_pr_review';
      if (task.status === 'awaiting_pr_review') return claimedByMe ? 'pr_pass' : 'claim_gate_review';
      return undefined;
    case 'board':
      return task.status === 'awaiting_pm_review' || task.status === 'blocked'
        ? 'escalate_to_ceo'
        : undefined;
    default:
      return undefined;
  }
}

/** The fallback when nothing on the task is for this role: look for other work, or stop. */
function fallback(valid: readonly string[]): string | null {
  for (const verb of ['give_me_work', 'triage', 'i_am_idle']) if (valid.includes(verb)) return verb;
  return null;
}

/** `next` for the envelope: the natural verb when valid now, else a way to find other work. */
export function suggestNext(role: Role, task: Facts | null, me: string): string | null {
  const valid = introspect(role, task).valid_next_verbs;
  const verb = task ? natural(role, task, me) : undefined;
  return verb && valid.includes(verb) ? verb : fallback(valid);
}
