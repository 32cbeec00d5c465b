/**
 * A server-sent-events client for tests: reads a real text/event-stream response over HTTP and
 * parses its frames (`id`, `event`, `data` as JSON), so a test can wait for the event it expects.
 */
export interface SseEvent {
  id?: string;
  event: string;
  data: Record<string, unknown>;
}

export interface SseClient {
  status: number;
  contentType: string | null;
  /** Every event received so far, in order. */
  events: SseEvent[];
  /** The first event (from `from` on) matching, waiting for it up to `timeoutMs`. */
  waitFor(match: (e: SseEvent) => boolean, timeoutMs?: number, from?: number): Promise<SseEvent>;
  /** Settles when the server closes the stream. */
  closed: Promise<void>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string>): Promise<SseClient> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { ...headers, accept: 'text/event-stream' },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  let wake: () => void = () => undefined;
  const client: SseClient = {
    status: response.status,
    contentType: response.headers.get('content-type'),
    events,
    async waitFor(match, timeoutMs = 5000, from = 0) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.slice(from).find(match);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(
            `no matching event within ${timeoutMs} ms; got ${events.map((e) => e.event).join(', ')}`,
          );
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
    closed: Promise.resolve(),
    close: () => abort.abort(),
  };
  if (!response.body) return client;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  client.closed = (async () => {
    let buffer = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const parsed = parseFrame(frame);
          if (parsed) {
            events.push(parsed);
            wake();
          }
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted by close()
    }
    wake();
  })();
  return client;
}

function parseFrame(frame: string): SseEvent | null {
  let event = 'message';
  let id: string | undefined;
  const data: string[] = [];
  for (const line of frame.split('\n')) {
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'id') id = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  return { event, data: JSON.parse(data.join('\n')) as Record<string, unknown>, ...(id ? { id } : {}) };
}
