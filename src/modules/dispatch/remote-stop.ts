/**
 * Stopping an agent that runs on another replica. Each replica's supervisor knows only its own runs,
 * so a stop for an agent this replica does not run is forwarded over the cache's pub/sub (Redis
 * across replicas): every replica hears the request, the one that runs the agent stops it and
 * publishes how the run ended, and the asking replica answers with that. Before asking, the
 * `agent_runs` table says whether any replica vouches for a live run of the agent (its `seen_at` is
 * recent); when none does the answer is at once "not running", without waiting for a reply that
 * cannot come. No reply within the timeout (the kill grace plus a margin) is a 504.
 */
import { randomUUID } from 'node:crypto';
import type { Cache } from '../../platform/cache/types.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/client.js';
import { AppError } from '../../platform/http/errors.js';
import { hasLiveRun } from '../runtime/index.js';
import type { ExitView } from './orchestrator.js';

export const STOP_REQUEST_CHANNEL = 'orchestrator.stop';
export const STOP_REPLY_CHANNEL = 'orchestrator.stop.reply';

/** Margin over the kill grace a forwarded stop waits for its reply. */
export const REMOTE_STOP_MARGIN_MS = 10_000;

interface StopRequest {
  id: string;
  agent_id: string;
  graceful: boolean;
}

interface StopReply {
  id: string;
  exit: ExitView | null;
}

export interface RemoteStopDeps {
  cache: Pick<Cache, 'publish' | 'subscribe'>;
  db: Db;
  clock: Clock;
  /** Stops the agent if this replica runs it (null when it does not). */
  stopLocal(agentId: string, graceful: boolean): Promise<ExitView | null>;
  killGraceSeconds: number;
  /** Wait for a reply beyond the kill grace (default REMOTE_STOP_MARGIN_MS). */
  marginMs?: number;
  log?: { warn(details: object, message: string): void };
}

export class RemoteStop {
  private readonly waiting = new Map<string, (exit: ExitView | null) => void>();
  private readonly unsubscribes: (() => Promise<void>)[] = [];

  constructor(private readonly deps: RemoteStopDeps) {}

  /** Listens for stop requests of other replicas and for the replies to this one's. */
  async start(): Promise<void> {
    const { cache } = this.deps;
    this.unsubscribes.push(
      await cache.subscribe(STOP_REQUEST_CHANNEL, (message) => void this.answer(message)),
      await cache.subscribe(STOP_REPLY_CHANNEL, (message) => {
        const reply = parse<StopReply>(message);
        if (reply) this.waiting.get(reply.id)?.(reply.exit);
      }),
    );
  }

  async close(): Promise<void> {
    for (const unsubscribe of this.unsubscribes.splice(0)) await unsubscribe().catch(() => {});
  }

  /**
   * Asks the replica that runs `agentId` to stop it. Null when no replica runs it; 504
   * `stop_unanswered` when one vouches for a run but none answered in time.
   */
  async stop(agentId: string, graceful: boolean): Promise<ExitView | null> {
    if (!(await this.runsSomewhere(agentId))) return null;
    const id = randomUUID();
    const margin = this.deps.marginMs ?? REMOTE_STOP_MARGIN_MS;
    const timeoutMs = (graceful ? this.deps.killGraceSeconds * 1000 : 0) + margin;
    const replied = new Promise<ExitView | null | 'timeout'>((resolve) => {
      const timer = setTimeout(() => resolve('timeout'), timeoutMs);
      this.waiting.set(id, (exit) => {
        clearTimeout(timer);
        resolve(exit);
      });
    });
    try {
      const request: StopRequest = { id, agent_id: agentId, graceful };
      await this.deps.cache.publish(STOP_REQUEST_CHANNEL, JSON.stringify(request));
      const exit = await replied;
      if (exit === 'timeout') {
        throw new AppError(
          504,
          'stop_unanswered',
          `a replica records a live run of this agent, but none answered the stop within ${(timeoutMs / 1000).toFixed(1)} s`,
        );
      }
      return exit;
    } finally {
      this.waiting.delete(id);
    }
  }

  /** Whether a live run of the agent is vouched for (by any replica) in `agent_runs`. */
  private runsSomewhere(agentId: string): Promise<boolean> {
    return hasLiveRun(this.deps.db, agentId, this.deps.clock.now());
  }

  /** A request of another replica: stop the agent if it runs here, and say how it ended. */
  private async answer(message: string): Promise<void> {
    const request = parse<StopRequest>(message);
    if (!request || typeof request.agent_id !== 'string') return;
    if (this.waiting.has(request.id)) return; // our own request
    try {
      const exit = await this.deps.stopLocal(request.agent_id, request.graceful === true);
      if (!exit) return; // not ours: the replica that runs it answers
      const reply: StopReply = { id: request.id, exit };
      await this.deps.cache.publish(STOP_REPLY_CHANNEL, JSON.stringify(reply));
    } catch (error) {
      this.deps.log?.warn({ err: error, agent_id: request.agent_id }, 'a forwarded agent stop failed');
    }
  }
}

function parse<T>(message: string): T | null {
  try {
    const value = JSON.parse(message) as unknown;
    return value && typeof value === 'object' ? (value as T) : null;
  } catch {
    return null;
  }
}
