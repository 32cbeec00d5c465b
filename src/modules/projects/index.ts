/** Projects: repository config, commands, engine opt-ins (Budget & Ops), budget, write-only git token. */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import { registerProjectsRoutes } from './routes.js';
import { ProjectsService } from './service.js';

export { PROJECT_MANAGER_ROLES, projectAccessProblem } from './access.js';
export { resolvedProvider } from './draft.js';
export { GIT_PROVIDERS, type GitProvider, inferProvider } from './git-url.js';
export { effectiveLadder } from './ladder.js';
export { budgetedProjects, ciWatchProjects, depUpdateProjects, existingProjectIds } from './reads.js';
export { slugProblem } from './rules.js';
export type { LadderRung } from './schema.js';
export {
  type CreateProjectInput,
  type ProjectBrief,
  type ProjectListFilter,
  type ProjectRow,
  ProjectsService,
  type UpdateProjectInput,
} from './service.js';

export interface ProjectsModule extends ModuleFace {
  service: ProjectsService;
}

export interface ProjectsDeps {
  /** How many tasks reference a project: its delete guard (the tasks module's `taskCountOfProject`). */
  taskCountOf(projectId: string): Promise<number>;
}

export function createProjectsModule({ platform, deps }: ModuleInput<ProjectsDeps>): ProjectsModule {
  const service = new ProjectsService(
    platform.database.db,
    platform.secret,
    platform.clock,
    deps.taskCountOf,
  );
  return { service, registerRoutes: (app) => registerProjectsRoutes(app, service) };
}
