/**
 * The envelope's introspection: `current_state` and `valid_next_verbs` come from the lifecycle
 * data for the caller's role and the task's state (`validVerbs`; preconditions such as ownership
 * are not evaluated), and `next` is the one verb a rule-following agent of that role would call
 * now — always one of the valid ones (or a taskless verb when none of the task's is). Which verb
 * that is, and the ways to find other work, are the verbs' own definitions (`suggestWhen`,
 * `fallbackRank`). The
 * lifecycle answers are pure functions of static tables, so each is computed once per process.
 */
import {
  GATEWAY_ROUTES,
  type GatewayRoute,
  gatewayRouteOf,
  type Role,
  type TaskStatus,
  type VerbSpec,
  validVerbs,
  verbStates,
} from '../lifecycle/index.js';
import type { TaskView } from '../tasks/index.js';
import { rankedVerbs, routeDefinitions, type SuggestFacts, type VerbEntry } from './verbs/index.js';

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

interface RouteSuggestions {
  /** The route's verbs that say when they are the natural next one, in lifecycle order. */
  readonly natural: readonly VerbEntry[];
  /** The route's ways to find other work, in the order of their `fallbackRank`. */
  readonly fallbacks: readonly string[];
}

/** Each route's suggestion facts, read from its verbs' definitions. */
const SUGGESTIONS: ReadonlyMap<GatewayRoute, RouteSuggestions> = new Map(
  GATEWAY_ROUTES.map((route) => [
    route,
    {
      natural: routeDefinitions(route).filter((verb) => verb.suggestWhen),
      fallbacks: rankedVerbs(route, 'fallbackRank'),
    },
  ]),
);

/** The verb a role would naturally call next on a task it sees in this state (before the validity filter). */
function natural(route: GatewayRoute, task: Facts, me: string): string | undefined {
  const facts: SuggestFacts = {
    route,
    status: task.status,
    prCreated: task.pr_created,
    claimedByMe: task.active_claimant_id === me,
    mine: task.active_claimant_id === me || task.assigned_to === me,
  };
  return SUGGESTIONS.get(route)?.natural.find((verb) => verb.suggestWhen?.(facts))?.name;
}

/** The fallback when nothing on the task is for this role: look for other work, or stop. */
function fallback(route: GatewayRoute, valid: readonly string[]): string | null {
  return SUGGESTIONS.get(route)?.fallbacks.find((verb) => valid.includes(verb)) ?? null;
}

/** `next` for the envelope: the natural verb when valid now, else a way to find other work. */
export function suggestNext(role: Role, task: Facts | null, me: string): string | null {
  const route = gatewayRouteOf(role);
  if (!route) return null;
  const valid = introspect(role, task).valid_next_verbs;
  const verb = task ? natural(route, task, me) : undefined;
  return verb && valid.includes(verb) ? verb : fallback(route, valid);
}
