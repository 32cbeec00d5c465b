/**
 * Reading agents' runs and transcripts (`/api/stream`), with who may read them.
 *
 * Access: the CEO (and the server's own system identity) read every agent's output; an agent reads
 * its own. Nobody else — PMs included: raw output can hold whatever a tool printed (paths, keys a
 * test leaked), and PMs follow an agent's work through the task audit trail, findings, work
 * sessions and A2A instead.
 */
import type { Identity } from '../../platform/http/auth/identity.js';
import { AppError } from '../../platform/http/errors.js';
import type { AgentsService } from '../agents/index.js';
import type { RunLimitName, RuntimeKind } from './contract.js';
import type { RunRecord, StoredOutcome, TranscriptStore, TranscriptStream } from './transcript-store.js';

export const TRANSCRIPT_LIMITS = {
  runsDefault: 50,
  runsMax: 200,
  chunksDefault: 200,
  chunksMax: 1000,
} as const;

const READ_ANY = new Set(['ceo', 'system']);

export interface RunView {
  run_id: string;
  agent_id: string;
  task_id: string | null;
  runtime: RuntimeKind;
  provider: string;
  model: string | null;
  pid: number | null;
  /** `running` until it ends, then how it ended. */
  status: 'running' | StoredOutcome;
  started_at: string;
  ended_at: string | null;
  exit_code: number | null;
  signal: string | null;
  detail: string | null;
  transcript_bytes: number;
  dropped_bytes: number;
  truncated: boolean;
  /** Destinations the run's network fence refused (each distinct one, with its reason and count). */
  blocked: { host: string; port: number; reason: string; count: number }[];
  /** Every refusal, distinct or not. */
  blocked_total: number;
  /** The run limit that stopped the run, if one did. */
  limit_hit: RunLimitName | null;
}

export interface RunListView {
  agent_id: string;
  agent_slug: string;
  runs: RunView[];
}

export interface TranscriptPageView {
  run: RunView;
  chunks: { seq: number; stream: TranscriptStream; text: string; at: string }[];
  /** The `after_seq` to ask for next: the last chunk's seq (or the one asked for when none came). */
  next_after_seq: number;
  /** True when a full page came back: ask again for more. */
  has_more: boolean;
}

export function runView(run: RunRecord): RunView {
  return {
    run_id: run.id,
    agent_id: run.agentId,
    task_id: run.taskId,
    runtime: run.runtime,
    provider: run.provider,
    model: run.model,
    pid: run.pid,
    status: run.endedAt ? (run.outcome ?? 'failed') : 'running',
    started_at: run.startedAt.toISOString(),
    ended_at: run.endedAt?.toISOString() ?? null,
    exit_code: run.exitCode,
    signal: run.signal,
    detail: run.detail,
    transcript_bytes: run.transcriptBytes,
    dropped_bytes: run.droppedBytes,
    truncated: run.truncated,
    blocked: run.blocked,
    blocked_total: run.blockedTotal,
    limit_hit: run.limitHit,
  };
}

export class TranscriptService {
  constructor(
    private readonly store: TranscriptStore,
    private readonly agents: AgentsService,
  ) {}

  /** The agent's runs, newest first. 404 unknown agent; 403 for a caller who may not read it. */
  async runsOf(
    caller: Identity,
    agentKey: string,
    limit: number = TRANSCRIPT_LIMITS.runsDefault,
  ): Promise<RunListView> {
    const agent = await this.readable(caller, agentKey);
    const runs = await this.store.listRuns(agent.id, limit);
    return { agent_id: agent.id, agent_slug: agent.slug, runs: runs.map(runView) };
  }

  /** A page of one run's transcript, in order after `afterSeq`. 404 unknown agent or run. */
  async page(
    caller: Identity,
    agentKey: string,
    runId: string,
    afterSeq = 0,
    limit: number = TRANSCRIPT_LIMITS.chunksDefault,
  ): Promise<TranscriptPageView> {
    const agent = await this.readable(caller, agentKey);
    const run = await this.store.getRun(agent.id, runId);
    if (!run) throw new AppError(404, 'not_found', `agent ${agent.slug} has no run ${runId}`);
    const chunks = await this.store.readChunks(run.id, afterSeq, limit);
    return {
      run: runView(run),
      chunks: chunks.map((c) => ({ seq: c.seq, stream: c.stream, text: c.text, at: c.at.toISOString() })),
      next_after_seq: chunks.at(-1)?.seq ?? afterSeq,
      has_more: chunks.length === limit,
    };
  }

  private async readable(caller: Identity, agentKey: string): Promise<{ id: string; slug: string }> {
    const agent = await this.agents.get(agentKey);
    if (READ_ANY.has(caller.role)) return agent;
    const actor = await this.agents.actorOf(caller);
    if (actor.id !== agent.id) {
      throw new AppError(403, 'forbidden', 'an agent may read only its own output stream; the CEO reads all');
    }
    return agent;
  }
}
