/**
 * The dashboard's outside face: the /api/dashboard routes (stalled tasks, spawn waste, provenance,
 * the CEO overview, recent activity), each built from the owning modules' named reads.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { DashboardDeps } from './deps.js';
import { registerDashboardRoutes } from './routes.js';
import { DashboardService } from './service.js';

export type { DashboardDeps } from './deps.js';
export { hours, median, type TeamHealth, teamHealth } from './rules.js';
export { DashboardService };

export interface DashboardModule extends ModuleFace {
  service: DashboardService;
}

export function createDashboardModule({ platform, deps }: ModuleInput<DashboardDeps>): DashboardModule {
  const service = new DashboardService(deps, platform.clock);
  return { service, registerRoutes: (app) => registerDashboardRoutes(app, service) };
}
