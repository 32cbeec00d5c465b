/**
 * The `release_executions` rows: an approve starting (running, heartbeat set), the steps it
 * reaches, its heartbeat, how it ended, and a rejection's required changes. Heartbeat expiries are
 * computed and judged on the database clock, like the leases, so replicas agree on liveness.
 */
import { eq, sql } from 'drizzle-orm';
import type { Clock } from '../../../platform/clock.js';
import type { Db } from '../../../platform/db/client.js';
import {
  boundedDetail,
  type ExecuteStatus,
  type ExecuteStep,
  type StoredExecution,
} from './execution-state.js';
import { releaseExecutions } from './schema.js';

export type ExecutionRow = typeof releaseExecutions.$inferSelect;

const until = (ttlMs: number) =>
  sql`now() + ${Math.max(1, Math.round(ttlMs))}::bigint * interval '1 millisecond'`;

export class ExecutionStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** The row and whether its heartbeat is still fresh; null when the proposal was never approved or rejected. */
  async read(taskId: string): Promise<(ExecutionRow & StoredExecution) | null> {
    const [row] = await this.db
      .select({
        row: releaseExecutions,
        live: sql<boolean>`coalesce(${releaseExecutions.heartbeatUntil} > now(), false)`,
      })
      .from(releaseExecutions)
      .where(eq(releaseExecutions.taskId, taskId));
    return row ? { ...row.row, live: Boolean(row.live) } : null;
  }

  /** An approve took the lock: the row is `running` from the first step, its heartbeat set. */
  async begin(input: {
    taskId: string;
    version: string;
    approvedBy: string;
    heartbeatMs: number;
  }): Promise<void> {
    const now = this.clock.now();
    const running = {
      version: input.version,
      status: 'running' as ExecuteStatus,
      step: 'start' as ExecuteStep,
      detail: `approved by ${input.approvedBy}; the executor is starting`,
      approvedBy: input.approvedBy,
      heartbeatUntil: until(input.heartbeatMs),
      startedAt: now,
      finishedAt: null,
      updatedAt: now,
    };
    await this.db
      .insert(releaseExecutions)
      .values({ taskId: input.taskId, attempts: 1, ...running })
      .onConflictDoUpdate({
        target: releaseExecutions.taskId,
        set: { ...running, attempts: sql`${releaseExecutions.attempts} + 1` },
      });
  }

  async step(
    taskId: string,
    step: ExecuteStep,
    detail: string,
    facts: { commitSha?: string } = {},
  ): Promise<void> {
    await this.db
      .update(releaseExecutions)
      .set({ step, detail: boundedDetail(detail), updatedAt: this.clock.now(), ...facts })
      .where(eq(releaseExecutions.taskId, taskId));
  }

  async heartbeat(taskId: string, heartbeatMs: number): Promise<void> {
    await this.db
      .update(releaseExecutions)
      .set({ heartbeatUntil: until(heartbeatMs) })
      .where(eq(releaseExecutions.taskId, taskId));
  }

  async finish(
    taskId: string,
    outcome: {
      status: Exclude<ExecuteStatus, 'running'>;
      detail: string;
      releaseUrl?: string | null;
      commitSha?: string | null;
    },
  ): Promise<void> {
    const now = this.clock.now();
    await this.db
      .update(releaseExecutions)
      .set({
        status: outcome.status,
        detail: boundedDetail(outcome.detail),
        heartbeatUntil: null,
        finishedAt: now,
        updatedAt: now,
        ...(outcome.releaseUrl !== undefined ? { releaseUrl: outcome.releaseUrl } : {}),
        ...(outcome.commitSha !== undefined && outcome.commitSha !== null
          ? { commitSha: outcome.commitSha }
          : {}),
      })
      .where(eq(releaseExecutions.taskId, taskId));
  }

  async rejected(taskId: string, version: string, requiredChanges: string): Promise<void> {
    const now = this.clock.now();
    await this.db
      .insert(releaseExecutions)
      .values({ taskId, version, status: 'rejected', requiredChanges, updatedAt: now, finishedAt: now })
      .onConflictDoUpdate({
        target: releaseExecutions.taskId,
        set: { requiredChanges, updatedAt: now, heartbeatUntil: null },
      });
  }
}
