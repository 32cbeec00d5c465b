/**
 * The workspaces module's outside face: git workspaces of agents (a clone per agent and project, a
 * worktree per task), task branches and their pull requests, the merge chain rules, the diff
 * summary for evidence, and the forge of each project. No HTTP routes of its own: the gateway's
 * verbs and the CEO's approve-and-merge call the service.
 */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { ProjectsService } from '../projects/index.js';
import type { ForgeFactory } from './forges.js';
import { WorkspacesService } from './service.js';

export { BRANCH_TYPES, type BranchType, id8, taskBranchName } from './branch-names.js';
export type { ChangedFile, ChangeHunk, ChangeLine, ChangeStatus } from './change-files.js';
export type { ChangeCommit, TaskChange } from './changes.js';
export { COMMIT_MESSAGE_LIMITS, type CommitMessageProblem, prepareCommitMessage } from './commit-message.js';
export type { CommitInput, CommitResult } from './commits.js';
export { WorkspaceError, type WorkspaceErrorFlavor } from './errors.js';
export { DIFF_CAP_CHARS, type DiffSummary, type DiffSummaryInput } from './evidence.js';
export { isSafeRepoPath, type TaskFileInput, type TaskFileResult } from './file-commits.js';
export { type ForgeFactory, restForgeFactory } from './forges.js';
export {
  decideMerge,
  headBranch,
  type MergeDecision,
  type MergeRequest,
  protectedBranchSet,
  resolveBaseBranch,
} from './merge-chain.js';
export type { MergeInput, MergeResult, OpenPullRequestInput } from './pull-requests.js';
export { WorkspacesService, type WorkspacesServiceOptions } from './service.js';
export {
  agentIdentity,
  type WorkspaceAgent,
  type WorkspaceProject,
  type WorkspaceTask,
  workspaceTask,
} from './types.js';
export type { PrepareInput, TaskWorkspace, WorkspaceMode } from './worktrees.js';

export interface WorkspacesModule extends ModuleFace {
  service: WorkspacesService;
}

export interface WorkspacesModuleDeps {
  projects: { service: Pick<ProjectsService, 'gitToken'> };
  /** Replaces the built-in GitHub / Gitea REST forges (tests). */
  forgeFactory?: ForgeFactory;
}

export function createWorkspacesModule({
  platform,
  deps,
}: ModuleInput<WorkspacesModuleDeps>): WorkspacesModule {
  const service = new WorkspacesService({
    db: platform.database.db,
    clock: platform.clock,
    dataDir: platform.config.dataDir,
    tokenFor: (projectId) => deps.projects.service.gitToken(projectId),
    forgeFactory: deps.forgeFactory,
  });
  return { service, registerRoutes: () => {} };
}
