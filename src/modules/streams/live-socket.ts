/**
 * One accepted WebSocket: its idle timer, its ping/pong, and its bounded send queue. Sending never
 * waits: a frame the socket cannot take (more than `queueLimit` frames still unwritten) drops the
 * socket instead, so one slow reader cannot hold up a broadcast.
 */
import type { WebSocket } from 'ws';

/** Close codes the streams use. */
export const CLOSE = { normal: 1000, goingAway: 1001, tryAgainLater: 1013 } as const;

/** How long a dropped socket gets to finish its close handshake before it is cut. */
const CLOSE_GRACE_MS = 1000;

/** Frames are text frames, whether handed over as a string or as its UTF-8 bytes. */
const TEXT_FRAME = { binary: false } as const;

export interface LiveSocketOptions {
  idleTimeoutMs: number;
  queueLimit: number;
  /** Called once, whenever and however the socket ends. */
  onGone(socket: LiveSocket): void;
}

export class LiveSocket {
  private pending = 0;
  private gone = false;
  private readonly idleTimer: NodeJS.Timeout;
  /** A queued frame is written out: one callback per socket, not a closure per frame. */
  private readonly written = (): void => {
    this.pending -= 1;
  };

  constructor(
    readonly ws: WebSocket,
    private readonly options: LiveSocketOptions,
  ) {
    this.idleTimer = setTimeout(() => this.drop(CLOSE.goingAway, 'idle timeout'), options.idleTimeoutMs);
    this.idleTimer.unref();
    ws.on('message', (data, isBinary) => this.receive(isBinary ? null : data.toString()));
    ws.on('close', () => this.end());
    ws.on('error', () => this.end());
  }

  /** Frames handed to the socket and not yet written out. */
  get queued(): number {
    return this.pending;
  }

  get open(): boolean {
    return !this.gone;
  }

  /**
   * Queues one serialized frame (its text, or the text's UTF-8 bytes: a broadcast encodes once for
   * all its sockets); a socket over its queue limit is dropped (1013) instead.
   */
  send(frame: string | Buffer): void {
    if (this.gone) return;
    if (this.pending >= this.options.queueLimit) {
      this.drop(CLOSE.tryAgainLater, 'send queue full');
      return;
    }
    this.pending += 1;
    this.ws.send(frame, TEXT_FRAME, this.written);
  }

  /** Closes with `code` and stops delivering to it at once; cut if the close does not complete. */
  drop(code: number, reason: string): void {
    if (this.gone) return;
    this.end();
    this.ws.close(code, reason);
    setTimeout(() => this.ws.terminate(), CLOSE_GRACE_MS).unref();
  }

  private receive(text: string | null): void {
    this.idleTimer.refresh();
    if (text === null) return;
    if (text === 'ping') this.send('pong');
    else if (isJsonPing(text)) this.send('{"type":"pong"}');
  }

  private end(): void {
    if (this.gone) return;
    this.gone = true;
    clearTimeout(this.idleTimer);
    this.options.onGone(this);
  }
}

function isJsonPing(text: string): boolean {
  if (!text.includes('ping')) return false;
  try {
    const message = JSON.parse(text) as unknown;
    return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'ping';
  } catch {
    return false;
  }
}
