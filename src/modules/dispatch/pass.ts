/**
 * One dispatch pass: read the candidates, the roster, who runs and who holds what; un-stall the
 * tasks that progressed; route (routing.ts); then for each route, in order, ask the respawn
 * breaker, do the preparation the route needs (assign a developer, claim for a PM, hand a task to
 * its review PM — through the tasks service, audited), and spawn. Each route is isolated: a
 * refusal or a failed spawn is recorded in the pass summary and the pass goes on. An aborted pass
 * (a kill pause) stops before its next spawn.
 */
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { AppError } from '../../platform/http/errors.js';
import { messageOf } from '../../platform/message-of.js';
import type { AgentsService } from '../agents/index.js';
import type { TaskStatus } from '../lifecycle/index.js';
import type { NotificationsService } from '../notifications/index.js';
import { liveRunAgents } from '../runtime/index.js';
import { heldTasksByAgent, SYSTEM_ACTOR, type TasksService } from '../tasks/index.js';
import type { UsageService } from '../usage/index.js';
import { alertCeo } from './actions.js';
import { breakerVerdict, type RespawnTracker } from './breaker.js';
import { type Candidate, loadCandidates, overBudget, projectBudgets } from './candidates.js';
import { type CliFailure, cliStartFailure } from './cli-failures.js';
import { composePrompt } from './prompt.js';
import {
  type DispatchAgent,
  isSpawnable,
  type Route,
  routeWork,
  type Skip,
  type WorkKind,
} from './routing.js';
import type { AgentSpawner } from './spawner.js';

/** Most skip reasons a summary keeps. */
const SKIPS_KEPT = 100;

export interface PassSummary {
  started_at: string;
  finished_at: string;
  considered: number;
  spawned: { agent_id: string; agent_slug: string; task_id: string; kind: WorkKind; run_id: string }[];
  skipped: Skip[];
  skipped_count: number;
  /** Tasks the respawn breaker gave up on in this pass. */
  stalled: string[];
  /** Stalled tasks that progressed and are dispatched again. */
  unstalled: string[];
  errors: { task_id: string; agent_id: string | null; message: string }[];
  /** Why the pass stopped early (a kill pause), or null. */
  aborted: string | null;
}

export interface PassDeps {
  db: Db;
  clock: Clock;
  tasks: TasksService;
  agents: Pick<AgentsService, 'list'>;
  notifications: Pick<NotificationsService, 'send'>;
  usage: UsageService;
  spawner: AgentSpawner;
  tracker: RespawnTracker;
  respawnLimit: number;
  rootGateReviewer: string;
  /** Whether the agent runs on this replica (a run on another one is read from `agent_runs`). */
  isRunning(agentId: string): boolean;
  isUnavailable(agentId: string): boolean;
  /** Agents whose provider is parked (rate limited), with the provider: nothing is started for them. */
  parkedAgents?(): Promise<ReadonlyMap<string, string>>;
  spawnFailed(agentId: string): void;
  /** The spawn threw because the agent's CLI cannot be started at all: backed off as a run failed on start. */
  cliStartFailed(agentId: string): void;
  /** The agent CLI could not be started at all (cli-failures.ts). */
  cliFailed?(failure: CliFailure): void;
  spawnSucceeded(agentId: string): void;
}

/** Why nothing is spawned while the company-wide monthly budget is reached. */
export const COMPANY_OVER_BUDGET = 'the company is over its monthly budget';

/** A failure as recorded for a spawn: an AppError's code before its message. */
const failureText = (error: unknown) =>
  error instanceof AppError ? `${error.code}: ${error.message}` : messageOf(error);

export async function dispatchPass(deps: PassDeps, signal: AbortSignal): Promise<PassSummary> {
  const startedAt = deps.clock.now();
  const summary: PassSummary = {
    started_at: startedAt.toISOString(),
    finished_at: startedAt.toISOString(),
    considered: 0,
    spawned: [],
    skipped: [],
    skipped_count: 0,
    stalled: [],
    unstalled: [],
    errors: [],
    aborted: null,
  };
  const [candidates, held, budgets, roster, parked, company, runningSomewhere] = await Promise.all([
    loadCandidates(deps.db),
    heldTasksByAgent(deps.db),
    projectBudgets(deps.db, deps.usage, startedAt),
    deps.agents.list(),
    deps.parkedAgents?.() ?? new Map<string, string>(),
    deps.usage.companyMonthBudget(startedAt),
    liveRunAgents(deps.db, startedAt),
  ]);
  summary.considered = candidates.length;
  const stalled = new Set<string>();
  for (const task of candidates) {
    if (!task.breaker?.stalledAt) continue;
    if (breakerVerdict(task.breaker, task.marks, deps.respawnLimit).action === 'stalled') {
      stalled.add(task.id);
    } else {
      await unstall(deps, task);
      task.breaker = null;
      summary.unstalled.push(task.id);
    }
  }
  const agents: DispatchAgent[] = roster
    .filter((agent) => isSpawnable(agent.role))
    .map((agent) => ({
      id: agent.id,
      slug: agent.slug,
      role: agent.role,
      team: agent.team,
      model: agent.model,
    }));
  const { routes, skipped } = routeWork(candidates, {
    agents,
    // An agent runs one run at a time in the whole cluster: its run on another replica counts.
    isRunning: (agentId) => deps.isRunning(agentId) || runningSomewhere.has(agentId),
    isUnavailable: deps.isUnavailable,
    parkedOn: (agentId) => parked.get(agentId),
    busyWith: held,
    stalled,
    overBudgetProjects: new Set(budgets.filter(overBudget).map((budget) => budget.id)),
    rootGateReviewer: deps.rootGateReviewer,
  });
  const skip = (entry: Skip) => {
    summary.skipped_count += 1;
    if (summary.skipped.length < SKIPS_KEPT) summary.skipped.push(entry);
  };
  skipped.forEach(skip);
  if (company.over) {
    for (const route of routes) skip({ task_id: route.task.id, reason: COMPANY_OVER_BUDGET });
    routes.length = 0;
  }
  for (const route of routes) {
    if (signal.aborted) {
      summary.aborted = signal.reason instanceof Error ? signal.reason.message : String(signal.reason);
      break;
    }
    try {
      await dispatchRoute(deps, route as Route & { task: Candidate }, summary, skip, signal);
    } catch (error) {
      summary.errors.push({ task_id: route.task.id, agent_id: route.agent.id, message: failureText(error) });
    }
  }
  summary.finished_at = deps.clock.now().toISOString();
  return summary;
}

async function dispatchRoute(
  deps: PassDeps,
  route: Route & { task: Candidate },
  summary: PassSummary,
  skip: (entry: Skip) => void,
  signal: AbortSignal,
): Promise<void> {
  const { task, kind } = route;
  const verdict = breakerVerdict(task.breaker, task.marks, deps.respawnLimit);
  if (verdict.action === 'trip') {
    await trip(deps, task, route.agent, verdict.spawns);
    summary.stalled.push(task.id);
    return;
  }
  if (verdict.action === 'stalled') return skip({ task_id: task.id, reason: 'stalled' });
  let agent = route.agent;
  try {
    agent = await prepare(deps, route);
  } catch (error) {
    return skip({
      task_id: task.id,
      reason: `could not ${route.prepare.replaceAll('_', ' ')}: ${failureText(error)}`,
    });
  }
  try {
    const marks = await deps.tracker.marksOf(task.id);
    const row = await deps.spawner.task(task.id);
    if (!row) return skip({ task_id: task.id, reason: 'the task is gone' });
    const prompt = composePrompt(
      agent,
      { id: row.id, title: row.title, status: row.status as TaskStatus },
      kind,
    );
    const result = await deps.spawner.spawn(agent, row, prompt, signal);
    if (result.alreadyRunning) return skip({ task_id: task.id, reason: `${agent.slug} is running` });
    await deps.tracker.recordSpawn(task.id, agent.id, verdict.spawns, marks, deps.clock.now());
    deps.spawnSucceeded(agent.id);
    summary.spawned.push({
      agent_id: agent.id,
      agent_slug: agent.slug,
      task_id: task.id,
      kind,
      run_id: result.agent.runId,
    });
  } catch (error) {
    // A CLI missing or out of the sandbox's sight throws on every spawn: the CEO hears it in this
    // pass, and the agent waits as long as one whose run failed on start (not just a tick).
    const cli = cliStartFailure(error);
    if (cli) {
      deps.cliStartFailed(agent.id);
      const provider = cli.provider ?? deps.spawner.settings.provider;
      deps.cliFailed?.({
        agentSlug: agent.slug,
        taskId: task.id,
        provider,
        cause: cli.cause,
        remedy: cli.remedy,
      });
    } else {
      deps.spawnFailed(agent.id);
    }
    summary.errors.push({ task_id: task.id, agent_id: agent.id, message: failureText(error) });
  }
}

/** What the route needs done before the spawn; answers the agent to spawn (the review PM may differ). */
async function prepare(deps: PassDeps, route: Route): Promise<DispatchAgent> {
  const { task, agent } = route;
  switch (route.prepare) {
    case 'none':
      return agent;
    case 'assign':
      await deps.tasks.update(
        task.id,
        { assigned_to: agent.id, reason: `dispatcher: routed to ${agent.slug}` },
        SYSTEM_ACTOR,
      );
      return agent;
    case 'claim':
      await deps.tasks.claim(task.id, { id: agent.id, slug: agent.slug, role: agent.role, team: agent.team });
      return agent;
    case 'assign_review_pm': {
      const view = await deps.tasks.assignReviewPm(task.id, SYSTEM_ACTOR);
      if (view.assigned_to === agent.id) return agent;
      const pm = (await deps.agents.list()).find((candidate) => candidate.id === view.assigned_to);
      if (!pm) throw new Error('the review PM is not on the roster');
      return { id: pm.id, slug: pm.slug, role: pm.role, team: pm.team, model: pm.model };
    }
  }
}

/** Gives the task up: stalled in the tracker, marked on the task (audited), the CEO told once. */
async function trip(deps: PassDeps, task: Candidate, agent: DispatchAgent, spawns: number): Promise<void> {
  const now = deps.clock.now();
  const reason = `breaker_tripped: ${spawns} spawns of ${agent.slug} made no progress`;
  await deps.tracker.trip(task.id, reason, task.marks, now);
  await deps.tasks.recordFacts(
    task.id,
    {
      markers: {
        stalled: { reason: 'breaker_tripped', since: now.toISOString(), spawns, agent: agent.slug },
      },
    },
    SYSTEM_ACTOR,
    { action: 'stalled', data: { reason: 'breaker_tripped', spawns } },
  );
  await alertCeo(deps.notifications, {
    subject: `Task stalled: ${task.title}`,
    body:
      `The dispatcher spawned ${agent.slug} ${spawns} times for task ${task.id} and the task made no progress ` +
      '(no transition, commit or heartbeat). It gets no more spawns until it moves: reassign it, unblock its ' +
      'agent, or spawn an agent on it from the orchestrator.',
    taskId: task.id,
  });
}

async function unstall(deps: PassDeps, task: Candidate): Promise<void> {
  await deps.tracker.unstall(task.id, task.marks);
  await deps.tasks.recordFacts(task.id, { markers: { stalled: null } }, SYSTEM_ACTOR, {
    action: 'unstalled',
  });
}
