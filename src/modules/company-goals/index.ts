/**
 * The company charter's outside face: the service (read it, the CEO's audited partial update, its
 * history) and the /api/company-goals routes. The dispatcher reads it for the charter block of
 * every agent's prompt.
 */

import type { Identity } from '../../platform/http/auth/index.js';
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { AgentsModule } from '../agents/index.js';
import { registerCompanyGoalsRoutes } from './routes.js';
import { CompanyGoalsService } from './service.js';

export { CompanyGoalsUpdate as CompanyGoalsUpdateSchema, ObjectiveSchema } from './api-schemas.js';
export type { Objective } from './schema.js';

export type { CompanyGoalChange, CompanyGoals, CompanyGoalsUpdate } from './service.js';
export { CompanyGoalsService };

export interface CompanyGoalsModule extends ModuleFace {
  service: CompanyGoalsService;
}

export interface CompanyGoalsDeps {
  agents: Pick<AgentsModule, 'service'>;
}

export function createCompanyGoalsModule({
  platform,
  deps,
}: ModuleInput<CompanyGoalsDeps>): CompanyGoalsModule {
  const service = new CompanyGoalsService(platform.database.db, platform.clock);
  // The audit names the CEO by roster slug; an identity the roster does not know, by its id.
  const whoIs = async (identity: Identity): Promise<string> => {
    try {
      return (await deps.agents.service.actorOf(identity)).slug;
    } catch {
      return identity.id;
    }
  };
  return { service, registerRoutes: (app) => registerCompanyGoalsRoutes(app, service, whoIs) };
}
