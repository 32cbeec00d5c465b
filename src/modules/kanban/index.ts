/** The kanban board: tasks grouped by state with counts. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import { registerKanbanRoutes } from './routes.js';
import { KanbanService } from './service.js';

export { KANBAN_STATES, type KanbanState, TERMINAL_STATES } from './board.js';
export type { KanbanBoard, KanbanCard, KanbanQuery } from './service.js';
export { KanbanService };

export interface KanbanModule {
  service: KanbanService;
  registerRoutes(app: FastifyInstance): void;
}

export function createKanbanModule(platform: Platform): KanbanModule {
  const service = new KanbanService(platform);
  return { service, registerRoutes: (app) => registerKanbanRoutes(app, service) };
}
