/** The system module's outside face: the orchestrator's own state for the CEO (`/api/orchestrator`). */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { Scheduler } from '../../platform/scheduler/index.js';
import { registerOrchestratorRoutes } from './routes.js';

export type { RateLimitHit, RateLimitLifted } from './events.js';
export interface SystemModule {
  registerRoutes(app: FastifyInstance): void;
}

/** What this module is handed besides the platform (settings and scheduler are built first). */
export interface SystemDeps {
  scheduler: Scheduler;
}

export function createSystemModule(platform: Platform, deps: SystemDeps): SystemModule {
  return {
    registerRoutes: (app) => registerOrchestratorRoutes(app, deps.scheduler, platform.clock),
  };
}
