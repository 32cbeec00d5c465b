/**
 * One WebSocket that stays connected: it reconnects with capped exponential backoff, pings so the
 * server's idle timeout never closes it, parses frames (`{type, ...data}`) and fans them out to
 * listeners by type, and reports its connection state. Sockets are shared: `sharedSocket(path)`
 * hands every consumer of the same path the same socket, opened on first use and closed when the
 * last consumer lets go.
 */
import { type ConnectionState, connectionState, reconnectDelay } from './backoff';

export type Frame = { type: string } & Record<string, unknown>;
type FrameListener = (frame: Frame) => void;

const PING_EVERY_MS = 30_000;

export class LiveSocket {
  private ws: WebSocket | null = null;
  private open = false;
  private failures = 0;
  private closed = false;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private readonly frameListeners = new Set<FrameListener>();
  private readonly stateListeners = new Set<() => void>();
  /** Called after the socket comes back from a drop: events may have been missed meanwhile. */
  onReconnect: (() => void) | undefined;

  constructor(private readonly path: string) {}

  get state(): ConnectionState {
    return connectionState(this.open, this.failures);
  }

  start(): void {
    this.closed = false;
    if (!this.ws) this.connect();
  }

  stop(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    this.ws?.close(1000, 'done');
    this.ws = null;
  }

  onFrame(listener: FrameListener): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  onState(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  private connect(): void {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}${this.path}`);
    this.ws = ws;
    let wasOpen = false;
    ws.onopen = () => {
      wasOpen = true;
      const recovered = this.failures > 0 || this.everOpened;
      this.everOpened = true;
      this.open = true;
      this.failures = 0;
      this.emitState();
      this.pingTimer = setInterval(() => ws.send('{"type":"ping"}'), PING_EVERY_MS);
      if (recovered) this.onReconnect?.();
    };
    ws.onmessage = (message) => {
      const frame = parseFrame(message.data);
      if (frame) for (const listener of this.frameListeners) listener(frame);
    };
    ws.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      this.open = false;
      if (!wasOpen) this.failures += 1;
      this.emitState();
      if (this.closed) return;
      this.retryTimer = setTimeout(() => this.connect(), reconnectDelay(this.failures));
    };
  }

  private everOpened = false;

  private emitState(): void {
    for (const listener of this.stateListeners) listener();
  }
}

function parseFrame(data: unknown): Frame | null {
  if (typeof data !== 'string') return null;
  try {
    const value: unknown = JSON.parse(data);
    if (typeof value === 'object' && value !== null && typeof (value as Frame).type === 'string')
      return value as Frame;
  } catch {
    // Not JSON (a bare "pong"): nothing to deliver.
  }
  return null;
}

const shared = new Map<string, { socket: LiveSocket; users: number }>();

/** The socket for `path`, shared by every consumer; call the returned release when done. */
export function sharedSocket(path: string): { socket: LiveSocket; release: () => void } {
  let entry = shared.get(path);
  if (!entry) {
    entry = { socket: new LiveSocket(path), users: 0 };
    shared.set(path, entry);
  }
  entry.users += 1;
  entry.socket.start();
  const held = entry;
  let released = false;
  return {
    socket: held.socket,
    release: () => {
      if (released) return;
      released = true;
      held.users -= 1;
      if (held.users === 0) {
        held.socket.stop();
        shared.delete(path);
      }
    },
  };
}
