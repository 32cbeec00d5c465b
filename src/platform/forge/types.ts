/**
 * The contract every code-hosting provider implements (GitHub, Gitea/Forgejo, and the built-in
 * `local` forge): pull requests, CI conclusions and releases of one repository. Calls take an
 * optional AbortSignal; failures are ForgeErrors with a stable code.
 */

export type PullRequestState = 'open' | 'merged' | 'closed';

export interface PullRequest {
  number: number;
  url: string;
  state: PullRequestState;
  head: string;
  base: string;
  title: string;
  body: string;
  /** The commit the merge produced on the base; null until merged. */
  mergeSha: string | null;
}

export interface OpenPullRequestInput {
  /** The branch with the work. */
  head: string;
  /** The branch it should land on. */
  base: string;
  title: string;
  body: string;
}

export type MergeMethod = 'squash' | 'merge';

export interface MergePullRequestInput {
  method: MergeMethod;
  /** Subject of the squash or merge commit (default: the PR title with its number). */
  commitTitle?: string;
  commitMessage?: string;
}

export const CI_CONCLUSIONS = [
  'success',
  'failure',
  'timed_out',
  'startup_failure',
  'cancelled',
  'pending',
  'unknown',
] as const;
export type CiConclusion = (typeof CI_CONCLUSIONS)[number];

export interface CiStatus {
  conclusion: CiConclusion;
  /** Link to the run the conclusion comes from; null when there is none. */
  runUrl: string | null;
  runName: string | null;
  /** The commit the conclusion is about; null when there is none. */
  headSha: string | null;
}

export interface Release {
  tag: string;
  name: string;
  body: string;
  url: string;
  /** The commit the tag points at. */
  sha: string;
}

export interface CreateReleaseInput {
  tag: string;
  /** Branch or commit to tag. */
  target: string;
  name: string;
  body: string;
}

export interface Forge {
  readonly provider: 'github' | 'gitea' | 'local';
  /** Opens a pull request; when one is already open from `head` to `base`, answers that one. */
  openPullRequest(input: OpenPullRequestInput, signal?: AbortSignal): Promise<PullRequest>;
  /** The pull request, or null when the number is unknown. */
  getPullRequest(number: number, signal?: AbortSignal): Promise<PullRequest | null>;
  /** Open pull requests whose head is `head`, oldest first. */
  listOpenPullRequests(head: string, signal?: AbortSignal): Promise<PullRequest[]>;
  /**
   * Merges an open pull request into its base. Throws ForgeError `not_found`, `not_open`
   * (closed, or merged already: `details.mergeSha` then says where) or `merge_conflict`.
   */
  mergePullRequest(
    number: number,
    input: MergePullRequestInput,
    signal?: AbortSignal,
  ): Promise<{ sha: string }>;
  /**
   * The latest CI conclusion on `branch` of the workflow `workflow` (a workflow file name): the
   * newest head commit among completed runs, and of that commit the highest attempt.
   */
  branchCiStatus(branch: string, workflow: string, signal?: AbortSignal): Promise<CiStatus>;
  /**
   * The CI of one commit, scoped to the workflow file `workflow` when given: `pending` while a run
   * of it is queued or in progress, `unknown` when there is none, else the newest attempt's conclusion.
   */
  commitCiStatus(sha: string, workflow?: string, signal?: AbortSignal): Promise<CiStatus>;
  /** The release of `tag`, or null when there is none. */
  getRelease(tag: string, signal?: AbortSignal): Promise<Release | null>;
  /** Creates a release (and its tag); ForgeError `already_exists` when the tag is taken. */
  createRelease(input: CreateReleaseInput, signal?: AbortSignal): Promise<Release>;
}

export type ForgeErrorCode =
  | 'not_found'
  | 'not_open'
  | 'merge_conflict'
  | 'already_exists'
  | 'invalid_input'
  | 'unauthorized'
  | 'rate_limited'
  | 'unavailable';

export class ForgeError extends Error {
  constructor(
    readonly code: ForgeErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ForgeError';
  }
}

/** The pull request a merge is asked for, when it is still open; ForgeError `not_found` or `not_open` otherwise. */
export function openForMerge(pull: PullRequest | null, number: number): PullRequest {
  if (!pull) throw new ForgeError('not_found', `pull request #${number} does not exist`);
  if (pull.state !== 'open') {
    throw new ForgeError('not_open', `pull request #${number} is ${pull.state}`, {
      mergeSha: pull.mergeSha,
    });
  }
  return pull;
}

/** The no-CI answer (a local forge, a repository without workflows). */
export const UNKNOWN_CI: CiStatus = { conclusion: 'unknown', runUrl: null, runName: null, headSha: null };

/** A repository on a forge, as a repository host answers it. */
export interface HostedRepository {
  owner: string;
  name: string;
  /** The HTTPS (or loopback http) URL to clone it with. */
  cloneUrl: string;
  webUrl: string;
  private: boolean;
  defaultBranch: string;
}

export interface CreateRepositoryInput {
  name: string;
  description: string;
  private: boolean;
  /** Let the forge make a first commit (a README), so the repository has a main branch to clone. */
  autoInit: boolean;
}

/**
 * Where new repositories are made: one owner (an organisation, or the token's own user) on one
 * forge. Not per repository, unlike `Forge`: it exists before any project does.
 */
export interface RepositoryHost {
  readonly provider: 'github' | 'gitea';
  readonly owner: string;
  /** Creates `owner/name`; ForgeError `already_exists` when the name is taken there. */
  createRepository(input: CreateRepositoryInput, signal?: AbortSignal): Promise<HostedRepository>;
  /** The repository `owner/name`, or null when there is none. */
  getRepository(name: string, signal?: AbortSignal): Promise<HostedRepository | null>;
}
