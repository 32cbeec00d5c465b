/**
 * A fake web-search API on loopback speaking the three real wires, each checking its own auth:
 * Tavily `POST /search` (Bearer key; `{query, answer, results[{title,url,content,score}]}`), Brave
 * `GET /res/v1/web/search?q&count` (X-Subscription-Token; `{web:{results[{title,url,description}]}}`)
 * and Exa `POST /search` (x-api-key; `{results[{title,url,score,text}]}`). Tavily and Exa share the
 * path and are told apart by their auth header. It also serves pages for fetch tests: `/page/big`
 * (an HTML page of `bigPageBytes`), `/page/small`, `/page/to-private` (a redirect to 10.0.0.1).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_SEARCH_KEY = 'search-key-never-shown';

export interface SearchCall {
  wire: 'tavily' | 'brave' | 'exa';
  query: string;
  count: number;
}

export interface FakeSearch {
  readonly url: string;
  readonly calls: SearchCall[];
  /** How many results the fake has for any query (it returns at most the count asked). */
  available: number;
  /** Answer every search with this HTTP status instead (e.g. 500). */
  failWith: number | null;
  bigPageBytes: number;
  close(): Promise<void>;
}

const hit = (i: number, query: string) => ({
  title: `Result ${i + 1} for ${query}`,
  url: `https://example.com/${i + 1}`,
  text: `Snippet ${i + 1} about ${query}.`,
  score: Number((0.9 - i * 0.05).toFixed(2)),
});

export async function startFakeSearch(): Promise<FakeSearch> {
  const calls: SearchCall[] = [];
  const state = { available: 12, failWith: null as number | null, bigPageBytes: 300_000 };

  const send = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    res.writeHead(status, { 'content-type': type });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname === '/page/small') {
      return send(
        res,
        200,
        '<html><head><style>p{}</style><script>x()</script></head><body><h1>Hello &amp; welcome</h1><p>Small page.</p></body></html>',
        'text/html; charset=utf-8',
      );
    }
    if (url.pathname === '/page/big') {
      const paragraph = '<p>lorem ipsum dolor sit amet</p>';
      return send(
        res,
        200,
        `<html><body>${paragraph.repeat(Math.ceil(state.bigPageBytes / paragraph.length))}</body></html>`,
        'text/html',
      );
    }
    if (url.pathname === '/page/to-private') {
      res.writeHead(302, { location: 'http://10.0.0.1/secret' });
      return res.end();
    }
    if (state.failWith) return send(res, state.failWith, { error: 'upstream failure' });

    if (req.method === 'GET' && url.pathname === '/res/v1/web/search') {
      if (req.headers['x-subscription-token'] !== FAKE_SEARCH_KEY)
        return send(res, 401, { type: 'ErrorResponse' });
      const query = url.searchParams.get('q') ?? '';
      const count = Number(url.searchParams.get('count') ?? 20);
      calls.push({ wire: 'brave', query, count });
      const results = Array.from({ length: Math.min(count, state.available) }, (_, i) => hit(i, query));
      return send(res, 200, {
        type: 'search',
        query: { original: query },
        web: {
          type: 'search',
          results: results.map((r) => ({ title: r.title, url: r.url, description: r.text })),
        },
      });
    }
    if (req.method === 'POST' && url.pathname === '/search') {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      const query = String(body.query ?? '');
      if (req.headers.authorization !== undefined) {
        if (req.headers.authorization !== `Bearer ${FAKE_SEARCH_KEY}`)
          return send(res, 401, { detail: { error: 'Unauthorized' } });
        const count = Number(body.max_results ?? 5);
        calls.push({ wire: 'tavily', query, count });
        const results = Array.from({ length: Math.min(count, state.available) }, (_, i) => hit(i, query));
        return send(res, 200, {
          query,
          answer: body.include_answer ? `An answer about ${query}.` : null,
          images: [],
          results: results.map((r) => ({
            title: r.title,
            url: r.url,
            content: r.text,
            score: r.score,
            raw_content: null,
          })),
          response_time: 0.1,
        });
      }
      if (req.headers['x-api-key'] !== FAKE_SEARCH_KEY) return send(res, 401, { error: 'Unauthorized' });
      const count = Number(body.numResults ?? 10);
      calls.push({ wire: 'exa', query, count });
      const results = Array.from({ length: Math.min(count, state.available) }, (_, i) => hit(i, query));
      return send(res, 200, {
        requestId: 'req-1',
        resolvedSearchType: 'neural',
        results: results.map((r, i) => ({
          id: r.url,
          title: r.title,
          url: r.url,
          score: r.score,
          text: r.text,
          publishedDate: null,
          author: null,
          rank: i,
        })),
      });
    }
    send(res, 404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    get available() {
      return state.available;
    },
    set available(value) {
      state.available = value;
    },
    get failWith() {
      return state.failWith;
    },
    set failWith(value) {
      state.failWith = value;
    },
    get bigPageBytes() {
      return state.bigPageBytes;
    },
    set bigPageBytes(value) {
      state.bigPageBytes = value;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
