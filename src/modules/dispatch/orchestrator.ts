/**
 * What the /api/orchestrator routes do (CEO only): list this replica's running agents, spawn one by
 * hand (refused while the `dispatch` scope is paused; an agent already running answers 409 with its
 * run), stop one whichever replica runs it (gracefully: SIGTERM, the grace, SIGKILL; or killed at
 * once; forwarded over the bus when another replica runs it) — after which the
 * dispatcher leaves it alone for a while — and describe the dispatcher's state.
 */
import { AppError, conflict } from '../../platform/http/errors.js';
import type { Hold } from '../../platform/scheduler/index.js';
import type { AgentsService } from '../agents/index.js';
import type { TaskStatus } from '../lifecycle/index.js';
import type { RunningAgentInfo, RuntimeSupervisor } from '../runtime/index.js';
import type { RespawnTracker } from './breaker.js';
import type { Dispatcher } from './dispatcher.js';
import type { ResolvedDispatchOptions } from './options.js';
import { composePrompt, taskFreePrompt } from './prompt.js';
import { type DispatchAgent, isSpawnable } from './routing.js';
import type { AgentSpawner } from './spawner.js';

export interface RunningAgentView {
  agent_id: string;
  agent_slug: string;
  role: string;
  team: string | null;
  task_id: string | null;
  run_id: string;
  runtime: string;
  provider: string;
  model: string | null;
  pid: number | null;
  started_at: string;
  waiting: { since: string; detail: string | null } | null;
}

export interface ExitView {
  agent_id: string;
  run_id: string;
  outcome: string;
  exit_code: number | null;
  signal: string | null;
  detail: string;
  ended_at: string;
}

/** What the loops besides the dispatcher last reported, for the state view. */
export interface LoopReports {
  reaper: { at: string; report: unknown } | null;
  budget: { at: string; report: unknown } | null;
}

export interface OrchestratorDeps {
  agents: Pick<AgentsService, 'resolve'>;
  supervisor: RuntimeSupervisor;
  spawner: AgentSpawner;
  dispatcher: Dispatcher;
  tracker: RespawnTracker;
  hold: () => Promise<Hold | null>;
  options: ResolvedDispatchOptions;
  reports: LoopReports;
  /** Forwards a stop to the replica that runs the agent (unset: this replica only). */
  remote?: { stop(agentId: string, graceful: boolean): Promise<ExitView | null> };
}

export function runningAgentView(run: RunningAgentInfo): RunningAgentView {
  return {
    agent_id: run.agentId,
    agent_slug: run.agentSlug,
    role: run.role,
    team: run.team,
    task_id: run.taskId,
    run_id: run.runId,
    runtime: run.runtime,
    provider: run.provider,
    model: run.model,
    pid: run.pid,
    started_at: run.startedAt.toISOString(),
    waiting: run.waiting ? { since: run.waiting.since.toISOString(), detail: run.waiting.detail } : null,
  };
}

export class Orchestrator {
  constructor(private readonly deps: OrchestratorDeps) {}

  running(): RunningAgentView[] {
    return this.deps.supervisor.list().map(runningAgentView);
  }

  async spawn(agentKey: string, input: { task_id?: string; prompt?: string }) {
    const hold = await this.deps.hold();
    if (hold) {
      throw conflict('dispatch_paused', `no spawns while the dispatch scope is paused (${hold.reason})`, {
        hold: hold.reason,
      });
    }
    const agent = await this.agent(agentKey);
    this.refuseIfRunning(agent.id);
    const task = input.task_id ? await this.deps.spawner.task(input.task_id) : null;
    if (input.task_id && !task) throw new AppError(404, 'not_found', `there is no task ${input.task_id}`);
    const prompt =
      input.prompt ??
      (task
        ? composePrompt(agent, { id: task.id, title: task.title, status: task.status as TaskStatus }, 'owner')
        : taskFreePrompt(agent));
    this.deps.dispatcher.releaseAgent(agent.id);
    const result = await this.deps.spawner.spawn(agent, task, prompt);
    if (result.alreadyRunning) this.refuseIfRunning(agent.id);
    const info = this.deps.supervisor.list().find((run) => run.runId === result.agent.runId);
    if (!info) throw conflict('agent_ended', `${agent.slug} ended as soon as it started`);
    return { already_running: false, run: runningAgentView(info) };
  }

  /**
   * Stops the agent whichever replica runs it: here when this replica runs it, else forwarded to
   * the one that does (409 `agent_not_running` when none does).
   */
  async stop(agentKey: string, graceful: boolean): Promise<ExitView> {
    const agent = await this.agent(agentKey);
    const exit =
      (await this.stopLocal(agent.id, graceful)) ??
      (await this.deps.remote?.stop(agent.id, graceful)) ??
      null;
    if (!exit) throw conflict('agent_not_running', `${agent.slug} is not running on any replica`);
    this.deps.dispatcher.holdStoppedAgent(agent.id);
    return exit;
  }

  /** Stops the agent if it runs on this replica; null when it does not. */
  async stopLocal(agentId: string, graceful: boolean): Promise<ExitView | null> {
    const run = this.deps.supervisor.get(agentId);
    if (!run) return null;
    this.deps.dispatcher.holdStoppedAgent(agentId);
    const exit = await this.deps.supervisor.stop(agentId, {
      graceful,
      graceSeconds: this.deps.options.killGraceSeconds,
    });
    if (!exit) return null;
    return {
      agent_id: agentId,
      run_id: run.runId,
      outcome: exit.outcome,
      exit_code: exit.code,
      signal: exit.signal,
      detail: exit.detail,
      ended_at: exit.endedAt.toISOString(),
    };
  }

  async state() {
    const { options, dispatcher, tracker, reports } = this.deps;
    const [state, stalled] = await Promise.all([dispatcher.state(), tracker.stalled()]);
    return {
      enabled: options.enabled,
      runtime: options.spawn.runtime,
      provider: options.spawn.provider,
      interval_seconds: options.tickIntervalSeconds,
      respawn_limit: options.respawnLimit,
      stale_claim_seconds: options.staleClaimSeconds,
      kill_grace_seconds: options.killGraceSeconds,
      held: state.held ? { reason: state.held.reason, kill: state.held.interrupt } : null,
      wake_count: state.wakes,
      passes: state.passes,
      last_pass: state.lastPass,
      held_agents: state.heldAgents.map((held) => ({
        agent_id: held.agentId,
        until: held.until.toISOString(),
        why: held.why,
      })),
      stalled_tasks: stalled.map((task) => ({
        task_id: task.taskId,
        agent_id: task.agentId,
        spawns: task.spawns,
        stalled_at: task.stalledAt.toISOString(),
        reason: task.reason,
      })),
      last_reaper_pass: reports.reaper,
      last_budget_sweep: reports.budget,
    };
  }

  private async agent(key: string): Promise<DispatchAgent> {
    const agent = await this.deps.agents.resolve(key);
    if (!agent) throw new AppError(404, 'not_found', `there is no agent "${key}"`);
    if (agent.retiredAt) throw conflict('agent_retired', `${agent.slug} is retired`);
    if (!isSpawnable(agent.role)) {
      throw new AppError(422, 'not_spawnable', `${agent.slug} is a ${agent.role}, not an agent Gaffer runs`);
    }
    return { id: agent.id, slug: agent.slug, role: agent.role, team: agent.team, model: agent.model };
  }

  private refuseIfRunning(agentId: string): void {
    const run = this.deps.supervisor.list().find((info) => info.agentId === agentId);
    if (run) {
      throw conflict('already_running', `${run.agentSlug} is already running`, {
        already_running: true,
        run: runningAgentView(run),
      });
    }
  }
}
