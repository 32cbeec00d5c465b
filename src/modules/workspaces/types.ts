/**
 * What the workspaces service needs to know of a project, a task and an agent: minimal shapes a
 * ProjectRow, a TaskRow (or a TaskView through `workspaceTask`) and a roster agent all satisfy.
 */
import type { Role } from '../lifecycle/index.js';
import type { LadderRung } from '../projects/index.js';
import type { TaskView } from '../tasks/index.js';

export interface WorkspaceProject {
  id: string;
  slug: string;
  gitUrl: string;
  /** github | gitea | local; null = inferred from the URL. */
  gitProvider: string | null;
  /** REST base URL of the project's forge; null or absent = the provider's default. */
  forgeApiUrl?: string | null;
  defaultBranch: string;
  environments: LadderRung[] | null;
  protectedBranches: string[];
}

export interface WorkspaceTask {
  id: string;
  team: string;
  title: string;
  description: string;
  status: string;
  projectId: string | null;
  parentTaskId: string | null;
  branchName: string | null;
  prNumber: number | null;
}

export interface WorkspaceAgent {
  slug: string;
  role: Role;
  team: string | null;
}

/** The workspace view of a task as the API shows it. */
export function workspaceTask(view: TaskView): WorkspaceTask {
  return {
    id: view.id,
    team: view.team,
    title: view.title,
    description: view.description,
    status: view.status,
    projectId: view.project_id,
    parentTaskId: view.parent_task_id,
    branchName: view.branch_name,
    prNumber: view.pr_number,
  };
}

/** The identity commits by an agent carry. */
export function agentIdentity(agent: Pick<WorkspaceAgent, 'slug'>): { name: string; email: string } {
  return { name: agent.slug, email: `${agent.slug}@agents.gaffer.local` };
}
