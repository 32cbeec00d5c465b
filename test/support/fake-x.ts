/**
 * A fake X API v2 on loopback: `POST /2/tweets {text}` with `Authorization: Bearer <token>` answers
 * 201 `{data:{id,text}}` and records the post. Errors in X's problem format: 401 for a wrong token,
 * and scriptable 403 (`mode = 'forbidden'`, e.g. a duplicate) and 429 (`mode = 'rate_limited'`, with
 * x-rate-limit-reset).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_X_TOKEN = 'x-user-bearer-token-never-shown';

export interface FakeX {
  readonly url: string;
  readonly posts: { id: string; text: string }[];
  mode: 'ok' | 'forbidden' | 'rate_limited';
  close(): Promise<void>;
}

export async function startFakeX(): Promise<FakeX> {
  const posts: { id: string; text: string }[] = [];
  const state = { mode: 'ok' as FakeX['mode'] };
  let next = 1_800_000_000_000_000_000n;

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/2/tweets') {
      return send(res, 404, {
        title: 'Not Found Error',
        detail: 'no such endpoint',
        type: 'about:blank',
        status: 404,
      });
    }
    if (req.headers.authorization !== `Bearer ${FAKE_X_TOKEN}`) {
      return send(res, 401, {
        title: 'Unauthorized',
        type: 'about:blank',
        status: 401,
        detail: 'Unauthorized',
      });
    }
    if (state.mode === 'forbidden') {
      return send(res, 403, {
        title: 'Forbidden',
        type: 'about:blank',
        status: 403,
        detail: 'You are not allowed to create a Tweet with duplicate content.',
      });
    }
    if (state.mode === 'rate_limited') {
      return send(
        res,
        429,
        { title: 'Too Many Requests', type: 'about:blank', status: 429, detail: 'Too Many Requests' },
        {
          'x-rate-limit-reset': '1893456000',
        },
      );
    }
    const { text } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text: string };
    const id = String(next++);
    posts.push({ id, text });
    send(res, 201, { data: { id, text, edit_history_tweet_ids: [id] } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    posts,
    get mode() {
      return state.mode;
    },
    set mode(value) {
      state.mode = value;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
