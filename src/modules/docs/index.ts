/**
 * Project documentation files: written for a task by its cell's documenter, developers (their
 * folders), QA (docs/qa) or the CEO, each write a commit on the task's branch through the
 * workspaces service; recorded with their commit and content for reading and retrieval. Exposes
 * a knowledge source of kind 'doc' (a deleted doc comes back once as a tombstone) and calls the
 * optional `onChanged` after each write or delete.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { AgentsModule } from '../agents/index.js';
import type { KnowledgeSource } from '../optimal/index.js';
import type { ProjectsModule } from '../projects/index.js';
import type { TasksModule } from '../tasks/index.js';
import type { WorkspacesModule } from '../workspaces/index.js';
import { registerDocsRoutes } from './routes.js';
import { DocsService } from './service.js';

export { DOC_TYPES, type DocType, pathProblem, writeProblem } from './rules.js';

export type { DocView } from './service.js';
export { DocsService };

export interface DocsModule extends ModuleFace {
  service: DocsService;
  knowledgeSource: KnowledgeSource;
}

export interface DocsDeps {
  agents: Pick<AgentsModule, 'service'>;
  tasks: Pick<TasksModule, 'service'>;
  projects: Pick<ProjectsModule, 'service'>;
  workspaces: Pick<WorkspacesModule, 'service'>;
  /** Called after each write or delete (e.g. retrieval's `indexNow`). */
  onChanged?: () => void;
}

export function createDocsModule({ platform, deps }: ModuleInput<DocsDeps>): DocsModule {
  const service = new DocsService(platform.database.db, platform.clock, {
    taskOf: (id) => deps.tasks.service.find(id),
    projectOf: (id) => deps.projects.service.find(id),
    commitFile: (input) => deps.workspaces.service.commitFile(input),
    onChanged: deps.onChanged,
  });
  return {
    service,
    knowledgeSource: { kind: 'doc', changedSince: (after, limit) => service.changedSince(after, limit) },
    registerRoutes: (app) =>
      registerDocsRoutes(app, service, (identity) => deps.agents.service.actorOf(identity)),
  };
}
