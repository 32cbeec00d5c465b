/** Code-hosting providers behind one `Forge` contract; `local` needs nothing but a git remote. */
export { GAFFER_IDENTITY, LocalForge, type LocalForgeOptions } from './local.js';
export { pullRequests } from './schema.js';
export {
  CI_CONCLUSIONS,
  type CiConclusion,
  type CiStatus,
  type CreateReleaseInput,
  type Forge,
  ForgeError,
  type ForgeErrorCode,
  type MergeMethod,
  type MergePullRequestInput,
  type OpenPullRequestInput,
  type PullRequest,
  type PullRequestState,
  type Release,
  UNKNOWN_CI,
} from './types.js';
