/** Work sessions: branch, commits, files and PR of an agent's work on a task. */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { AgentsModule } from '../agents/index.js';
import type { TasksModule } from '../tasks/index.js';
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

export interface WorkSessionsModule extends ModuleFace {
  service: WorkSessionsService;
}

/** What this module is handed: the outside faces of the modules it uses. */
export interface WorkSessionsDeps {
  agents: AgentsModule;
  tasks: TasksModule;
}

export function createWorkSessionsModule({
  platform,
  deps,
}: ModuleInput<WorkSessionsDeps>): WorkSessionsModule {
  const service = new WorkSessionsService(platform, deps.agents.service);
  return { service, registerRoutes: (app) => registerWorkSessionRoutes(app, service) };
}
