/**
 * What the gateway needs of git (the port the workspaces module implements): the task's branch and
 * worktree at claim, commits on it (with the `[id8]` prefix), the commits and diff that make the
 * evidence, and the task's pull request — open, merge up the chain, rebase. The gateway decides
 * who may and when; the port does the git work and refuses what git cannot do — with a
 * `GitRefusal`, or an AppError (403/404/409/422, or any error carrying a gateway `flavor`) — which
 * the gateway answers as an envelope.
 */
import type { TaskView } from '../tasks/index.js';

/** The agent on whose behalf the git work runs. */
export interface GitAgent {
  readonly id: string;
  readonly slug: string;
  readonly role: string;
  readonly team: string | null;
}

export interface GitCommit {
  /** Full or abbreviated (7+) hash. */
  readonly sha: string;
  /** The whole message as committed (subject prefixed `[id8] `). */
  readonly message: string;
  readonly author: string | null;
  /** ISO-8601 commit time. */
  readonly at: string | null;
}

export interface GitFileChange {
  readonly path: string;
  readonly additions: number;
  readonly deletions: number;
}

export interface GitDiffSummary {
  /** The branch the task's work is compared against (its parent's branch or the default branch). */
  readonly base: string | null;
  readonly head: string | null;
  readonly files_changed: readonly GitFileChange[];
  /** The unified diff, capped by the port (20,000 characters); `truncated` says when it was. */
  readonly diff: string;
  readonly truncated: boolean;
}

export interface GitPullRequest {
  readonly number: number;
  readonly url: string;
  readonly base: string;
  readonly head: string;
  /** False when the call found the task's pull request already open (idempotent). */
  readonly created: boolean;
}

export interface GatewayGit {
  /**
   * At a claim: makes sure the task has its branch and the agent its worktree (the gateway records
   * the branch on the task). Called before the claim itself, so a git failure leaves no claim
   * behind: it must be idempotent. Branchless tasks (no repository) answer `{ branch: null }`.
   */
  prepareTask(task: TaskView, agent: GitAgent): Promise<{ branch: string | null }>;
  /**
   * Commits the agent's changes (all, or `files`) on the task branch. The port owns the message
   * rules: AI attribution and typed task prefixes dropped, a subject that says something (else an
   * `incomplete_input` refusal), `[id8] ` prefixed.
   */
  commit(task: TaskView, agent: GitAgent, input: { message: string; files?: string[] }): Promise<GitCommit>;
  /** Commits of the task branch that are not on its base, newest first. */
  commitsOf(task: TaskView): Promise<GitCommit[]>;
  /** The task branch against its base. */
  diffSummary(task: TaskView): Promise<GitDiffSummary>;
  /** Pushes the branch and opens its pull request to the parent's branch (or reuses the open one). */
  openPullRequest(task: TaskView, agent: GitAgent): Promise<GitPullRequest>;
  /**
   * Merges the task's pull request into its base (squash preferred). Refuses (`ceo_only`) when the
   * base is the project's default branch: only the CEO merges there.
   */
  mergePullRequest(task: TaskView, by: GitAgent): Promise<{ merged: boolean; sha: string | null }>;
  /** Rebases the task branch onto its base and force-pushes with lease; conflicts are refused. */
  syncBranch(
    task: TaskView,
    agent: GitAgent,
    options: { stash: boolean },
  ): Promise<{ status: string; [fact: string]: unknown }>;
}

export type GitRefusalFlavor = 'tracing_gap' | 'invalid_state' | 'not_authorized';

/** Git could not do it, for a reason the agent can act on (no commits, conflicts, CEO-only base…). */
export class GitRefusal extends Error {
  constructor(
    /** Stable snake_case reason: `no_commits`, `no_diff`, `merge_conflict`, `ceo_only`, `dirty_workspace`… */
    readonly code: string,
    message: string,
    readonly flavor: GitRefusalFlavor = 'invalid_state',
    readonly remediate?: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'GitRefusal';
  }
}
