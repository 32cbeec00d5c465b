/**
 * Reads and writes of the runtime's tables: run rows, transcript chunks, and the retention prune.
 * Plain data in and out; the supervisor and the routes decide what it means.
 */
import { and, asc, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { BlockedConnection } from './blocked-connections.js';
import type { RunLimitName, RunOutcome, RuntimeKind } from './contract.js';
import { agentRuns, agentTranscriptChunks } from './schema.js';

export type TranscriptStream = 'stdout' | 'stderr' | 'system';

/** How a stored run ended: as its runtime said, or `lost` when its server went away without saying. */
export type StoredOutcome = RunOutcome | 'lost';

export interface RunRecord {
  id: string;
  agentId: string;
  taskId: string | null;
  runtime: RuntimeKind;
  provider: string;
  model: string | null;
  pid: number | null;
  startedAt: Date;
  endedAt: Date | null;
  outcome: StoredOutcome | null;
  exitCode: number | null;
  signal: string | null;
  detail: string | null;
  transcriptBytes: number;
  droppedBytes: number;
  truncated: boolean;
  blocked: BlockedConnection[];
  blockedTotal: number;
  limitHit: RunLimitName | null;
}

export interface TranscriptChunk {
  runId: string;
  seq: number;
  agentId: string;
  taskId: string | null;
  stream: TranscriptStream;
  text: string;
  at: Date;
}

export interface RunEnding {
  endedAt: Date;
  outcome: RunOutcome;
  exitCode: number | null;
  signal: string | null;
  detail: string;
  transcriptBytes: number;
  droppedBytes: number;
  truncated: boolean;
  blocked: BlockedConnection[];
  blockedTotal: number;
  limitHit: RunLimitName | null;
}

/** Rows per insert statement (keeps each statement's parameter count far below the limit). */
const INSERT_BATCH = 500;

export class TranscriptStore {
  constructor(private readonly db: Db) {}

  async createRun(run: {
    id: string;
    agentId: string;
    taskId: string | null;
    runtime: RuntimeKind;
    provider: string;
    model: string | null;
    startedAt: Date;
  }): Promise<void> {
    await this.db.insert(agentRuns).values({ ...run, seenAt: run.startedAt });
  }

  /** The server running these runs says they still are (runs already ended are left alone). */
  async vouch(runIds: readonly string[], at: Date): Promise<void> {
    if (runIds.length === 0) return;
    await this.db
      .update(agentRuns)
      .set({ seenAt: at })
      .where(and(inArray(agentRuns.id, [...runIds]), isNull(agentRuns.endedAt)));
  }

  /** The run got going: its pid, and the model its route named when the spawn named none. */
  async markStarted(runId: string, pid: number | null, routedModel: string | null = null): Promise<void> {
    await this.db
      .update(agentRuns)
      .set(routedModel ? { pid, model: routedModel } : { pid })
      .where(eq(agentRuns.id, runId));
  }

  async appendChunks(chunks: readonly TranscriptChunk[]): Promise<void> {
    for (let i = 0; i < chunks.length; i += INSERT_BATCH) {
      await this.db.insert(agentTranscriptChunks).values(chunks.slice(i, i + INSERT_BATCH));
    }
  }

  async finishRun(runId: string, ending: RunEnding): Promise<void> {
    await this.db.update(agentRuns).set(ending).where(eq(agentRuns.id, runId));
  }

  /** The agent's runs, newest first. */
  async listRuns(agentId: string, limit: number): Promise<RunRecord[]> {
    const rows = await this.db
      .select()
      .from(agentRuns)
      .where(eq(agentRuns.agentId, agentId))
      .orderBy(desc(agentRuns.startedAt), desc(agentRuns.id))
      .limit(limit);
    return rows as RunRecord[];
  }

  /** One run of the agent; null when there is no such run, or it is another agent's. */
  async getRun(agentId: string, runId: string): Promise<RunRecord | null> {
    const [row] = await this.db
      .select()
      .from(agentRuns)
      .where(and(eq(agentRuns.id, runId), eq(agentRuns.agentId, agentId)))
      .limit(1);
    return (row as RunRecord | undefined) ?? null;
  }

  /** Chunks of a run after `afterSeq`, in order. */
  async readChunks(runId: string, afterSeq: number, limit: number): Promise<TranscriptChunk[]> {
    const rows = await this.db
      .select()
      .from(agentTranscriptChunks)
      .where(and(eq(agentTranscriptChunks.runId, runId), gt(agentTranscriptChunks.seq, afterSeq)))
      .orderBy(asc(agentTranscriptChunks.seq))
      .limit(limit);
    return rows as TranscriptChunk[];
  }
}

/** A run closed as lost. */
export interface LostRun {
  id: string;
  agentId: string;
  taskId: string | null;
}

export const LOST_RUN_DETAIL = 'the server running it stopped without recording how it ended';

/**
 * Closes, as `lost`, the runs still open that no server has vouched for since `staleBefore` (their
 * server was killed or lost its database): they are not running anywhere any more.
 */
export async function closeLostRuns(db: Db, options: { now: Date; staleBefore: Date }): Promise<LostRun[]> {
  return db
    .update(agentRuns)
    .set({ endedAt: options.now, outcome: 'lost', detail: LOST_RUN_DETAIL })
    .where(
      and(
        isNull(agentRuns.endedAt),
        sql`coalesce(${agentRuns.seenAt}, ${agentRuns.startedAt}) < ${options.staleBefore.toISOString()}::timestamptz`,
      ),
    )
    .returning({ id: agentRuns.id, agentId: agentRuns.agentId, taskId: agentRuns.taskId });
}

/**
 * Deletes the runs (and with them their transcripts) that ended more than `retentionDays` days
 * before `now`. Runs still going are kept whatever their age. For the scheduler, with the
 * `transcript_retention_days` setting.
 */
export async function pruneTranscripts(
  db: Db,
  options: { now: Date; retentionDays: number },
): Promise<{ runs: number }> {
  if (!Number.isFinite(options.retentionDays) || options.retentionDays < 1) {
    throw new RangeError(`retentionDays must be at least 1 (got ${options.retentionDays})`);
  }
  const cutoff = new Date(options.now.getTime() - options.retentionDays * 86_400_000);
  const deleted = await db
    .delete(agentRuns)
    .where(lt(agentRuns.endedAt, cutoff))
    .returning({ id: agentRuns.id });
  return { runs: deleted.length };
}
