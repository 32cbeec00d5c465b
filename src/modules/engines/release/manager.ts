/**
 * The gated release manager, assembled: the board program whose sweep is the readiness pass (on
 * only when the `release_manager` flag was on at boot AND GAFFER_RELEASE_MANAGER_ENABLED), the
 * approvals (approve / reject under the distributed lock), and the proposal as the GET shows it.
 */
import type { Identity } from '../../../platform/http/auth/index.js';
import { AppError } from '../../../platform/http/errors.js';
import type { BoardProgram } from '../../board-programs/index.js';
import type { Actor } from '../../tasks/index.js';
import type { EngineDeps } from '../deps.js';
import { type ApprovalTiming, DEFAULT_APPROVAL_TIMING, ReleaseApprovals } from './approvals.js';
import { type ExecuteStatus, executionView } from './execution-state.js';
import { ExecutionStore } from './execution-store.js';
import { openProposal, RELEASE_SOURCE } from './proposals.js';
import type { ReleaseReport } from './report.js';
import { type ReadinessNote, releaseReadinessSweep } from './sweep.js';
import { releaseDirs } from './workdirs.js';

export interface ReleaseProposalView {
  task_id: string;
  title: string;
  status: string;
  held: true;
  version: string;
  tag: string;
  bump: string;
  bump_rule: string;
  created_at: string;
  execute_status: ExecuteStatus | null;
  execute_detail: string | null;
  execute_in_flight: boolean;
  execute_step: string | null;
  commit_sha: string | null;
  release_url: string | null;
  attempts: number;
  report: ReleaseReport;
}

export class ReleaseManager {
  readonly approvals: ReleaseApprovals;
  readonly program: BoardProgram;
  private readonly store: ExecutionStore;
  private lastReadiness: ReadinessNote | null = null;

  constructor(
    private readonly deps: EngineDeps,
    options: { timing?: ApprovalTiming } = {},
  ) {
    const dirs = releaseDirs(deps.config.dataDir);
    this.store = new ExecutionStore(deps.db, deps.clock);
    this.approvals = new ReleaseApprovals(deps, dirs, this.store, options.timing ?? DEFAULT_APPROVAL_TIMING);
    this.program = {
      key: RELEASE_SOURCE,
      title: 'Gated release manager',
      description:
        "Sweeps the service's own repository (GAFFER_RELEASE_PROJECT) for release readiness and opens one held " +
        'release proposal for the CEO when the gate is green and the change set clears the threshold. It never publishes by itself.',
      role: 'system',
      trigger: 'interval',
      intervalSeconds: deps.config.releaseManagerIntervalSeconds,
      scope: 'org',
      enabled: () => deps.flags.isEnabled('release_manager') && deps.config.releaseManagerEnabled,
      sweep: (cycle) =>
        releaseReadinessSweep(deps, dirs, cycle, (note) => {
          this.lastReadiness = note;
        }),
    };
  }

  actorFor(identity: Identity): Promise<Actor> {
    return this.deps.tasks.actorFor(identity);
  }

  /** The open proposal with its executor state; 404 when there is none. */
  async view(): Promise<ReleaseProposalView> {
    const proposal = await openProposal(this.deps.db);
    if (!proposal) {
      const details = this.lastReadiness ? { last_readiness: this.lastReadiness } : undefined;
      throw new AppError(404, 'not_found', 'there is no open release proposal', details);
    }
    const stored = await this.store.read(proposal.taskId);
    const execution = executionView(stored);
    const { report } = proposal;
    return {
      task_id: proposal.taskId,
      title: proposal.title,
      status: proposal.status,
      held: true,
      version: report.version,
      tag: report.tag,
      bump: report.bump,
      bump_rule: report.bump_rule,
      created_at: proposal.createdAt.toISOString(),
      ...execution,
      execute_step: stored?.step ?? null,
      commit_sha: stored?.commitSha ?? null,
      release_url: stored?.releaseUrl ?? null,
      attempts: stored?.attempts ?? 0,
      report,
    };
  }

  /** Aborts approves running in this process (they record `failed_interrupted`). */
  close(): Promise<void> {
    return this.approvals.close();
  }
}
