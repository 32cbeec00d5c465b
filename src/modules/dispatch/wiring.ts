/**
 * The dispatch module's wiring: builds the dispatcher, the respawn breaker and the spawner,
 * registers the loops (`dispatch.tick`, held by DISPATCH_PAUSE_SCOPES; the stale-claim reaper and
 * the budget sweep, never held), wakes the dispatcher on task events and agent runs ending, and
 * on a kill pause of its scope stops this replica's running agents (their claims back to pending,
 * owners kept), and answers other replicas' stop requests for the agents this replica runs
 * (RemoteStop). `start()` listens for those; `close()` undoes the subscriptions.
 */
import type { Platform } from '../../platform/context.js';
import { isRole } from '../../platform/http/auth/identity.js';
import { alertCeo } from './actions.js';
import { RespawnTracker } from './breaker.js';
import { budgetSweep } from './budget-sweep.js';
import { type CliFailure, CliFailureNotices, failedOnStart } from './cli-failures.js';
import type { DispatchDeps } from './deps.js';
import { DISPATCH_PAUSE_SCOPES, Dispatcher } from './dispatcher.js';
import { killRunningAgents } from './kill-switch.js';
import { type DispatchOptions, resolveDispatchOptions } from './options.js';
import { type LoopReports, Orchestrator } from './orchestrator.js';
import { reapStaleClaims } from './reaper.js';
import { RemoteStop } from './remote-stop.js';
import { AgentSpawner } from './spawner.js';

export const REAPER_LOOP = 'dispatch.reaper';
export const BUDGET_LOOP = 'dispatch.budget';

/** Bus events that wake the dispatcher: every task event, an agent run ending (its agent is free), a provider lifted. */
const isWakeEvent = (type: string) =>
  type.startsWith('TASK_') ||
  type === 'AGENT_STOPPED' ||
  type === 'AGENT_ERROR' ||
  type === 'RATE_LIMIT_LIFTED';

export interface DispatchWiring {
  dispatcher: Dispatcher;
  tracker: RespawnTracker;
  orchestrator: Orchestrator;
  /** The agent CLI every run takes unless an experiment's arm names another. */
  agentCli: string;
  /** Listens for other replicas' stop requests (at app ready). */
  start(): Promise<void>;
  /** Stops the dispatcher and drops the bus, pause and stop-request subscriptions (at app close). */
  close(): Promise<void>;
}

export function wireDispatch(
  platform: Platform,
  deps: DispatchDeps,
  dispatchOptions: DispatchOptions = {},
): DispatchWiring {
  const options = resolveDispatchOptions(platform.config, dispatchOptions);
  const { db } = platform.database;
  const { clock } = platform;
  const supervisor = deps.runtime.supervisor;
  const tasks = deps.tasks.service;
  const notifications = deps.notifications.service;
  const { rateLimits } = deps;
  const tracker = new RespawnTracker(db);
  const spawner = new AgentSpawner({
    db,
    clock,
    secret: platform.secret,
    supervisor,
    workspaces: deps.workspaces.service,
    projects: deps.projects.service,
    settings: options.spawn,
    ...(deps.charter ? { charter: deps.charter } : {}),
    ...(deps.experimentArm ? { experimentArm: deps.experimentArm } : {}),
  });
  const { log } = platform;
  const cliFailures = new CliFailureNotices({
    cache: platform.cache,
    notifyCeo: (subject, body, taskId) => alertCeo(notifications, { subject, body, taskId }),
  });
  const tellCeo = (failure: CliFailure) =>
    void cliFailures
      .report(failure)
      .catch((error) => log.warn({ err: error }, 'telling the CEO about a failing agent CLI failed'));
  const dispatcher = new Dispatcher({
    scheduler: deps.scheduler,
    clock,
    holdFor: (scopes) => deps.maintenance.holdFor(scopes),
    tickIntervalSeconds: options.tickIntervalSeconds,
    manualStopHoldSeconds: options.manualStopHoldSeconds,
    pass: {
      db,
      clock,
      tasks,
      agents: deps.agents.service,
      notifications,
      usage: deps.usage.service,
      spawner,
      tracker,
      respawnLimit: options.respawnLimit,
      rootGateReviewer: options.rootGateReviewer,
      isRunning: (agentId) => supervisor.get(agentId) !== null,
      cliFailed: tellCeo,
      ...(rateLimits ? { parkedAgents: () => rateLimits.parkedAgents() } : {}),
    },
  });
  const reports: LoopReports = { reaper: null, budget: null };
  const loopDeps = {
    db,
    clock,
    tasks,
    notifications,
    supervisor,
    killGraceSeconds: options.killGraceSeconds,
  };
  deps.scheduler.register({
    name: REAPER_LOOP,
    intervalMs: options.reaperIntervalSeconds * 1000,
    run: async (signal) => {
      const report = await reapStaleClaims(
        { ...loopDeps, staleAfterSeconds: options.staleClaimSeconds },
        signal,
      );
      reports.reaper = { at: clock.now().toISOString(), report };
    },
  });
  deps.scheduler.register({
    name: BUDGET_LOOP,
    intervalMs: options.budgetIntervalSeconds * 1000,
    run: async (signal) => {
      const report = await budgetSweep({ ...loopDeps, usage: deps.usage.service }, signal);
      reports.budget = { at: clock.now().toISOString(), report };
    },
  });
  const unsubscribes: (() => void)[] = [
    // A run that failed as it started is backed off and explained to the CEO (cli-failures.ts).
    supervisor.onRunEnded((ended) => {
      if (!failedOnStart(ended)) {
        if (ended.exit.outcome !== 'failed') dispatcher.runGotGoing(ended.agentId);
        return;
      }
      dispatcher.runFailedOnStart(ended.agentId);
      const { agentSlug, taskId, provider } = ended;
      tellCeo({ agentSlug, taskId, provider, cause: ended.exit.detail });
    }),
  ];
  unsubscribes.push(
    // An experiment ended: the role's agents backed off by an arm's CLI go back to the usual route.
    platform.bus.subscribe('EXPERIMENT_ENDED', async (event) => {
      const { role } = event.data;
      if (!isRole(role)) return;
      try {
        for (const agent of await deps.agents.service.byRole(role)) dispatcher.liftStartBackoff(agent.id);
      } catch (error) {
        log.warn(
          { err: error, role },
          'an experiment ended: lifting its role’s start-failure back-off failed',
        );
      }
      if (options.enabled) dispatcher.wake();
    }),
  );
  if (options.enabled) {
    dispatcher.register();
    unsubscribes.push(
      platform.bus.subscribe('*', (event) => {
        if (isWakeEvent(event.type)) dispatcher.wake();
      }),
    );
  }
  unsubscribes.push(
    deps.maintenance.onChange(async (row) => {
      if (!DISPATCH_PAUSE_SCOPES.includes(row.scope)) return;
      if (!row.paused) {
        if (options.enabled) dispatcher.wake();
        return;
      }
      if (row.mode !== 'kill') return;
      try {
        await dispatcher.settled(); // the pass in flight was interrupted; let it end before stopping
        const report = await killRunningAgents(
          { db, tasks, supervisor, killGraceSeconds: options.killGraceSeconds },
          `kill pause of dispatch${row.reason ? `: ${row.reason}` : ''}`,
        );
        log.warn({ ...report }, 'kill pause of dispatch: running agents stopped, their claims released');
      } catch (error) {
        log.error({ err: error }, 'kill pause of dispatch: stopping the running agents failed');
      }
    }),
  );
  const orchestrator: Orchestrator = new Orchestrator({
    agents: deps.agents.service,
    supervisor,
    spawner,
    dispatcher,
    tracker,
    hold: () => dispatcher.hold(),
    options,
    reports,
    remote: { stop: (agentId, graceful) => remote.stop(agentId, graceful) },
  });
  const remote = new RemoteStop({
    cache: platform.cache,
    db,
    clock,
    killGraceSeconds: options.killGraceSeconds,
    stopLocal: (agentId, graceful) => orchestrator.stopLocal(agentId, graceful),
    log,
  });
  return {
    dispatcher,
    tracker,
    orchestrator,
    agentCli: options.spawn.provider,
    start: () => remote.start(),
    async close() {
      await remote.close();
      dispatcher.close();
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}
