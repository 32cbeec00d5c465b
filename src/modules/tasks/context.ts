/** What the task operations run on: the database, the clock, the roster, and the cell-map cache. */
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import type { AgentsService } from '../agents/index.js';
import type { ProjectsService } from '../projects/index.js';
import type { CellMaps } from './cell-maps.js';

export interface TaskContext {
  readonly db: Db;
  readonly clock: Clock;
  readonly agents: AgentsService;
  readonly projects: ProjectsService;
  readonly cellMaps: CellMaps;
}
