/**
 * The autonomous engines: multi-repo CI-watch and the dependency-update bot, each a board program
 * registered with the runner (held by the `board_programs` and `engines` pause scopes, off unless
 * its feature flag was on at boot). Engines only open ordinary tasks; they never merge or publish.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { AgentsModule } from '../agents/index.js';
import type { BoardProgramsModule } from '../board-programs/index.js';
import type { NotificationsModule } from '../notifications/index.js';
import type { ProjectsModule } from '../projects/index.js';
import type { SettingsModule } from '../settings/index.js';
import type { TasksModule } from '../tasks/index.js';
import type { WorkspacesModule } from '../workspaces/index.js';
import { ciWatchProgram } from './ci-watch/index.js';
import { depUpdateProgram } from './dep-update/index.js';
import type { EngineDeps } from './deps.js';
import { ReleaseManager, registerReleaseRoutes } from './release/index.js';

export type { EngineDeps } from './deps.js';
export { type EngineOrigin, repoKey } from './origination.js';

export interface EnginesModule extends ModuleFace {}

/** What this module is handed: the outside faces it uses (settings and scheduler are built first). */
export interface EnginesDeps {
  settings: SettingsModule;
  boardPrograms: BoardProgramsModule;
  agents: AgentsModule;
  projects: ProjectsModule;
  tasks: TasksModule;
  notifications: NotificationsModule;
  workspaces: WorkspacesModule;
}

export function createEnginesModule({ platform, deps }: ModuleInput<EnginesDeps>): EnginesModule {
  const engine: EngineDeps = {
    db: platform.database.db,
    clock: platform.clock,
    config: platform.config,
    locks: platform.locks,
    flags: deps.settings.flags,
    agents: deps.agents.service,
    projects: deps.projects.service,
    tasks: deps.tasks.service,
    notifications: deps.notifications.service,
    workspaces: deps.workspaces.service,
  };
  deps.boardPrograms.runner.register(ciWatchProgram(engine));
  deps.boardPrograms.runner.register(depUpdateProgram(engine));
  const releaseManager = new ReleaseManager(engine);
  deps.boardPrograms.runner.register(releaseManager.program);
  return {
    registerRoutes: (app) => registerReleaseRoutes(app, releaseManager),
    // An approve running in this process is aborted on shutdown and records `failed_interrupted`.
    stop: () => releaseManager.close(),
  };
}
