/** Code-hosting providers behind one `Forge` contract; `local` needs nothing but a git remote. */
export { branchStatusFromRuns, commitStatusFromRuns, conclusionOf, giteaConclusion } from './ci-selection.js';
export {
  type CreateForgeInput,
  createForge,
  defaultApiUrl,
  parseRepoLocation,
  type RepoLocation,
  type RestProvider,
} from './factory.js';
export { GiteaForge } from './gitea.js';
export { GITHUB_API_URL, GitHubForge, type RestForgeOptions } from './github.js';
export { GAFFER_IDENTITY, LocalForge, type LocalForgeOptions } from './local.js';
export { createRepositoryHost, type RepositoryHostOptions } from './repository-host.js';
export { DEFAULT_RETRY, type RetryOptions } from './retry.js';
export { pullRequests } from './schema.js';
export {
  CI_CONCLUSIONS,
  type CiConclusion,
  type CiStatus,
  type CreateReleaseInput,
  type CreateRepositoryInput,
  type Forge,
  ForgeError,
  type ForgeErrorCode,
  type HostedRepository,
  type MergeMethod,
  type MergePullRequestInput,
  type OpenPullRequestInput,
  type PullRequest,
  type PullRequestState,
  type Release,
  type RepositoryHost,
  UNKNOWN_CI,
} from './types.js';
