/** The cockpit's outside face: the CEO's business summary (`GET /api/cockpit/summary`). */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { CockpitDeps } from './deps.js';
import { registerCockpitRoutes } from './routes.js';
import { CockpitService } from './service.js';

export type { CockpitDeps } from './deps.js';
export { firstPassYield, projectMonth, type Signal, signalsOf } from './rules.js';
export { CockpitService };

export interface CockpitModule {
  service: CockpitService;
  registerRoutes(app: FastifyInstance): void;
}

export function createCockpitModule(platform: Platform, deps: CockpitDeps): CockpitModule {
  const service = new CockpitService(deps, platform.clock);
  return { service, registerRoutes: (app) => registerCockpitRoutes(app, service) };
}
