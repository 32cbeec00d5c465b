/** What every engine is handed: the platform parts it touches and the outside faces of the modules it uses. */
import type { Config } from '../../config.js';
import type { Locks } from '../../platform/cache/types.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import type { AgentsService } from '../agents/index.js';
import type { NotificationsService } from '../notifications/index.js';
import type { ProjectsService } from '../projects/index.js';
import type { FeatureFlags } from '../settings/index.js';
import type { TasksService } from '../tasks/index.js';
import type { WorkspacesService } from '../workspaces/index.js';

export interface EngineDeps {
  db: Db;
  clock: Clock;
  config: Config;
  locks: Locks;
  /** The flags this process booted with: an engine whose flag is off polls nothing. */
  flags: Pick<FeatureFlags, 'isEnabled'>;
  agents: AgentsService;
  projects: ProjectsService;
  tasks: TasksService;
  notifications: NotificationsService;
  /** Each project's forge (`forgeFor`) and its git mirror. */
  workspaces: WorkspacesService;
}
