/** What the dispatcher uses of the other modules (their outside faces) and the scheduler. */
import type { Scheduler } from '../../platform/scheduler/index.js';
import type { AgentsModule } from '../agents/index.js';
import type { MaintenanceModule } from '../maintenance/index.js';
import type { NotificationsModule } from '../notifications/index.js';
import type { ProjectsModule } from '../projects/index.js';
import type { RuntimeModule } from '../runtime/index.js';
import type { TasksModule } from '../tasks/index.js';
import type { UsageModule } from '../usage/index.js';
import type { WorkspacesModule } from '../workspaces/index.js';
import type { CharterFacts } from './prompt.js';
import type { ExperimentArm } from './spawner.js';

export interface DispatchDeps {
  scheduler: Scheduler;
  maintenance: Pick<MaintenanceModule, 'holdFor' | 'onChange'>;
  agents: Pick<AgentsModule, 'service'>;
  tasks: Pick<TasksModule, 'service'>;
  projects: Pick<ProjectsModule, 'service'>;
  notifications: Pick<NotificationsModule, 'service'>;
  runtime: Pick<RuntimeModule, 'supervisor'>;
  workspaces: Pick<WorkspacesModule, 'service'>;
  usage: Pick<UsageModule, 'service'>;
  /** The system module's rate-limit parking: agents on a parked provider are not started. */
  rateLimits?: { parkedAgents(): Promise<ReadonlyMap<string, string>> };
  /**
   * The route an experiment gives an agent of `role` on `taskId` (the evidence module's arms): its
   * CLI, provider and model where named; null for the usual route.
   */
  experimentArm?: (role: string, taskId: string) => Promise<ExperimentArm | null>;
  /** The company charter, for the charter block of every agent's prompt (none when absent). */
  charter?: () => Promise<CharterFacts | null>;
}
