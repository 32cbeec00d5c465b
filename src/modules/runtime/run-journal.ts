/**
 * One run's record keeper. Publishes its events on the bus strictly in order — AGENT_SPAWNED
 * first, then every AGENT_OUTPUT chunk, then AGENT_STOPPED or AGENT_ERROR — and stores the
 * output as transcript chunks (batched inserts, numbered from 1), up to a byte cap per run: past
 * the cap output is still streamed live but no longer kept, and the transcript says so.
 */
import type { EventBus } from '../../platform/bus/index.js';
import type { Clock } from '../../platform/clock.js';
import type { OutputStream } from './contract.js';
import type { AgentLifecycle } from './events.js';
import type { TranscriptChunk, TranscriptStore, TranscriptStream } from './transcript-store.js';

export type LifecycleEvent =
  | 'AGENT_SPAWNED'
  | 'AGENT_STOPPED'
  | 'AGENT_ERROR'
  | 'AGENT_WAITING'
  | 'AGENT_RESUMED';

export interface RunJournalDeps {
  bus: EventBus;
  store: TranscriptStore;
  clock: Clock;
  /** Most UTF-8 bytes of output kept per run. */
  maxTranscriptBytes: number;
  /** Where failures to publish or store go (they never stop the run). */
  onError(error: unknown, what: string): void;
}

export interface RunKey {
  runId: string;
  agentId: string;
  taskId: string | null;
}

export class RunJournal {
  private seq = 0;
  private keptBytes = 0;
  private droppedBytes = 0;
  private truncated = false;
  private rows: TranscriptChunk[] = [];
  private flushing: Promise<void> | null = null;
  private releaseGate: () => void = () => {};
  private events: Promise<void>;

  constructor(
    private readonly deps: RunJournalDeps,
    readonly run: RunKey,
  ) {
    // Nothing is published before the first lifecycle event opens the journal.
    this.events = new Promise((release) => {
      this.releaseGate = release;
    });
  }

  /** Publishes the run's first lifecycle event, then lets the output queued meanwhile follow. */
  open(type: LifecycleEvent, detail: string | null): void {
    this.publishNow(type, detail).finally(() => this.releaseGate());
  }

  /** A lifecycle event, after everything published before it. */
  lifecycle(type: LifecycleEvent, detail: string | null): void {
    this.enqueue(() => this.publishNow(type, detail));
  }

  /** A chunk of the agent's output: streamed live, kept while the transcript is under its cap. */
  output(stream: OutputStream, text: string): void {
    if (!text) return;
    const bytes = Buffer.byteLength(text);
    let seq: number | null = null;
    // Once one chunk did not fit, nothing after it is kept either: the transcript has no gaps.
    if (!this.truncated && this.keptBytes + bytes <= this.deps.maxTranscriptBytes) {
      this.keptBytes += bytes;
      seq = this.keep(stream, text);
    } else {
      this.droppedBytes += bytes;
      if (!this.truncated) {
        this.truncated = true;
        this.note(
          `[transcript truncated: it reached ${this.deps.maxTranscriptBytes} bytes; ` +
            'later output was streamed live but not kept]',
        );
      }
    }
    const { agentId, taskId, runId } = this.run;
    // run_id and seq let a viewer join the live stream to the stored transcript.
    const data = { agent_id: agentId, task_id: taskId, stream, text, run_id: runId, seq };
    this.enqueue(() => this.deps.bus.publish('AGENT_OUTPUT', data));
  }

  /** A line of the runtime's own in the transcript (not counted against the cap, not streamed). */
  note(text: string): void {
    this.keep('system', text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Waits until everything so far is published and stored. */
  async settle(): Promise<void> {
    await this.events;
    while (this.flushing || this.rows.length > 0) await (this.flushing ?? this.flush());
  }

  stats(): { transcriptBytes: number; droppedBytes: number; truncated: boolean } {
    return { transcriptBytes: this.keptBytes, droppedBytes: this.droppedBytes, truncated: this.truncated };
  }

  private keep(stream: TranscriptStream, text: string): number {
    this.seq += 1;
    const { runId, agentId, taskId } = this.run;
    this.rows.push({ runId, seq: this.seq, agentId, taskId, stream, text, at: this.deps.clock.now() });
    if (!this.flushing) void this.flush();
    return this.seq;
  }

  /** Stores the waiting rows, batch after batch, until none is left. */
  private flush(): Promise<void> {
    this.flushing = (async () => {
      while (this.rows.length > 0) {
        const batch = this.rows.splice(0);
        try {
          await this.deps.store.appendChunks(batch);
        } catch (error) {
          this.deps.onError(error, 'storing transcript chunks');
        }
      }
    })().finally(() => {
      this.flushing = null;
      // A row kept while the last batch was being written must not wait for the next one.
      if (this.rows.length > 0) void this.flush();
    });
    return this.flushing;
  }

  private enqueue(publish: () => Promise<unknown>): void {
    this.events = this.events.then(publish).then(
      () => undefined,
      (error) => this.deps.onError(error, 'publishing an agent event'),
    );
  }

  private async publishNow(type: LifecycleEvent, detail: string | null): Promise<void> {
    const { agentId, taskId, runId } = this.run;
    // run_id rides along so a viewer can open the run's transcript.
    const payload: AgentLifecycle = { agent_id: agentId, task_id: taskId, detail, ...{ run_id: runId } };
    try {
      await this.deps.bus.publish(type, payload);
    } catch (error) {
      this.deps.onError(error, `publishing ${type}`);
    }
  }
}
