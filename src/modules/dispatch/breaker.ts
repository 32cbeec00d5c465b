/**
 * The respawn breaker. Progress on a task is a new audit row written by someone other than the
 * system (a transition, a commit, a plan, a note); the dispatcher's own moves (assigning,
 * releasing, marking stalled) never count, nor does a heartbeat — every respawned agent's first
 * gateway call beats, so a heartbeat would let an agent that does nothing be respawned forever. A task that makes no progress across
 * `limit` spawns in a row is given up on — stalled — and gets no further spawn until it progresses
 * (someone moves it, or the CEO spawns an agent on it by hand and it works). The verdict is pure;
 * the tracker keeps the counts in `dispatch_task_spawns`.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { openWithoutProgressSince, progressMarksOf } from '../tasks/index.js';
import { dispatchTaskSpawns } from './schema.js';

/** What counts as progress on a task. */
export interface ProgressMarks {
  /** Id of the newest audit row not written by the system. */
  lastEventId: number | null;
  lastHeartbeatAt: Date | null;
}

/** The tracker's row for a task, as the candidate query reads it. */
export interface BreakerRow {
  spawns: number;
  seen: ProgressMarks;
  stalledAt: Date | null;
}

export type BreakerVerdict =
  /** Spawn; `spawns` is the run of spawns without progress this one makes. */
  | { readonly action: 'spawn'; readonly spawns: number; readonly unstall: boolean }
  /** `limit` spawns made no progress: give the task up now. */
  | { readonly action: 'trip'; readonly spawns: number }
  /** Given up on earlier and still no progress. */
  | { readonly action: 'stalled' };

export function madeProgress(seen: ProgressMarks, now: ProgressMarks): boolean {
  return (now.lastEventId ?? 0) > (seen.lastEventId ?? 0);
}

export function breakerVerdict(row: BreakerRow | null, now: ProgressMarks, limit: number): BreakerVerdict {
  if (!row) return { action: 'spawn', spawns: 1, unstall: false };
  const progressed = madeProgress(row.seen, now);
  if (row.stalledAt)
    return progressed ? { action: 'spawn', spawns: 1, unstall: true } : { action: 'stalled' };
  if (progressed) return { action: 'spawn', spawns: 1, unstall: false };
  if (row.spawns >= limit) return { action: 'trip', spawns: row.spawns };
  return { action: 'spawn', spawns: row.spawns + 1, unstall: false };
}

export interface StalledTask {
  taskId: string;
  agentId: string | null;
  spawns: number;
  stalledAt: Date;
  reason: string | null;
}

/** The breaker's counts, per task, in the database (shared by every replica). */
export class RespawnTracker {
  constructor(private readonly db: Db) {}

  /** The task's progress marks now. */
  marksOf(taskId: string): Promise<ProgressMarks> {
    return progressMarksOf(this.db, taskId);
  }

  async recordSpawn(taskId: string, agentId: string, spawns: number, marks: ProgressMarks, at: Date) {
    const values = {
      agentId,
      spawns,
      lastEventId: marks.lastEventId,
      heartbeatAt: marks.lastHeartbeatAt,
      lastSpawnAt: at,
      stalledAt: null,
      stalledReason: null,
    };
    await this.db
      .insert(dispatchTaskSpawns)
      .values({ taskId, ...values })
      .onConflictDoUpdate({ target: dispatchTaskSpawns.taskId, set: values });
  }

  /** Marks the task stalled with the marks seen now (so only later progress un-stalls it). */
  async trip(taskId: string, reason: string, marks: ProgressMarks, at: Date): Promise<void> {
    await this.db
      .update(dispatchTaskSpawns)
      .set({
        stalledAt: at,
        stalledReason: reason,
        lastEventId: marks.lastEventId,
        heartbeatAt: marks.lastHeartbeatAt,
      })
      .where(eq(dispatchTaskSpawns.taskId, taskId));
  }

  /** Clears the stall after progress; the count starts again. */
  async unstall(taskId: string, marks: ProgressMarks): Promise<void> {
    await this.db
      .update(dispatchTaskSpawns)
      .set({
        stalledAt: null,
        stalledReason: null,
        spawns: 0,
        lastEventId: marks.lastEventId,
        heartbeatAt: marks.lastHeartbeatAt,
      })
      .where(eq(dispatchTaskSpawns.taskId, taskId));
  }

  /**
   * Stalled tasks that are still open and have made no progress since (a task that progressed is
   * un-stalled by the next pass that considers it), oldest stall first.
   */
  async stalled(limit = 100): Promise<StalledTask[]> {
    const rows = await this.db
      .select({
        taskId: dispatchTaskSpawns.taskId,
        agentId: dispatchTaskSpawns.agentId,
        spawns: dispatchTaskSpawns.spawns,
        stalledAt: dispatchTaskSpawns.stalledAt,
        reason: dispatchTaskSpawns.stalledReason,
      })
      .from(dispatchTaskSpawns)
      // Our table gives the rows, order and limit, so the query is ours; tasks lends its condition.
      .where(
        and(
          isNotNull(dispatchTaskSpawns.stalledAt),
          openWithoutProgressSince(dispatchTaskSpawns.taskId, dispatchTaskSpawns.lastEventId),
        ),
      )
      .orderBy(dispatchTaskSpawns.stalledAt)
      .limit(limit);
    return rows.map((row) => ({ ...row, stalledAt: row.stalledAt! }));
  }
}
