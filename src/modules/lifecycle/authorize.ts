/**
 * The questions everything else asks the lifecycle tables, as pure functions: may role R do action
 * A on a task in state S (and if not, is it `not_authorized` or `invalid_state`), which actions
 * does R have in S, and which of several candidate actions applies.
 */
import type { LifecycleAction } from './actions.js';
import { decideClaim } from './claim-rules.js';
import type { Decision } from './decision.js';
import type { Role } from './roles.js';
import type { TaskStatus } from './states.js';
import { edgesOf, rolesOf, TRANSITIONS } from './transitions.js';

/**
 * May `role` perform `action` on a task in `from` (reaching `to`, when given)? A role that never
 * performs the action is `not_authorized`; so is a role the edge out of `from` does not list. An
 * action with no edge out of `from` (for a role that has it elsewhere) is `invalid_state`.
 */
export function decideTransition(
  role: Role,
  action: LifecycleAction,
  from: TaskStatus,
  to?: TaskStatus,
): Decision {
  if (action === 'claim') {
    const claim = decideClaim(role, from);
    if (claim.ok && to !== undefined && to !== claim.to) return invalidTarget(action, from, to);
    return claim;
  }
  if (!rolesOf(action).includes(role)) {
    return {
      ok: false,
      flavor: 'not_authorized',
      message: `a ${role} may not ${action.replaceAll('_', ' ')}`,
    };
  }
  const leaving = edgesOf(action, from).filter((edge) => to === undefined || edge.to === to);
  if (leaving.length === 0) {
    if (to !== undefined && edgesOf(action, from).length > 0) return invalidTarget(action, from, to);
    return {
      ok: false,
      flavor: 'invalid_state',
      message: `cannot ${action.replaceAll('_', ' ')} a task in ${from}`,
    };
  }
  const allowed = leaving.filter((edge) => edge.roles.includes(role));
  const [first] = allowed;
  if (!first) {
    const who = [...new Set(leaving.flatMap((edge) => edge.roles))].join(', ');
    return {
      ok: false,
      flavor: 'not_authorized',
      message: `a ${role} may not ${action.replaceAll('_', ' ')} a task in ${from}; only ${who} may`,
    };
  }
  return { ok: true, action, from, to: first.to, targets: allowed.map((edge) => edge.to) };
}

const invalidTarget = (action: LifecycleAction, from: TaskStatus, to: TaskStatus): Decision => ({
  ok: false,
  flavor: 'invalid_state',
  message: `${action.replaceAll('_', ' ')} does not lead from ${from} to ${to}`,
});

/** Yes/no form of decideTransition. */
export const mayPerform = (role: Role, action: LifecycleAction, from: TaskStatus): boolean =>
  decideTransition(role, action, from).ok;

/** Every action `role` may perform on a task in `status`, in table order. */
export function actionsAvailable(role: Role, status: TaskStatus): LifecycleAction[] {
  const actions = TRANSITIONS.filter((edge) => edge.from === status && edge.roles.includes(role)).map(
    (edge) => edge.action,
  );
  return [...new Set(actions)];
}

/**
 * Which of `candidates` (alternatives behind one route, e.g. `complete` = PM complete or CEO
 * approve) applies to `role` in `from`: the first one the role may perform, else the first one that
 * has any edge out of `from` (so its refusal explains who may), else the first candidate.
 */
export function pickAction(
  role: Role,
  from: TaskStatus,
  candidates: readonly LifecycleAction[],
): LifecycleAction | undefined {
  return (
    candidates.find((action) => decideTransition(role, action, from).ok) ??
    candidates.find((action) => action !== 'claim' && edgesOf(action, from).length > 0) ??
    candidates[0]
  );
}

/**
 * The actions of a composed operation (a gateway verb, the `submit` route) to run from `from`: the
 * chain starting at the first action `role` may perform there (the rest follow in order, each
 * checked against the state the previous one left). When none applies, the single action whose
 * refusal explains why.
 */
export function chainFrom(
  role: Role,
  from: TaskStatus,
  chain: readonly LifecycleAction[],
): LifecycleAction[] {
  const start = chain.findIndex((action) => decideTransition(role, action, from).ok);
  if (start >= 0) return chain.slice(start);
  const explaining = pickAction(role, from, chain);
  return explaining ? [explaining] : [];
}
