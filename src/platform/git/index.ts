/**
 * The git CLI wrapper: the real `git` through execFile, a scrubbed environment, timeouts and
 * AbortSignals, credentials only in the environment. Operations are plain functions over a
 * `GitRepo` handle (`openRepo(runner, dir, call)`).
 */
export { BRANCH_NAME_MAX, branchNameProblem } from './branch-name.js';
export {
  type CommitOptions,
  commitStaged,
  hasStagedChanges,
  type StatusEntry,
  stage,
  workingTreeStatus,
} from './commit.js';
export { type FileAtRef, listTree, looksBinary, showFileAt, type TreeEntry } from './content.js';
export { buildGitEnv, type GitAuth, type GitIdentity } from './env.js';
export { GitError, type GitFailure, scrubSecrets, secretForms } from './errors.js';
export {
  type CommitEntry,
  type DiffRange,
  diffFiles,
  diffPatch,
  diffStat,
  type FileChange,
  type FileChangeStatus,
  logBetween,
  mergeBase,
  unifiedDiff,
} from './history.js';
export { KeyedQueue } from './keyed-queue.js';
export {
  dryRunMerge,
  type MergeMethod,
  type MergeOptions,
  type MergeOutcome,
  mergeInto,
  type RebaseOutcome,
  rebaseOnto,
} from './merge.js';
export {
  createTag,
  deleteRemoteBranch,
  listTags,
  lsRemote,
  type PushOptions,
  push,
  pushTag,
  type RemoteRef,
  readRemoteTag,
  remoteBranchSha,
  type TagEntry,
} from './remote.js';
export {
  assertRef,
  assertUrl,
  type BranchEntry,
  type CloneOptions,
  checkoutBranch,
  cloneRepo,
  createBranch,
  currentBranch,
  deleteBranch,
  type FetchOptions,
  fetchRemote,
  type GitRepo,
  gitRaw,
  gitText,
  initRepo,
  listBranches,
  openRepo,
  resolveRef,
  revParse,
  withCall,
} from './repo.js';
export { type GitCall, type GitResult, GitRunner, type GitRunnerOptions, type GitSpawn } from './runner.js';
export {
  type AddWorktreeOptions,
  addWorktree,
  listWorktrees,
  openWorktree,
  pruneWorktrees,
  removeWorktree,
  type WorktreeEntry,
} from './worktree.js';
