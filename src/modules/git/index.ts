/**
 * The git module's outside face: `GET /api/git/file` (a file at a branch tip, windowed, read from
 * Gaffer's mirror of the project), `GET /api/tasks/{id}/changes` (a task's change for review) and
 * `POST /api/git/branches/cleanup` (the capped, resumable sweep deleting the branches of finished
 * tasks). The git itself is the workspaces service's.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { ProjectsModule } from '../projects/index.js';
import type { TasksModule } from '../tasks/index.js';
import type { WorkspacesModule } from '../workspaces/index.js';
import { BranchCleanup } from './branch-cleanup.js';
import { BranchFileReader, type ReadBranchFile } from './file-reader.js';
import { registerGitRoutes } from './routes.js';
import { TaskChangeReader } from './task-changes.js';

export type { CleanupOutcome, CleanupRequest } from './branch-cleanup.js';
export { CLEANUP_LIMIT, CLEANUP_ROLES, type CleanupSkipReason } from './cleanup-rules.js';
export type { BranchFileRead, FileQuery, FileSlice, ReadBranchFile } from './file-reader.js';
export { FILE_WINDOW } from './file-window.js';

export interface GitModule extends ModuleFace {
  reader: BranchFileReader;
  cleanup: BranchCleanup;
  changes: TaskChangeReader;
}

/** What this module is handed: the outside faces of the modules it uses. */
export interface GitDeps {
  projects: ProjectsModule;
  workspaces: WorkspacesModule;
  tasks: TasksModule;
}

export function createGitModule({ platform, deps }: ModuleInput<GitDeps>): GitModule {
  const workspaces = deps.workspaces.service;
  const readBranchFile: ReadBranchFile = (project, branch, path, signal) =>
    workspaces.branchFile(project, branch, path, signal);
  const reader = new BranchFileReader(deps.projects.service, readBranchFile);
  const cleanup = new BranchCleanup({
    db: platform.database.db,
    projects: deps.projects.service,
    workspaces,
  });
  const changes = new TaskChangeReader(deps.tasks.service, deps.projects.service, workspaces);
  return {
    reader,
    cleanup,
    changes,
    registerRoutes: (app) => registerGitRoutes(app, reader, cleanup, changes),
  };
}
