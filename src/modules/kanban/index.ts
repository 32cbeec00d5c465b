/** The kanban board: tasks grouped by state with counts. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import { KanbanService } from './service.js';

export { KanbanService };

export interface KanbanModule {
  service: KanbanService;
  registerRoutes(app: FastifyInstance): void;
}

export function createKanbanModule(platform: Platform): KanbanModule {
  return { service: new KanbanService(platform), registerRoutes() {} };
}
