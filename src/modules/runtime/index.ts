/**
 * Agent runtimes: the contract every runtime meets, the supervisor that runs at most one run per
 * agent and publishes its lifecycle, the `process` runtime (any agent CLI from a command template),
 * the transcripts of runs and their routes (`/api/stream`), and the transcript retention prune.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import { agentRunLimits, agentSandbox } from '../../platform/process/index.js';
import type { Scheduler } from '../../platform/scheduler/index.js';
import type { AgentsModule } from '../agents/index.js';
import type { SettingsModule } from '../settings/index.js';
import { registerRuntimeLoops } from './loops.js';
import { type ModelRouteResolver, ProcessRuntime, type ProcessRuntimeOptions } from './process-runtime.js';
import { registerTranscriptRoutes } from './routes.js';
import { type EndedTaskRun, endedTaskRuns } from './run-history.js';
import { ScriptedRuntime } from './scripted/index.js';
import { RuntimeSupervisor, type RunUsage } from './supervisor.js';
import { TranscriptService } from './transcript-service.js';
import { pruneTranscripts, TranscriptStore } from './transcript-store.js';

export { type CliRateLimit, parseCliRateLimit, scanCliRateLimit } from './cli-rate-limits.js';
export {
  PLACEHOLDERS,
  type PlaceholderValues,
  parseCommandTemplate,
  renderArgv,
  TemplateError,
} from './command-template.js';
export type {
  AgentRuntime,
  ExitInfo,
  OutputStream,
  RunIo,
  RunningAgent,
  RunOutcome,
  RuntimeKind,
  SpawnAgent,
  SpawnSpec,
  StopOptions,
} from './contract.js';
export { RUNTIME_KINDS } from './contract.js';
export type { AgentLifecycle, AgentOutput } from './events.js';
export { LOST_RUNS_LOOP, TRANSCRIPT_PRUNE_LOOP } from './loops.js';
export { hasLiveRun, liveRunAgents, openRunProvider, openRuns } from './open-runs.js';
export {
  type AgentModelRoute,
  DEFAULT_KILL_GRACE_SECONDS,
  type ModelRouteResolver,
  modelRouteEnv,
  ProcessRuntime,
  type ProcessRuntimeOptions,
} from './process-runtime.js';
export { BUILTIN_PROVIDERS, type ProviderCommand, type ProviderSetting } from './providers.js';
export { defaultGafferCommand } from './run-files.js';
export { type EndedTaskRun, runsOnTasks, type TaskRun } from './run-history.js';

export { splitShellWords } from './shell-words.js';
export {
  DEFAULT_MAX_TRANSCRIPT_BYTES,
  type EndedRun,
  LOST_RUN_AFTER_MS,
  RUN_VOUCH_INTERVAL_MS,
  type RunningAgentInfo,
  RuntimeSupervisor,
  type RunUsage,
  type SeenRateLimit,
  type SpawnResult,
} from './supervisor.js';
export { type RunView, runView, TranscriptService } from './transcript-service.js';
export { LOST_RUN_DETAIL, pruneTranscripts } from './transcript-store.js';
export { type LineUsage, UsageLineReader } from './usage-lines.js';

export interface RuntimeModuleOptions {
  /** The process runtime's settings (provider templates, grace, the gaffer command, run root). */
  process?: ProcessRuntimeOptions;
  /** Most output bytes kept per run (default 1 MiB). */
  maxTranscriptBytes?: number;
  /** How often the supervisor vouches for its running runs (default RUN_VOUCH_INTERVAL_MS). */
  vouchIntervalMs?: number;
}

export interface RuntimeModule extends ModuleFace {
  supervisor: RuntimeSupervisor;
  processRuntime: ProcessRuntime;
  transcripts: TranscriptService;
  /** Deletes the runs (and transcripts) that ended more than `retentionDays` days ago. */
  pruneTranscripts(retentionDays: number): Promise<{ runs: number }>;
  /** Ended runs on a task that started in `[since, until)`, oldest first. */
  endedTaskRuns(since: Date, until: Date): Promise<EndedTaskRun[]>;
}

/** What this module is handed: the outside faces it uses (settings and scheduler are built first). */
export interface RuntimeDeps {
  agents: AgentsModule;
  settings: SettingsModule;
  scheduler: Scheduler;
  /** The routed model and credentials of an agent (filled from the providers module). */
  modelRoute?: ModelRouteResolver;
  /** Told the usage an agent CLI's output lines report (filled from the usage ledger). */
  onUsage?: (usage: RunUsage) => void;
}

/** Options override what the configuration says (tests hand in their own templates and grace). */
export function createRuntimeModule(
  { platform, deps }: ModuleInput<RuntimeDeps>,
  options: RuntimeModuleOptions = {},
): RuntimeModule {
  const { db } = platform.database;
  const { config } = platform;
  const store = new TranscriptStore(db);
  const supervisor = new RuntimeSupervisor({
    bus: platform.bus,
    store,
    clock: platform.clock,
    log: platform.log,
    maxTranscriptBytes: options.maxTranscriptBytes ?? config.transcriptMaxBytes,
    ...(options.vouchIntervalMs ? { vouchIntervalMs: options.vouchIntervalMs } : {}),
    ...(deps.onUsage ? { onUsage: deps.onUsage } : {}),
  });
  const processRuntime = new ProcessRuntime({
    now: () => platform.clock.now(),
    killGraceSeconds: config.killGraceSeconds,
    passEnv: config.agentPassEnv
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
    providers: config.agentCommandCustom ? { custom: config.agentCommandCustom } : {},
    sandbox: agentSandbox(config),
    networkAllow: config.agentNetworkAllow,
    limits: agentRunLimits(config),
    ...(deps.modelRoute ? { modelRoute: deps.modelRoute } : {}),
    ...options.process,
  });
  supervisor.register(processRuntime);
  supervisor.register(new ScriptedRuntime({ now: () => platform.clock.now() }));
  const transcripts = new TranscriptService(store, deps.agents.service);
  const prune = (retentionDays: number) => pruneTranscripts(db, { now: platform.clock.now(), retentionDays });
  registerRuntimeLoops(platform, deps.scheduler, deps.settings, prune);
  return {
    supervisor,
    processRuntime,
    transcripts,
    pruneTranscripts: prune,
    endedTaskRuns: (since, until) => endedTaskRuns(db, since, until),
    registerRoutes: (app) => {
      app.metrics.registerMetric(supervisor.blockedCounter);
      registerTranscriptRoutes(app, transcripts);
    },
    // Running agents are stopped (gracefully) when the app closes.
    stop: () => supervisor.close(),
  };
}
