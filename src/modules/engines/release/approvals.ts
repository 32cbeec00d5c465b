/**
 * Approve and reject, single-flight across replicas. Approve takes the distributed release lock
 * (Redis `SET NX PX` or the Postgres lease) — held: 409 `release_in_flight`, never queued — marks
 * the execution running and answers at once; the executor then runs in the background while a
 * heartbeat refreshes the lease and the row's heartbeat (a lost lease aborts it), and at the end the
 * outcome is recorded, the proposal completed only once a version is published, and the lock
 * released (owner-checked). Reject takes the same lock, so it never races an approve in flight.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Lease } from '../../../platform/cache/types.js';
import { conflict, notFound, storeUnavailable, unprocessable } from '../../../platform/http/errors.js';
import { messageOf } from '../../../platform/message-of.js';
import { unreachableStore } from '../../../platform/store-errors.js';
import { type Actor, SYSTEM_ACTOR } from '../../tasks/index.js';
import type { EngineDeps } from '../deps.js';
import { boundedDetail } from './execution-state.js';
import type { ExecutionStore } from './execution-store.js';
import { type ExecuteOutcome, executeRelease } from './executor.js';
import { type OpenProposal, openProposal } from './proposals.js';
import type { ReleaseDirs } from './workdirs.js';

/** The shortest `required_changes` a reject accepts (DESIGN.md §5). */
export const REQUIRED_CHANGES_MIN = 10;

/** The lock every approve and reject takes, whichever proposal. */
export const RELEASE_LOCK = 'release-manager:approve';

export interface ApprovalTiming {
  /** Lease of the release lock; a holder that stops heartbeating loses it after this long. */
  lockTtlMs: number;
  /** How often the lease and the row's heartbeat are refreshed. */
  heartbeatMs: number;
}

export const DEFAULT_APPROVAL_TIMING: ApprovalTiming = { lockTtlMs: 15_000, heartbeatMs: 3_000 };

export interface Accepted {
  status: 'accepted';
  task_id: string;
  version: string;
  detail: string;
}

interface Running {
  controller: AbortController;
  done: Promise<void>;
}

const inFlight = () =>
  conflict(
    'release_in_flight',
    'a release approve is already in flight (on this or another replica); it is not queued. Poll GET /api/release/proposal for its outcome',
  );

const noProposal = () => notFound('there is no open release proposal');

export class ReleaseApprovals {
  private readonly running = new Map<string, Running>();

  constructor(
    private readonly deps: EngineDeps,
    private readonly dirs: ReleaseDirs,
    private readonly store: ExecutionStore,
    private readonly timing: ApprovalTiming = DEFAULT_APPROVAL_TIMING,
  ) {}

  /** 202 material: the executor is dispatched in the background. 404 none open, 409 one in flight. */
  async approve(actor: Actor): Promise<Accepted> {
    if (!(await openProposal(this.deps.db))) throw noProposal();
    const lease = await this.takeLock();
    let proposal: OpenProposal | null;
    try {
      // Read again under the lock: the previous holder may have completed or rejected it.
      proposal = await openProposal(this.deps.db);
      if (!proposal) throw noProposal();
      await this.store.begin({
        taskId: proposal.taskId,
        version: proposal.report.version,
        approvedBy: actor.slug,
        heartbeatMs: this.timing.lockTtlMs,
      });
    } catch (error) {
      await this.deps.locks.release(lease).catch(() => false);
      throw error;
    }
    this.launch(proposal, lease);
    return {
      status: 'accepted',
      task_id: proposal.taskId,
      version: proposal.report.version,
      detail:
        'the release executor runs in the background; poll GET /api/release/proposal for execute_status',
    };
  }

  /** Cancels the open proposal through the tasks service (audited); 404 none open, 409 an approve in flight. */
  async reject(actor: Actor, requiredChanges: string): Promise<{ proposal: OpenProposal; status: string }> {
    if (requiredChanges.trim().length < REQUIRED_CHANGES_MIN) {
      throw unprocessable('the request is invalid', [
        { field: 'body.required_changes', message: `must be at least ${REQUIRED_CHANGES_MIN} characters` },
      ]);
    }
    if (!(await openProposal(this.deps.db))) throw noProposal();
    const lease = await this.takeLock();
    try {
      const proposal = await openProposal(this.deps.db);
      if (!proposal) throw noProposal();
      const task = await this.deps.tasks.transition(proposal.taskId, 'cancel', actor, {
        reason: `Release ${proposal.report.version} rejected; required changes: ${requiredChanges}`,
      });
      await this.store.rejected(proposal.taskId, proposal.report.version, requiredChanges);
      return { proposal, status: task.status };
    } finally {
      await this.deps.locks.release(lease).catch(() => false);
    }
  }

  /**
   * The release lock, or 409 while another holds it. Fails closed: when the lock store cannot
   * answer, 503 `store_unavailable` and nothing is started — never an approve without the lock.
   */
  private async takeLock(): Promise<Lease> {
    let lease: Lease | null;
    try {
      lease = await this.deps.locks.acquire(RELEASE_LOCK, this.timing.lockTtlMs);
    } catch (error) {
      const lockStore = this.deps.locks.kind === 'redis' ? 'cache' : 'database';
      throw storeUnavailable(unreachableStore(error) ?? lockStore, error);
    }
    if (!lease) throw inFlight();
    return lease;
  }

  /** Aborts the approves this process runs and waits for them to record it (shutdown). */
  async close(): Promise<void> {
    const all = [...this.running.values()];
    for (const run of all) run.controller.abort(new Error('the service shut down during the release'));
    await Promise.all(all.map((run) => run.done));
  }

  /** Runs the executor in the background, heartbeating, and records how it ended. */
  private launch(proposal: OpenProposal, lease: Lease): void {
    const controller = new AbortController();
    const stopHeartbeat = this.heartbeat(proposal.taskId, lease, controller);
    const done = this.execute(proposal, controller.signal)
      .then(async (outcome) => this.settle(proposal, outcome))
      .catch(async (error: unknown) => {
        const status = controller.signal.aborted ? 'failed_interrupted' : 'failed_error';
        const why = controller.signal.aborted
          ? messageOf(controller.signal.reason)
          : `unexpected error: ${messageOf(error)}`;
        await this.store
          .finish(proposal.taskId, { status, detail: `${why}; approve again to resume` })
          .catch(() => undefined);
      })
      .finally(async () => {
        stopHeartbeat();
        this.running.delete(proposal.taskId);
        await this.deps.locks.release(lease).catch(() => false);
      });
    this.running.set(proposal.taskId, { controller, done });
  }

  private heartbeat(taskId: string, lease: Lease, controller: AbortController): () => void {
    const { locks } = this.deps;
    let lastRefresh = Date.now();
    const timer = setInterval(async () => {
      try {
        if (!(await locks.refresh(lease, this.timing.lockTtlMs))) {
          controller.abort(new Error('the release lock was lost (its lease expired and was taken)'));
          return;
        }
        lastRefresh = Date.now();
        await this.store.heartbeat(taskId, this.timing.lockTtlMs);
      } catch {
        // A store that cannot vouch for the lease for longer than it lasts: stop, fail closed.
        if (Date.now() - lastRefresh > this.timing.lockTtlMs - this.timing.heartbeatMs) {
          controller.abort(
            new Error('the release lock could not be refreshed (the lock store is unreachable)'),
          );
        }
      }
    }, this.timing.heartbeatMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async execute(proposal: OpenProposal, signal: AbortSignal): Promise<ExecuteOutcome> {
    const { deps } = this;
    const { config } = deps;
    const project = await deps.projects.find(config.releaseProject);
    if (!project) {
      return {
        status: 'failed_error',
        detail: `there is no project "${config.releaseProject}" (GAFFER_RELEASE_PROJECT)`,
        commitSha: null,
        releaseUrl: null,
      };
    }
    const forge = deps.workspaces.forgeFor(project);
    const token = await deps.projects.gitToken(project.id);
    return executeRelease(
      {
        runner: this.dirs.runner,
        forge,
        progress: (step, detail, facts) => this.store.step(proposal.taskId, step, detail, facts),
      },
      {
        report: proposal.report,
        project,
        auth: token ? { token, url: project.gitUrl } : null,
        workDir: this.dirs.execute(project.slug),
        identity: { name: config.releaseGitName, email: config.releaseGitEmail },
        sign: config.releaseSignCommits
          ? {
              keyId: config.releaseSigningKey ?? undefined,
              gnupgHome: process.env.GNUPGHOME || join(homedir(), '.gnupg'),
            }
          : null,
        ciWorkflow: config.releaseCiWorkflow,
        ciPollMs: config.releaseCiPollSeconds * 1000,
        ciTimeoutMs: config.releaseCiTimeoutSeconds * 1000,
        today: deps.clock.now(),
        signal,
      },
    );
  }

  /** Records the outcome; a published version completes the proposal (audited, by the service). */
  private async settle(proposal: OpenProposal, outcome: ExecuteOutcome): Promise<void> {
    let { status, detail } = outcome;
    if (status === 'published' || status === 'already_published') {
      try {
        await this.deps.tasks.update(
          proposal.taskId,
          {
            status: 'completed',
            force: true,
            reason: boundedDetail(`Release ${proposal.report.version}: ${detail}`),
          },
          SYSTEM_ACTOR,
        );
      } catch (error) {
        status = 'failed_error';
        detail = `${detail}, but the proposal could not be completed: ${messageOf(error)}; approve again to finish`;
      }
    }
    await this.store.finish(proposal.taskId, {
      status,
      detail,
      releaseUrl: outcome.releaseUrl,
      commitSha: outcome.commitSha,
    });
  }
}
