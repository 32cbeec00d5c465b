/** Projects: repository config, commands, engine opt-ins (Budget & Ops), budget, write-only git token. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import { ProjectsService } from './service.js';

export { type LadderRung, projects } from './schema.js';
export { type ProjectRow, ProjectsService } from './service.js';

export interface ProjectsModule {
  service: ProjectsService;
  registerRoutes(app: FastifyInstance): void;
}

export function createProjectsModule(platform: Platform): ProjectsModule {
  return { service: new ProjectsService(platform.database.db), registerRoutes() {} };
}
