/**
 * The dispatch module's outside face: the dispatcher (who runs when: the `dispatch.tick` loop,
 * woken by task transitions and agent runs ending, held by the `dispatch` pause scope), the
 * respawn breaker, the kill-pause switch (a `kill` pause of `dispatch` stops this replica's agents
 * and returns their claims to pending, owners kept), the stale-claim reaper (`dispatch.reaper`)
 * and the budget sweep (`dispatch.budget`) — never held by a pause — and the /api/orchestrator
 * agent routes. Agents claim and move tasks themselves through the gateway; the dispatcher only
 * decides who runs when, and spawns them.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { Scheduler } from '../../platform/scheduler/index.js';
import type { AgentsModule } from '../agents/index.js';
import type { MaintenanceModule } from '../maintenance/index.js';
import type { NotificationsModule } from '../notifications/index.js';
import type { ProjectsModule } from '../projects/index.js';
import type { RuntimeModule } from '../runtime/index.js';
import type { TasksModule } from '../tasks/index.js';
import type { UsageModule } from '../usage/index.js';
import type { WorkspacesModule } from '../workspaces/index.js';
import { RespawnTracker } from './breaker.js';
import { budgetSweep } from './budget-sweep.js';
import { Dispatcher } from './dispatcher.js';
import { killRunningAgents } from './kill-switch.js';
import { type DispatchOptions, resolveDispatchOptions } from './options.js';
import { type LoopReports, Orchestrator } from './orchestrator.js';
import { reapStaleClaims } from './reaper.js';
import { RemoteStop } from './remote-stop.js';
import { registerOrchestratorDispatchRoutes } from './routes.js';
import { AgentSpawner } from './spawner.js';

export { type BreakerVerdict, breakerVerdict, madeProgress, type ProgressMarks } from './breaker.js';
export { DISPATCH_LOOP, Dispatcher } from './dispatcher.js';
export { DISPATCH_DEFAULTS, type DispatchOptions, type ResolvedDispatchOptions } from './options.js';
export type { PassSummary } from './pass.js';
export { composePrompt } from './prompt.js';
export { type DispatchAgent, type DispatchTask, type Route, routeWork, type WorkKind } from './routing.js';
export { dispatchBudgetBreaches, dispatchTaskSpawns } from './schema.js';

export const REAPER_LOOP = 'dispatch.reaper';
export const BUDGET_LOOP = 'dispatch.budget';

/** What the dispatcher uses of the other modules (their outside faces) and the scheduler. */
export interface DispatchDeps {
  scheduler: Scheduler;
  maintenance: Pick<MaintenanceModule, 'holdFor' | 'onChange'>;
  agents: Pick<AgentsModule, 'service'>;
  tasks: Pick<TasksModule, 'service'>;
  projects: Pick<ProjectsModule, 'service'>;
  notifications: Pick<NotificationsModule, 'service'>;
  runtime: Pick<RuntimeModule, 'supervisor'>;
  workspaces: Pick<WorkspacesModule, 'service'>;
  usage: Pick<UsageModule, 'service'>;
}

export interface DispatchModule {
  dispatcher: Dispatcher;
  orchestrator: Orchestrator;
  /** Asks for a dispatch pass soon (coalesced). */
  wake(): void;
  registerRoutes(app: FastifyInstance): void;
}

/** Bus events that wake the dispatcher: every task event, and an agent run ending (its agent is free). */
const isWakeEvent = (type: string) =>
  type.startsWith('TASK_') || type === 'AGENT_STOPPED' || type === 'AGENT_ERROR';

export function createDispatchModule(
  platform: Platform,
  deps: DispatchDeps,
  dispatchOptions: DispatchOptions = {},
): DispatchModule {
  const options = resolveDispatchOptions(platform.config, dispatchOptions);
  const { db } = platform.database;
  const { clock } = platform;
  const supervisor = deps.runtime.supervisor;
  const tasks = deps.tasks.service;
  const notifications = deps.notifications.service;
  const hold = () => deps.maintenance.holdFor(['dispatch']);
  const tracker = new RespawnTracker(db);
  const spawner = new AgentSpawner({
    db,
    clock,
    secret: platform.secret,
    supervisor,
    workspaces: deps.workspaces.service,
    projects: deps.projects.service,
    settings: options.spawn,
  });
  const dispatcher = new Dispatcher({
    scheduler: deps.scheduler,
    clock,
    hold,
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
  let log: Pick<FastifyBaseLogger, 'warn' | 'error'> = { warn() {}, error() {} };
  const unsubscribes: (() => void)[] = [];
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
      if (row.scope !== 'dispatch') return;
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
    hold,
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
    log: { warn: (details, message) => log.warn(details, message) },
  });
  return {
    dispatcher,
    orchestrator,
    wake: () => dispatcher.wake(),
    registerRoutes(app) {
      log = app.log;
      app.addHook('onReady', async () => remote.start());
      app.addHook('onClose', async () => {
        await remote.close();
        dispatcher.close();
        for (const unsubscribe of unsubscribes) unsubscribe();
      });
      registerOrchestratorDispatchRoutes(app, orchestrator);
    },
  };
}
