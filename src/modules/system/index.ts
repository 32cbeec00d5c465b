/** The system module's outside face: the orchestrator's own state for the CEO (`/api/orchestrator`). */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { SystemDeps } from '../registry.js';
import { registerOrchestratorRoutes } from './routes.js';

export interface SystemModule {
  registerRoutes(app: FastifyInstance): void;
}

export function createSystemModule(platform: Platform, deps: SystemDeps): SystemModule {
  return {
    registerRoutes: (app) => registerOrchestratorRoutes(app, deps.scheduler, platform.clock),
  };
}
