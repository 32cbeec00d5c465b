/**
 * The agent gateway's outside face: `/api/v1/flow/{route}/{verb}` and `/api/v1/do`, the envelope
 * and its six error flavors, the circuit breaker, and the verb and do-tool input schemas the MCP
 * tool server registers its tools with, and the CEO's approve-and-merge. Git work goes through the `GatewayGit` port (implemented
 * by the workspaces module).
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { A2aModule } from '../a2a/index.js';
import type { AgentsModule } from '../agents/index.js';
import type { FindingsModule } from '../findings/index.js';
import type { NotificationsModule } from '../notifications/index.js';
import type { TasksModule } from '../tasks/index.js';
import type { UsageModule } from '../usage/index.js';
import { registerApproveAndMerge } from './approve-and-merge.js';
import { CircuitBreaker } from './breaker.js';
import type { RateLimitReporter } from './context.js';
import type { GatewayGit } from './git-port.js';
import { registerGatewayRoutes } from './routes.js';
import { type RunnerServices, runDoTool, runVerb } from './runner.js';

export type { GatewayEnvelope } from './api-schemas.js';
export {
  BREAKER_DEFAULT_LIMIT,
  BREAKER_LIMITS,
  BREAKER_RUN_FACTOR,
  BREAKER_WINDOW_MS,
  CircuitBreaker,
  UNLIMITED_VERBS,
} from './breaker.js';
export type { RateLimitReporter } from './context.js';
export { FLAVORS, type Flavor } from './envelope.js';
export {
  type GatewayGit,
  type GitAgent,
  type GitCommit,
  type GitDiffSummary,
  type GitFileChange,
  type GitPullRequest,
  GitRefusal,
  type GitRefusalFlavor,
} from './git-port.js';
export { INPUT_LIMITS } from './input-fields.js';
export {
  DO_TOOL_ROLES,
  DO_TOOLS,
  type DoTool,
  doToolInputSchema,
  doToolsFor,
  isDoTool,
  NOTE_SCOPES,
  verbInputSchema,
} from './verb-inputs.js';
export { workspacesGit } from './workspaces-git.js';

/** What the gateway uses of the other modules (their outside faces), plus the git port. */
export interface GatewayDeps {
  agents: Pick<AgentsModule, 'service'>;
  tasks: Pick<TasksModule, 'service'>;
  a2a: Pick<A2aModule, 'service'>;
  notifications: Pick<NotificationsModule, 'service'>;
  findings: Pick<FindingsModule, 'service'>;
  git: GatewayGit;
  /** The system module's rate-limit parking (i_am_blocked with a rate-limit reason_kind). */
  rateLimits?: RateLimitReporter;
  usage: Pick<UsageModule, 'service'>;
}

export interface GatewayModule extends ModuleFace {
  /** Runs a verb as a proven identity (the routes' entry point, for in-process callers such as runtimes). */
  runVerb: (
    request: Parameters<typeof runVerb>[1],
    route: string,
    verb: string,
  ) => ReturnType<typeof runVerb>;
  runDoTool: (request: Parameters<typeof runDoTool>[1]) => ReturnType<typeof runDoTool>;
  breaker: CircuitBreaker;
}

export function createGatewayModule({ platform, deps }: ModuleInput<GatewayDeps>): GatewayModule {
  const breaker = new CircuitBreaker(platform.cache, platform.clock, platform.log);
  const services: RunnerServices = {
    db: platform.database.db,
    tasks: deps.tasks.service,
    agents: deps.agents.service,
    a2a: deps.a2a.service,
    notifications: deps.notifications.service,
    findings: deps.findings.service,
    git: deps.git,
    breaker,
    clock: platform.clock,
    ...(deps.rateLimits ? { rateLimits: deps.rateLimits } : {}),
    usage: deps.usage.service,
  };
  return {
    runVerb: (request, route, verb) => runVerb(services, request, route, verb),
    runDoTool: (request) => runDoTool(services, request),
    breaker,
    registerRoutes(app) {
      registerGatewayRoutes(app, services);
      registerApproveAndMerge(app, deps.tasks.service, deps.git);
    },
  };
}
