/** The kanban board: tasks grouped by state with counts. */
import type { Platform } from '../../platform/context.js';

export class KanbanService {
  constructor(readonly platform: Platform) {}
}
