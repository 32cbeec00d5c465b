/**
 * The dispatch module's outside face: the dispatcher (who runs when: the `dispatch.tick` loop,
 * woken by task transitions and agent runs ending, held by the `dispatch` pause scope), the
 * respawn breaker, the kill-pause switch (a `kill` pause of `dispatch` stops this replica's agents
 * and returns their claims to pending, owners kept), the stale-claim reaper (`dispatch.reaper`)
 * and the budget sweep (`dispatch.budget`) — never held by a pause — and the /api/orchestrator
 * agent routes. Agents claim and move tasks themselves through the gateway; the dispatcher only
 * decides who runs when, and spawns them. The loops, subscriptions and kill switch are wired in
 * wiring.ts.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { StalledTask } from './breaker.js';
import type { DispatchDeps } from './deps.js';
import type { Dispatcher } from './dispatcher.js';
import type { DispatchOptions } from './options.js';
import type { Orchestrator } from './orchestrator.js';
import { registerOrchestratorDispatchRoutes } from './routes.js';
import { wireDispatch } from './wiring.js';

export {
  type BreakerVerdict,
  breakerVerdict,
  madeProgress,
  type ProgressMarks,
  type StalledTask,
} from './breaker.js';
export type { DispatchDeps } from './deps.js';
export { DISPATCH_LOOP, DISPATCH_PAUSE_SCOPES, Dispatcher, WAKE_SPACING_MS } from './dispatcher.js';
export { DISPATCH_DEFAULTS, type DispatchOptions, type ResolvedDispatchOptions } from './options.js';
export type { PassSummary } from './pass.js';
export { type CharterFacts, composePrompt } from './prompt.js';
export { type DispatchAgent, type DispatchTask, type Route, routeWork, type WorkKind } from './routing.js';

export { BUDGET_LOOP, REAPER_LOOP } from './wiring.js';

export interface DispatchModule extends ModuleFace {
  dispatcher: Dispatcher;
  orchestrator: Orchestrator;
  /** The agent CLI every run takes unless an experiment's arm names another. */
  agentCli: string;
  /** Asks for a dispatch pass soon (coalesced). */
  wake(): void;
  /** Open tasks the respawn breaker gave up on and that made no progress since, oldest stall first. */
  stalledTasks(limit?: number): Promise<StalledTask[]>;
}

export function createDispatchModule(
  { platform, deps }: ModuleInput<DispatchDeps>,
  dispatchOptions: DispatchOptions = {},
): DispatchModule {
  const { dispatcher, tracker, orchestrator, agentCli, start, close } = wireDispatch(
    platform,
    deps,
    dispatchOptions,
  );
  return {
    dispatcher,
    orchestrator,
    agentCli,
    wake: () => dispatcher.wake(),
    stalledTasks: (limit) => tracker.stalled(limit),
    registerRoutes: (app) => registerOrchestratorDispatchRoutes(app, orchestrator),
    start,
    stop: close,
  };
}
