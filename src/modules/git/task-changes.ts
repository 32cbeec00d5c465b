/**
 * `GET /api/tasks/{id}/changes` and its one-file follow-up: finds the task and its project, checks
 * the path asked for, and reads the change through the workspaces service (the project's mirror).
 */

import type { Role } from '../../platform/http/auth/identity.js';
import { unprocessable } from '../../platform/http/errors.js';
import type { ProjectsService } from '../projects/index.js';
import type { TasksService } from '../tasks/index.js';
import {
  type ChangedFile,
  type TaskChange,
  WorkspaceError,
  type WorkspaceProject,
  type WorkspacesService,
  workspaceTask,
} from '../workspaces/index.js';
import { normalizeRepoPath, repoPathProblem } from './file-request-rules.js';

/** Who reads a task's change: the CEO who approves it, the PMs, PR reviewers and QA who judge it, the auditor. */
export const CHANGE_READER_ROLES: readonly Role[] = [
  'ceo',
  'main_pm',
  'cell_pm',
  'pr_reviewer',
  'qa',
  'auditor',
];

export class TaskChangeReader {
  constructor(
    private readonly tasks: Pick<TasksService, 'get'>,
    private readonly projects: Pick<ProjectsService, 'find'>,
    private readonly workspaces: Pick<WorkspacesService, 'taskChange' | 'taskChangeFile'>,
  ) {}

  async change(taskId: string, signal?: AbortSignal): Promise<TaskChange> {
    const { task, project } = await this.taskAndProject(taskId);
    return this.workspaces.taskChange(task, project, signal);
  }

  async file(taskId: string, path: string, signal?: AbortSignal): Promise<ChangedFile> {
    const problem = repoPathProblem(path);
    if (problem)
      throw unprocessable('the path is not a repository path', [
        { field: 'querystring.path', message: problem },
      ]);
    const { task, project } = await this.taskAndProject(taskId);
    return this.workspaces.taskChangeFile(task, project, normalizeRepoPath(path), signal);
  }

  private async taskAndProject(taskId: string) {
    const view = await this.tasks.get(taskId);
    const project: WorkspaceProject | null = view.project_id
      ? await this.projects.find(view.project_id)
      : null;
    if (!project) {
      throw new WorkspaceError(
        'invalid_state',
        'task_not_in_project',
        `task ${taskId} belongs to no project, so it changes no repository`,
        { task_id: taskId },
      );
    }
    return { task: workspaceTask(view), project };
  }
}
