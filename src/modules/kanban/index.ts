/** The kanban board: tasks grouped by state with counts. */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import { registerKanbanRoutes } from './routes.js';
import { KanbanService } from './service.js';

export { KANBAN_STATES, type KanbanState, TERMINAL_STATES } from './board.js';
export type { KanbanBoard, KanbanCard, KanbanQuery } from './service.js';
export { KanbanService };

export interface KanbanModule extends ModuleFace {
  service: KanbanService;
}

export function createKanbanModule({ platform }: ModuleInput): KanbanModule {
  const service = new KanbanService(platform);
  return { service, registerRoutes: (app) => registerKanbanRoutes(app, service) };
}
