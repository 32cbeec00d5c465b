/**
 * Runs one gateway call end to end and answers its envelope:
 *
 * 1. the caller: a roster agent (agents' `actorOf`) — anyone else is `not_authorized`;
 * 2. the breaker: an open circuit for (agent, verb, task) answers `circuit_open` without running;
 * 3. the route serves the caller's role, and the verb is one of the route's (lifecycle VERBS) —
 *    else `not_authorized`;
 * 4. the input fits the verb's schema (its definition, verbs/*.ts) — else `incomplete_input` with `missing` and `field_hints`;
 * 5. the task exists (`not_found`) and is in a state the verb is valid from for the role
 *    (lifecycle `verbStates`; the flavor of a refusal is the lifecycle's own);
 * 6. the verb runs; a refusal anywhere in it (a Rejection, a domain AppError, a GitRefusal) is
 *    answered as an error envelope and counted by the breaker (the rejection that reaches the
 *    limit comes back as `circuit_open` with it under `inner`).
 *
 * The claim heartbeat is refreshed on every call about a task the caller holds, success or not
 * (so a rule-following retry loop never looks dead to the reaper): by the read of the task named
 * in the call, else after the verb (unless the verb's own write already stamped it). A success of a work-taking verb starts a new breaker run. Real failures (5xx) are not envelopes: they propagate as HTTP errors.
 */
import type { Identity } from '../../platform/http/auth/identity.js';
import { isUuid } from '../../platform/ids.js';
import {
  decideTransition,
  findVerb,
  GATEWAY_ROUTE_ROLES,
  GATEWAY_ROUTES,
  type GatewayRoute,
  gatewayRouteOf,
  type TaskStatus,
  VERBS,
  type VerbSpec,
  verbEntryAction,
  verbNeedsTask,
} from '../lifecycle/index.js';
import type { Actor, TaskView } from '../tasks/index.js';
import type { GatewayEnvelope } from './api-schemas.js';
import { type BreakerKey, type CircuitBreaker, type OpenCircuit, RUN_STARTING_VERBS } from './breaker.js';
import { contextBriefing } from './briefing.js';
import type { GatewayServices, VerbCall, VerbResult } from './context.js';
import { doToolHandler } from './do-tools.js';
import { DEFAULT_REMEDIATE, incompleteInput, type RejectionBody, reject, toRejection } from './envelope.js';
import { checkInput } from './input-check.js';
import { introspect, suggestNext, verbStatesOnce } from './next-verbs.js';
import { DO_TOOL_ROLES, DO_TOOLS, doToolInputSchema, isDoTool } from './verb-inputs.js';
import { rankedVerbs, verbEntry } from './verbs/index.js';

export interface GatewayRequest {
  readonly identity: Identity;
  readonly body: unknown;
  readonly correlationId: string;
  /** Where rejections are logged (Fastify's request logger). */
  readonly log?: { info(data: object, message: string): void };
}

type Body = Record<string, unknown>;
/** What the runner works with: the verbs' services and the circuit breaker around them. */
export interface RunnerServices extends GatewayServices {
  readonly breaker: CircuitBreaker;
}

const asBody = (body: unknown): Body =>
  body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Body) : {};
const taskIdOf = (body: Body): string | null =>
  typeof body.task_id === 'string' && isUuid(body.task_id) ? body.task_id : null;

const isRoute = (value: string): value is GatewayRoute =>
  (GATEWAY_ROUTES as readonly string[]).includes(value);

/** `POST /api/v1/flow/{route}/{verb}`. */
export async function runVerb(
  s: RunnerServices,
  request: GatewayRequest,
  routeName: string,
  verbName: string,
): Promise<GatewayEnvelope> {
  const body = asBody(request.body);
  return guarded(s, request, verbName, taskIdOf(body), async (actor, load) => {
    const ownRoute = gatewayRouteOf(actor.role);
    const route = isRoute(routeName) ? routeName : null;
    if (!route || !GATEWAY_ROUTE_ROLES[route].includes(actor.role)) {
      throw reject(
        'not_authorized',
        `a ${actor.role} may not call the ${routeName} route`,
        ownRoute
          ? `Call your own route, /api/v1/flow/${ownRoute}/{verb}.`
          : 'Your role has no gateway route.',
        { reason: 'wrong_route' },
      );
    }
    const verb = findVerb(route, verbName);
    const entry = verbEntry(route, verbName);
    if (!verb || !entry) {
      throw reject(
        'not_authorized',
        `a ${actor.role} may not call ${verbName}`,
        `Your verbs: ${VERBS[route].map((v) => v.name).join(', ')}.`,
        { reason: 'unknown_verb' },
      );
    }
    const problem = checkInput(entry.input, body);
    if (problem) throw problem;
    const task = verbNeedsTask(verb) ? await load(body.task_id as string) : null;
    if (task && !entry.skipsStateGate?.(body)) gateState(verb, actor, task, entry.stateRemediate);
    return { call: { route, verb, actor, input: body, task, s }, run: entry.run };
  });
}

/** `POST /api/v1/do` with `{tool, ...}`. */
export async function runDoTool(s: RunnerServices, request: GatewayRequest): Promise<GatewayEnvelope> {
  const body = asBody(request.body);
  const tool = body.tool;
  const name = typeof tool === 'string' ? tool : 'do';
  return guarded(s, request, name, taskIdOf(body), async (actor, load) => {
    if (!isDoTool(tool)) {
      throw incompleteInput(
        ['tool'],
        { tool: `one of ${DO_TOOLS.join(', ')}` },
        `there is no content tool "${String(tool)}"`,
      );
    }
    const roles = DO_TOOL_ROLES[tool];
    if (roles && !roles.includes(actor.role)) {
      throw reject(
        'not_authorized',
        `a ${actor.role} may not use ${tool}`,
        `Only ${roles.join(', ')} use ${tool}.`,
        {
          reason: 'tool_not_for_role',
        },
      );
    }
    const problem = checkInput(doToolInputSchema(tool), body);
    if (problem) throw problem;
    const task = typeof body.task_id === 'string' ? await load(body.task_id) : null;
    const verb: VerbSpec = { name: tool, summary: tool, actions: [] };
    return {
      call: { route: gatewayRouteOf(actor.role) ?? null, verb, actor, input: body, task, s },
      run: doToolHandler(tool),
    };
  });
}

/** Reads the task a call is about (refreshing the caller's heartbeat on it, if it holds the claim). */
type TaskLoader = (id: string) => Promise<TaskView>;

async function loadTask(s: RunnerServices, id: string, actor: Actor): Promise<TaskView> {
  const task = await s.tasks.findBeating(id, actor.id);
  if (!task) {
    throw reject('not_found', `there is no task ${id}`, DEFAULT_REMEDIATE.not_found, {
      reason: 'task_not_found',
    });
  }
  return task;
}

/** Refuses a verb called on a task in a state it is not valid from (for this role). */
function gateState(
  verb: VerbSpec,
  actor: Actor,
  task: TaskView,
  stateRemediate?: (status: TaskStatus) => string | undefined,
): void {
  const status = task.status as TaskStatus;
  if (verbStatesOnce(verb, actor.role).includes(status)) return;
  const action = verbEntryAction(verb, actor.role, status) ?? verb.actions[0];
  const decision = action ? decideTransition(actor.role, action, status) : null;
  const flavor = decision && !decision.ok ? decision.flavor : 'invalid_state';
  const message =
    decision && !decision.ok
      ? `${verb.name}: ${decision.message}`
      : `${verb.name} is not valid on a task in ${status}`;
  throw reject(flavor, message, stateRemediate?.(status) ?? DEFAULT_REMEDIATE[flavor], {
    reason: flavor,
    details: { status },
  });
}

interface Prepared {
  call: VerbCall;
  run: (call: VerbCall) => Promise<VerbResult>;
}

async function guarded(
  s: RunnerServices,
  request: GatewayRequest,
  verbName: string,
  taskId: string | null,
  prepare: (actor: Actor, load: TaskLoader) => Promise<Prepared>,
): Promise<GatewayEnvelope> {
  let actor: Actor;
  try {
    actor = await s.agents.actorOf(request.identity);
  } catch (error) {
    const rejection = toRejection(error);
    if (!rejection) throw error;
    return { ...base(request, taskId), ...rejectionFields(rejection), context_briefing: {} };
  }
  const startedAt = s.clock.now().getTime();
  const key: BreakerKey = { agentId: actor.id, verb: verbName, taskId };
  const open = await s.breaker.check(key);
  if (open) return answerRejection(s, request, actor, key, circuitBody(open, verbName, actor));
  let beaten: string | null = null;
  const load: TaskLoader = async (id) => {
    const task = await loadTask(s, id, actor);
    if (task.active_claimant_id === actor.id) beaten = task.id;
    return task;
  };
  try {
    const { call, run } = await prepare(actor, load);
    const result = await run(call);
    if (RUN_STARTING_VERBS.has(verbName)) await s.breaker.startRun(actor.id);
    const task = result.task === undefined ? call.task : result.task;
    if (task && heartbeatDue(task, actor, startedAt)) await s.tasks.touchHeartbeat(task.id, actor.id);
    return {
      ...base(request, task?.id ?? taskId),
      ok: true,
      status: result.status ?? 'ok',
      next: result.next === undefined ? suggestNext(actor.role, task, actor.id) : result.next,
      evidence: result.evidence ?? {},
      context_briefing: await contextBriefing(s, actor, task, result.fullBriefing === true, result.inboxes),
      ...introspect(actor.role, task),
      error: null,
      ...(result.data ? { data: result.data } : {}),
      ...(result.warning ? { warning: result.warning } : {}),
    };
  } catch (error) {
    const rejection = toRejection(error);
    if (!rejection) throw error;
    request.log?.info(
      { verb: verbName, task_id: taskId, flavor: rejection.error, reason: rejection.reason },
      'gateway rejected',
    );
    if (taskId && taskId !== beaten) await s.tasks.touchHeartbeat(taskId, actor.id);
    const tripped = await s.breaker.recordFailure(key, rejection);
    return answerRejection(
      s,
      request,
      actor,
      key,
      tripped ? circuitBody(tripped, verbName, actor) : rejection,
    );
  }
}

/**
 * Whether the caller's heartbeat on the task (as the verb left it) still needs refreshing: only
 * the claimant has one, and a write of this call (a claim, a start) may have stamped it already.
 */
const heartbeatDue = (task: TaskView, actor: Actor, startedAt: number): boolean =>
  task.active_claimant_id === actor.id &&
  !(task.last_heartbeat_at !== null && Date.parse(task.last_heartbeat_at) >= startedAt);

const base = (request: GatewayRequest, taskId: string | null) => ({
  ok: false,
  status: 'rejected',
  task_id: taskId,
  next: null,
  evidence: {},
  current_state: null,
  valid_next_verbs: [] as string[],
  error: null,
  correlation_id: request.correlationId,
});

function rejectionFields(rejection: RejectionBody & { inner?: RejectionBody }) {
  return {
    error: rejection.error,
    message: rejection.message,
    remediate: rejection.remediate,
    reason: rejection.reason,
    ...(rejection.missing ? { missing: rejection.missing } : {}),
    ...(rejection.field_hints ? { field_hints: rejection.field_hints } : {}),
    ...(rejection.details === undefined ? {} : { details: rejection.details }),
    ...(rejection.inner ? { inner: rejection.inner } : {}),
  };
}

async function answerRejection(
  s: RunnerServices,
  request: GatewayRequest,
  actor: Actor,
  key: BreakerKey,
  rejection: RejectionBody & { inner?: RejectionBody },
): Promise<GatewayEnvelope> {
  const task = key.taskId ? await s.tasks.find(key.taskId) : null;
  return {
    ...base(request, key.taskId),
    ...introspect(actor.role, task),
    next: suggestNext(actor.role, task, actor.id),
    context_briefing: await contextBriefing(s, actor, task, false),
    ...rejectionFields(rejection),
  };
}

/** Each route's graceful exits (its verbs with an `exitRank`, in that order), for the breaker's remediate. */
const EXITS = new Map(GATEWAY_ROUTES.map((route) => [route, rankedVerbs(route, 'exitRank')]));

/** The graceful exits a role has, for the breaker's remediate. */
function gracefulExits(actor: Actor): readonly string[] {
  const route = gatewayRouteOf(actor.role);
  return (route && EXITS.get(route)) || [];
}

function circuitBody(
  open: OpenCircuit,
  verb: string,
  actor: Actor,
): RejectionBody & { inner: RejectionBody } {
  const exits = gracefulExits(actor);
  const why =
    open.scope === 'window'
      ? `${verb} was rejected ${open.failures} times within 60 s on this task (limit ${open.limit})`
      : `${verb} was rejected ${open.failures} times on this task since you last took work (limit ${open.limit})`;
  return {
    error: 'circuit_open',
    message: `circuit open: ${why}; stop retrying it. Last rejection: ${open.inner.message}`,
    remediate: `Stop retrying ${verb}. Exit gracefully: ${exits.length > 0 ? exits.join(', ') : 'stop'}${
      exits.includes('i_am_blocked') ? ' (i_am_blocked explains what stops you)' : ''
    }.`,
    reason: 'circuit_open',
    inner: open.inner,
  };
}
