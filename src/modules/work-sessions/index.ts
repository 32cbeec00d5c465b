/** Work sessions: branch, commits, files and PR of an agent's work on a task. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { WorkSessionsDeps } from '../registry.js';
import { registerWorkSessionRoutes } from './routes.js';
import { WorkSessionsService } from './service.js';

export {
  END_STATUSES,
  type EndStatus,
  SESSION_STATUSES,
  type SessionActor,
  type SessionStatus,
} from './rules.js';
export type { AgentLookup, SessionListQuery, SessionPage, StartSession, WorkSession } from './service.js';
export { WorkSessionsService };

export interface WorkSessionsModule {
  service: WorkSessionsService;
  registerRoutes(app: FastifyInstance): void;
}

export function createWorkSessionsModule(platform: Platform, deps: WorkSessionsDeps): WorkSessionsModule {
  const service = new WorkSessionsService(platform, deps.agents.service);
  return { service, registerRoutes: (app) => registerWorkSessionRoutes(app, service) };
}
