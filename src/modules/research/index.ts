/**
 * Web research's outside face: search through the configured provider (Tavily, Brave or Exa) and
 * guarded page fetches for agents, behind the `research` flag, with a per-agent daily quota and an
 * audit list (/api/research).
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { SettingsModule } from '../settings/index.js';
import { ProviderStore } from './provider-store.js';
import { registerResearchRoutes } from './routes.js';
import { ResearchService } from './service.js';

export { isForbiddenAddress } from './page-fetch.js';
export { ResearchService };

export interface ResearchModule extends ModuleFace {
  service: ResearchService;
}

export interface ResearchDeps {
  settings: SettingsModule;
}

const TIMEOUT_MS = 15_000;

export function createResearchModule({ platform, deps }: ModuleInput<ResearchDeps>): ResearchModule {
  const { db } = platform.database;
  const providers = new ProviderStore(db, platform.clock, platform.secret);
  const service = new ResearchService(db, platform.clock, deps.settings.service, providers, {
    timeoutMs: TIMEOUT_MS,
    allowLoopback: platform.config.researchFetchAllowLoopback,
  });
  return {
    service,
    registerRoutes: (app) =>
      registerResearchRoutes(app, service, () => deps.settings.flags.isEnabled('research')),
  };
}
