/**
 * Model providers: where each model API answers and its write-only key (sealed at rest), and which
 * provider and model each agent runs — its own route, else its role's, else the global one.
 */

import type { ProviderKind, UsageListener } from '../../platform/llm/index.js';
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { AgentsModule } from '../agents/index.js';
import { registerProvidersRoutes } from './routes.js';
import { ProvidersService } from './service.js';

export { type RouteEntry, type RouteScope, resolveRoute } from './resolve.js';

export {
  noModelProvider,
  PROVIDER_KINDS,
  type ProviderRow,
  ProvidersService,
  type ResolvedRoute,
} from './service.js';

/** What an agent process is handed for its model: the routed provider, model and opened key. */
export interface AgentModelRoute {
  provider: string;
  kind: ProviderKind;
  model: string;
  baseUrl: string | null;
  apiKey: string | null;
}

export interface ProvidersDeps {
  agents: AgentsModule;
  /** Hears the usage of every model call the providers' clients make (the usage ledger). */
  onModelUsage?: UsageListener;
}

export interface ProvidersModule extends ModuleFace {
  service: ProvidersService;
  /**
   * The route of an agent with its opened key (null when none applies or the provider is disabled);
   * `named` (an experiment's arm) names the provider, and the model, instead of the agent's route.
   */
  modelRouteFor(
    agent: { id: string; role: string },
    named?: { provider: string; model: string | null } | null,
  ): Promise<AgentModelRoute | null>;
}

export function createProvidersModule({ platform, deps }: ModuleInput<ProvidersDeps>): ProvidersModule {
  const service = new ProvidersService(
    platform.database.db,
    platform.secret,
    deps.agents.service,
    deps.onModelUsage,
  );
  return {
    service,
    async modelRouteFor(agent, named) {
      const route = named ? await service.namedRoute(named) : await service.resolveFor(agent);
      if (!route?.provider.enabled) return null;
      return {
        provider: route.provider.name,
        kind: route.provider.kind as ProviderKind,
        model: route.model,
        baseUrl: route.provider.baseUrl,
        apiKey: service.apiKeyOf(route.provider),
      };
    },
    registerRoutes: (app) => registerProvidersRoutes(app, service),
  };
}
