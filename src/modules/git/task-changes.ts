/**
 * `GET /api/tasks/{id}/changes` and its one-file follow-up: finds the task and its project, checks
 * the path asked for, and reads the change through the workspaces service (the project's mirror).
 */

import type { CiConclusion } from '../../platform/forge/index.js';
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

export interface ChangeCi {
  forge: 'local' | 'github' | 'gitea';
  head_sha: string;
  /** The head commit's CI conclusion; null on a local project, which has no CI. */
  conclusion: CiConclusion | null;
  run_url: string | null;
  run_name: string | null;
}

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
    private readonly workspaces: Pick<WorkspacesService, 'taskChange' | 'taskChangeFile' | 'forgeFor'>,
  ) {}

  async change(taskId: string, signal?: AbortSignal): Promise<TaskChange> {
    const { task, project } = await this.taskAndProject(taskId);
    return this.workspaces.taskChange(task, project, signal);
  }

  /**
   * What CI says of the change's head commit: the forge's checks on GitHub or Gitea; a local
   * project has no CI (`conclusion` null). Never cached: a run in progress ends.
   */
  async ci(taskId: string, signal?: AbortSignal): Promise<ChangeCi> {
    const { task, project } = await this.taskAndProject(taskId);
    const change = await this.workspaces.taskChange(task, project, signal);
    const forge = this.workspaces.forgeFor(project);
    const base = { forge: forge.provider, head_sha: change.head.sha };
    if (forge.provider === 'local') return { ...base, conclusion: null, run_url: null, run_name: null };
    const status = await forge.commitCiStatus(change.head.sha, undefined, signal);
    return { ...base, conclusion: status.conclusion, run_url: status.runUrl, run_name: status.runName };
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
