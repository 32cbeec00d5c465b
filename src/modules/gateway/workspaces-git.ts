/**
 * The `GatewayGit` port over the workspaces module (real git: a clone per agent and project, a
 * worktree per task, commits pushed, pull requests on the project's forge, the merge chain). A
 * task without a repository (a branchless coordination task) has no branch and no commits; the
 * git verbs on it are refused. The workspaces module's own refusals (WorkspaceError, which carry
 * their gateway flavor) pass through unchanged.
 */
import type { ProjectsService } from '../projects/index.js';
import type { TaskView } from '../tasks/index.js';
import { type WorkspaceProject, type WorkspacesService, workspaceTask } from '../workspaces/index.js';
import { type GatewayGit, type GitAgent, type GitCommit, GitRefusal } from './git-port.js';

type Workspaces = Pick<
  WorkspacesService,
  'prepareTaskWorkspace' | 'commit' | 'openPullRequest' | 'mergePullRequest' | 'diffSummary'
>;

const asAgent = (agent: GitAgent) => ({
  slug: agent.slug,
  role: agent.role as Parameters<Workspaces['commit']>[0]['agent']['role'],
  team: agent.team,
});

export function workspacesGit(workspaces: Workspaces, projects: Pick<ProjectsService, 'find'>): GatewayGit {
  const projectOf = async (task: TaskView): Promise<WorkspaceProject | null> =>
    task.project_id ? await projects.find(task.project_id) : null;

  const requireProject = async (task: TaskView): Promise<WorkspaceProject> => {
    const project = await projectOf(task);
    if (!project) {
      throw new GitRefusal(
        'no_repository',
        `task ${task.id} has no repository: it is a coordination task without a branch`,
        'invalid_state',
        'Delegate the code work to a task of a project instead.',
      );
    }
    return project;
  };

  const summary = async (task: TaskView) => {
    const project = await projectOf(task);
    return project ? workspaces.diffSummary({ task: workspaceTask(task), project }) : null;
  };

  return {
    async prepareTask(task, agent) {
      const project = await projectOf(task);
      if (!project) return { branch: null };
      const prepared = await workspaces.prepareTaskWorkspace({
        task: workspaceTask(task),
        project,
        agent: asAgent(agent),
      });
      return { branch: prepared.branch };
    },

    async commit(task, agent, input) {
      const project = await requireProject(task);
      const made = await workspaces.commit({
        task: workspaceTask(task),
        project,
        agent: asAgent(agent),
        message: input.message,
        ...(input.files ? { files: input.files } : {}),
      });
      // `committed: false` = nothing new, but earlier unpublished commits were just pushed (a success);
      // a worktree with nothing at all to commit is refused by the service itself (`nothing_to_commit`).
      const message = made.subject ?? 'published earlier commits';
      return { sha: made.sha, message, author: agent.slug, at: null } satisfies GitCommit;
    },

    async commitsOf(task) {
      const diff = await summary(task);
      return (diff?.commits ?? []).map((c) => ({
        sha: c.sha,
        message: c.body ? `${c.subject}\n\n${c.body}` : c.subject,
        author: c.author,
        at: c.date,
      }));
    },

    async diffSummary(task) {
      const diff = await summary(task);
      return {
        base: diff?.base ?? null,
        head: diff?.branch ?? task.branch_name,
        files_changed: (diff?.files ?? []).map((f) => ({
          path: f.path,
          additions: f.insertions,
          deletions: f.deletions,
        })),
        diff: diff?.diff ?? '',
        truncated: diff?.diff_truncated ?? false,
      };
    },

    async openPullRequest(task) {
      const project = await requireProject(task);
      const { pull, base } = await workspaces.openPullRequest({ task: workspaceTask(task), project });
      return {
        number: pull.number,
        url: pull.url,
        base,
        head: pull.head,
        created: task.pr_number !== pull.number,
      };
    },

    async mergePullRequest(task, by) {
      const project = await requireProject(task);
      const merged = await workspaces.mergePullRequest({
        task: workspaceTask(task),
        project,
        actor: { role: asAgent(by).role, team: by.team },
      });
      return { merged: true, sha: merged.sha };
    },

    async syncBranch(task, agent) {
      const project = await requireProject(task);
      const prepared = await workspaces.prepareTaskWorkspace({
        task: workspaceTask(task),
        project,
        agent: asAgent(agent),
      });
      return { status: 'refreshed', branch: prepared.branch, base: prepared.base, head: prepared.headSha };
    },
  };
}
