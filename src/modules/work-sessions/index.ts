/** Work sessions: branch, commits, files and PR of an agent's work on a task. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { WorkSessionsDeps } from '../registry.js';
import { WorkSessionsService } from './service.js';

export { WorkSessionsService };

export interface WorkSessionsModule {
  service: WorkSessionsService;
  registerRoutes(app: FastifyInstance): void;
}

export function createWorkSessionsModule(platform: Platform, _deps: WorkSessionsDeps): WorkSessionsModule {
  return { service: new WorkSessionsService(platform), registerRoutes() {} };
}
