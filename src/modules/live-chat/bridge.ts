/**
 * The live-chat bridge both chats share. A session is (kind, owner CEO, scope): its turns are
 * persisted (store.ts) and its live part is in memory here: who is listening on the stream, whether
 * a reply is being generated and the text streamed so far. Each user turn runs the model (the
 * roster agent's routed provider) with the whole conversation and the chat's tools; text streams
 * out as `text_delta`, each tool use is answered by the chat (a draft, a directive…) and the model
 * goes on until it stops asking for tools; `turn_end` closes every turn.
 *
 * Across replicas (relay.ts): the events reach the streams every replica holds, an end cancels the
 * reply wherever it runs, and one turn at a time per session is held by a lock, not by memory.
 */

import type { Lease, Locks } from '../../platform/cache/types.js';
import { AppError, conflict, notFound } from '../../platform/http/errors.js';
import type { ModelClient, ModelTool, ToolCall } from '../../platform/llm/index.js';
import { messageOf } from '../../platform/message-of.js';
import { modelMessages } from './conversation.js';
import type { ChatRelay, Relayed } from './relay.js';
import type { LiveChatStore, SessionRow, Turn } from './store.js';

/** One server-sent event; `id` is the persisted turn's seq. */
export interface ChatEvent {
  event: string;
  data: Record<string, unknown>;
  id?: number;
}

export interface ToolOutcome {
  /** What the model reads as the tool's result. */
  result: string;
  isError?: boolean;
  /** Turns to persist and show the CEO (`draft`, `batch`, `directive`). */
  shown?: { kind: string; data: Record<string, unknown> }[];
}

/** What makes a chat this chat: its roster agent, its prompt and its tools. */
export interface ChatAgent {
  /** The roster agent the model runs as (its provider route applies). */
  subject: { id: string; role: string };
  systemPrompt(session: SessionRow): Promise<string>;
  tools: ModelTool[];
  useTool(session: SessionRow, call: ToolCall): Promise<ToolOutcome>;
}

export interface LiveChatBridgeDeps {
  /** providers.service.clientFor: a 409 `no_model_provider` when no provider is routed. */
  clientFor(subject: { id: string; role: string }): Promise<ModelClient>;
  /** A session without a turn for this long is ended by the reaper. */
  idleMs: number;
  /** Takes one turn at a time per session, whichever replica the message reaches. */
  locks: Locks;
  relay: ChatRelay;
}

export interface StreamListener {
  send(event: ChatEvent): void;
  close(): void;
}

interface LivePart {
  listeners: Set<StreamListener>;
  busy: boolean;
  /** The text of the round being streamed, until it is persisted as a `text` turn. */
  partial: string;
  /** That turn's write while it runs, and how many such writes began: a stream attaching waits them out. */
  saving: Promise<unknown> | null;
  saves: number;
  abort: AbortController | null;
}

/** Model rounds one user turn may take (each tool use answered, then the model goes on). */
const MAX_ROUNDS = 4;

/** The turn lock's lease; refreshed every third of it while the reply runs, so a crash frees it. */
const TURN_LEASE_MS = 60_000;

const turnInProgress = () =>
  conflict('turn_in_progress', 'the assistant is still answering the last message');

/** Persisted turns as the events a (re)attached stream replays. */
export const replayEvent = (turn: Turn): ChatEvent => ({ event: turn.kind, data: turn.data, id: turn.seq });

export class LiveChatBridge {
  private readonly live = new Map<string, LivePart>();
  /** Sessions whose reply runs on another replica, and the text it has streamed of its round. */
  private readonly remote = new Map<string, { partial: string }>();

  constructor(
    readonly store: LiveChatStore,
    private readonly agent: ChatAgent,
    private readonly deps: LiveChatBridgeDeps,
  ) {}

  /** Opens a session; 409 `no_model_provider` (nothing written) when the agent has no provider. */
  async start(ownerId: string, scope: Record<string, unknown>, initialMessage?: string): Promise<SessionRow> {
    await this.deps.clientFor(this.agent.subject);
    const row = await this.store.create(ownerId, scope);
    if (initialMessage?.trim()) await this.send(row.id, ownerId, initialMessage);
    return row;
  }

  /** The caller's session; 404 for an unknown id or someone else's. */
  async session(id: string, ownerId: string): Promise<SessionRow> {
    const row = await this.store.find(id);
    if (!row || row.ownerId !== ownerId) throw notFound(`no live chat session ${id}`);
    return row;
  }

  /** The caller's session while it is live; 409 `session_ended` once it ended. */
  async activeSession(id: string, ownerId: string): Promise<SessionRow> {
    const row = await this.session(id, ownerId);
    if (row.status !== 'active')
      throw conflict(
        'session_ended',
        `the live chat session ${id} has ended (${row.endedReason ?? 'ended'})`,
      );
    return row;
  }

  async status(id: string, ownerId: string) {
    const row = await this.session(id, ownerId);
    return {
      session_id: row.id,
      status: row.status as 'active' | 'ended',
      ended_reason: row.endedReason,
      turns: await this.store.countTurns(row.id),
      busy: this.busy(row.id),
      scope: row.scope,
      draft: row.draft ?? null,
      last_activity_at: row.lastActivityAt.toISOString(),
    };
  }

  /** A user turn: persisted, then the reply generated in the background. 409 while one is running. */
  async send(id: string, ownerId: string, text: string): Promise<void> {
    const row = await this.activeSession(id, ownerId);
    const live = this.liveOf(id);
    if (live.busy) throw turnInProgress();
    live.busy = true;
    let lease: Lease | null = null;
    try {
      lease = await this.deps.locks.acquire(`live-chat:${id}`, TURN_LEASE_MS);
      if (!lease) throw turnInProgress();
      // No reply runs elsewhere while this replica holds the turn (a crashed one sent no turn_end).
      this.remote.delete(id);
      live.abort = new AbortController();
      await this.record(id, 'user', { text });
    } catch (error) {
      live.busy = false;
      live.abort = null;
      if (lease) await this.deps.locks.release(lease).catch(() => false);
      throw error;
    }
    void this.runTurn(row, live, live.abort.signal, lease);
  }

  /** Starts hearing the other replicas' events and ends. */
  startRelay(): Promise<void> {
    return this.deps.relay.start((message) => this.relayed(message));
  }

  stopRelay(): Promise<void> {
    return this.deps.relay.stop();
  }

  /** Ends the session now: the reply in flight is cancelled and open streams close. */
  async stop(id: string, ownerId: string): Promise<void> {
    await this.session(id, ownerId);
    await this.store.end(id, 'stopped');
    this.closeLive(id, 'stopped');
  }

  /** Ends the sessions idle longer than the setting (the reaper loop's pass); their ids. */
  async reapIdle(now: Date): Promise<string[]> {
    const ids = await this.store.endIdle(new Date(now.getTime() - this.deps.idleMs));
    for (const id of ids) this.closeLive(id, 'idle');
    return ids;
  }

  /**
   * Attaches a stream: the persisted turns first, then what is being streamed now, then live
   * events. An ended session replays and closes.
   */
  async attach(id: string, ownerId: string, listener: StreamListener): Promise<() => void> {
    const row = await this.session(id, ownerId);
    const live = this.liveOf(id);
    const buffered: ChatEvent[] = [];
    const buffering: StreamListener = { send: (e) => buffered.push(e), close: () => undefined };
    live.listeners.add(buffering);
    // What happens while the stored part is read is buffered, and from the buffer's end on the
    // listener hears everything: nothing is lost between them. The streamed text is in the persisted
    // turns or in `partial`, never both nor neither: the turns are read again if a round's text was
    // written meanwhile.
    let turns: Turn[];
    let fresh: SessionRow | null;
    for (;;) {
      while (live.saving) await live.saving.catch(() => undefined);
      const saves = live.saves;
      turns = await this.store.turns(id);
      fresh = await this.store.find(id);
      if (live.saves === saves) break;
    }
    const partial = live.partial || (this.remote.get(id)?.partial ?? '');
    live.listeners.delete(buffering);
    for (const turn of turns) listener.send(replayEvent(turn));
    const lastSeq = turns.at(-1)?.seq ?? 0;
    // What was sent while they were read, then the text of the round streaming now: it began after
    // all of that, and the deltas it streamed meanwhile are in `partial`.
    for (const event of buffered)
      if (event.event !== 'text_delta' && (event.id === undefined || event.id > lastSeq))
        listener.send(event);
    if (partial) listener.send({ event: 'text_delta', data: { text: partial } });
    listener.send({
      event: 'ready',
      data: { status: fresh?.status ?? row.status, busy: this.busy(id), turns: turns.length },
    });
    if (fresh?.status !== 'active') {
      listener.send({ event: 'ended', data: { reason: fresh?.endedReason ?? 'ended' } });
      listener.close();
      return () => undefined;
    }
    live.listeners.add(listener);
    return () => live.listeners.delete(listener);
  }

  /** Persists a turn the chat adds itself (a confirmation) and shows it on open streams. */
  async record(id: string, kind: string, data: Record<string, unknown>): Promise<Turn> {
    const turn = await this.store.append(id, kind, data);
    this.emit(id, replayEvent(turn));
    return turn;
  }

  /** Ends every open stream (the server is shutting down). */
  closeAllStreams(): void {
    for (const live of this.live.values()) {
      live.abort?.abort();
      for (const listener of live.listeners) listener.close();
      live.listeners.clear();
    }
  }

  private liveOf(id: string): LivePart {
    let live = this.live.get(id);
    if (!live) {
      live = { listeners: new Set(), busy: false, partial: '', saving: null, saves: 0, abort: null };
      this.live.set(id, live);
    }
    return live;
  }

  private busy(id: string): boolean {
    return (this.live.get(id)?.busy ?? false) || this.remote.has(id);
  }

  /** Shows an event on this replica's streams of the session and relays it to the others'. */
  private emit(id: string, event: ChatEvent): void {
    this.deliver(id, event);
    this.deps.relay.publish({ session: id, event });
  }

  private deliver(id: string, event: ChatEvent): void {
    for (const listener of this.live.get(id)?.listeners ?? []) listener.send(event);
  }

  /** Another replica's event or end: its reply's progress is tracked for `busy` and a late attach. */
  private relayed(message: Relayed): void {
    const id = message.session;
    if ('ended' in message) {
      this.remote.delete(id);
      this.closeLocal(id, message.ended);
      return;
    }
    const { event } = message;
    if (event.event === 'user') this.remote.set(id, { partial: '' });
    else if (event.event === 'turn_end') this.remote.delete(id);
    else {
      const remote = this.remote.get(id);
      if (remote)
        remote.partial = event.event === 'text_delta' ? remote.partial + String(event.data.text) : '';
    }
    this.deliver(id, event);
  }

  /** Ends the session's live part here and on every other replica. */
  private closeLive(id: string, reason: string): void {
    this.closeLocal(id, reason);
    this.deps.relay.publish({ session: id, ended: reason });
  }

  private closeLocal(id: string, reason: string): void {
    const live = this.live.get(id);
    if (!live) return;
    live.abort?.abort();
    this.deliver(id, { event: 'ended', data: { reason } });
    for (const listener of live.listeners) listener.close();
    this.live.delete(id);
  }

  private async runTurn(row: SessionRow, live: LivePart, signal: AbortSignal, lease: Lease): Promise<void> {
    const id = row.id;
    const { locks } = this.deps;
    const keep = setInterval(
      () => void locks.refresh(lease, TURN_LEASE_MS).catch(() => false),
      TURN_LEASE_MS / 3,
    );
    try {
      const client = await this.deps.clientFor(this.agent.subject);
      for (let round = 0; round < MAX_ROUNDS && !signal.aborted; round++) {
        const session = (await this.store.find(id)) ?? row;
        const request = {
          system: await this.agent.systemPrompt(session),
          messages: modelMessages(await this.store.turns(id)),
          tools: this.agent.tools,
          maxTokens: 2048,
        };
        const calls: ToolCall[] = [];
        live.partial = '';
        for await (const event of client.stream(request, { signal })) {
          if (event.type === 'text_delta') {
            live.partial += event.text;
            this.emit(id, { event: 'text_delta', data: { text: event.text } });
          } else if (event.type === 'tool_use') {
            calls.push({ id: event.id, name: event.name, input: event.input });
          }
        }
        if (live.partial) {
          live.saves++;
          live.saving = this.store.append(id, 'text', { text: live.partial });
          try {
            await live.saving;
          } finally {
            live.saving = null;
          }
        }
        live.partial = '';
        if (calls.length === 0) break;
        for (const call of calls) await this.answerTool(session, call);
      }
    } catch (error) {
      if (!signal.aborted) await this.recordError(id, error);
    } finally {
      clearInterval(keep);
      await locks.release(lease).catch(() => false);
      live.partial = '';
      live.busy = false;
      live.abort = null;
      this.emit(id, { event: 'turn_end', data: {} });
    }
  }

  private async answerTool(session: SessionRow, call: ToolCall): Promise<void> {
    const id = session.id;
    await this.record(id, 'tool_use', { id: call.id, name: call.name, input: call.input as never });
    let outcome: ToolOutcome;
    try {
      outcome = await this.agent.useTool(session, call);
    } catch (error) {
      outcome = { result: messageOf(error), isError: true };
    }
    for (const shown of outcome.shown ?? []) await this.record(id, shown.kind, shown.data);
    await this.record(id, 'tool_result', {
      tool_use_id: call.id,
      name: call.name,
      content: outcome.result,
      ...(outcome.isError ? { is_error: true } : {}),
    });
  }

  private async recordError(id: string, error: unknown): Promise<void> {
    const data: Record<string, unknown> = { message: messageOf(error) };
    if (error instanceof AppError) {
      data.code = error.code;
      if (error.remediate) data.remediate = error.remediate;
    }
    if (error && typeof error === 'object' && 'kind' in error) data.kind = String(error.kind);
    try {
      await this.record(id, 'error', data);
    } catch {
      this.emit(id, { event: 'error', data });
    }
  }
}
