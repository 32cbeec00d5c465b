/** The cockpit's outside face: the CEO's business summary (`GET /api/cockpit/summary`). */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { CockpitDeps } from './deps.js';
import { registerCockpitRoutes } from './routes.js';
import { CockpitService } from './service.js';

export type { CockpitDeps } from './deps.js';
export { firstPassYield, projectMonth, type Signal, signalsOf } from './rules.js';
export { CockpitService };

export interface CockpitModule extends ModuleFace {
  service: CockpitService;
}

export function createCockpitModule({ platform, deps }: ModuleInput<CockpitDeps>): CockpitModule {
  const service = new CockpitService(deps, platform.clock);
  return { service, registerRoutes: (app) => registerCockpitRoutes(app, service) };
}
