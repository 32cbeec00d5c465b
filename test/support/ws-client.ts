/** A WebSocket test client (the real `ws` package) for the live streams: open, read frames, see refusals. */
import WebSocket from 'ws';
import type { TestApp } from './app.js';

export async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `ws://127.0.0.1:${address.port}`;
}

export interface StreamClient {
  ws: WebSocket;
  /** The next frame (parsed JSON, or the raw text when it is not JSON). */
  next(timeoutMs?: number): Promise<unknown>;
  /** Frames received and not yet taken by next(). */
  received: unknown[];
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export type Outcome = { kind: 'open'; client: StreamClient } | { kind: 'refused'; status: number };

/** `headers` go with the upgrade request (a browser's Cookie, say). */
export function openStream(
  url: string,
  protocols?: string[],
  headers?: Record<string, string>,
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, protocols, { headers });
    const received: unknown[] = [];
    const waiters: ((frame: unknown) => void)[] = [];
    ws.on('message', (data, isBinary) => {
      const text = data.toString();
      let frame: unknown = text;
      try {
        frame = JSON.parse(text);
      } catch {}
      // A browser hands a binary frame to the panel as a Blob, not text: every frame must be text.
      if (isBinary) frame = { binary_frame: frame };
      const waiter = waiters.shift();
      if (waiter) waiter(frame);
      else received.push(frame);
    });
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      ws.on('close', (code, reason) => done({ code, reason: reason.toString() })),
    );
    ws.on('unexpected-response', (_request, response) => {
      resolve({ kind: 'refused', status: response.statusCode ?? 0 });
      response.resume();
      ws.terminate();
    });
    ws.on('error', (error) => reject(error));
    ws.on('open', () =>
      resolve({
        kind: 'open',
        client: {
          ws,
          received,
          closed,
          close: () => ws.close(),
          next(timeoutMs = 2000) {
            if (received.length) return Promise.resolve(received.shift());
            return new Promise((done, fail) => {
              const timer = setTimeout(() => {
                waiters.splice(waiters.indexOf(waiter), 1);
                fail(new Error('no frame in time'));
              }, timeoutMs);
              const waiter = (frame: unknown) => {
                clearTimeout(timer);
                done(frame);
              };
              waiters.push(waiter);
            });
          },
        },
      }),
    );
  });
}

/** Opens a stream that must be accepted, and takes its `connected` frame. */
export async function connect(
  url: string,
  protocols?: string[],
  headers?: Record<string, string>,
): Promise<{ client: StreamClient; connected: unknown }> {
  const outcome = await openStream(url, protocols, headers);
  if (outcome.kind !== 'open') throw new Error(`refused with HTTP ${outcome.status}`);
  return { client: outcome.client, connected: await outcome.client.next() };
}

/** Waits `ms` milliseconds. */
export const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Frames that arrive within `ms`, after the ones already taken. */
export async function framesWithin(client: StreamClient, ms: number): Promise<unknown[]> {
  await pause(ms);
  return client.received.splice(0);
}
