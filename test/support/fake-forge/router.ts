/**
 * One API request through the fake forge: logged, delayed by the configured latency, met by a
 * scripted failure if one matches, refused without the token, then routed to the GitHub
 * (`/api/v3`) or Gitea (`/api/v1`) handlers. Replies are JSON.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { carriesToken } from './git-http.js';
import { giteaNotFound, giteaRoutes } from './gitea.js';
import { githubRoutes, notFound } from './github.js';
import { type ApiRequest, findRoute, json, type Reply, type Route } from './http.js';
import { giteaRepoRoutes, githubRepoRoutes } from './repos.js';
import type { FakeForgeState, ScriptedFailure } from './state.js';

export interface RouterOptions {
  state: FakeForgeState;
  token: string;
  webUrl: string;
  latencyMs: () => number;
  /** Waits `ms` (cut short when the fake closes). */
  sleep: (ms: number) => Promise<void>;
}

const APIS: { prefix: string; flavor: 'github' | 'gitea'; routes: Route[] }[] = [
  { prefix: '/api/v3/', flavor: 'github', routes: [...githubRoutes, ...githubRepoRoutes] },
  { prefix: '/api/v1/', flavor: 'gitea', routes: [...giteaRoutes, ...giteaRepoRoutes] },
];

export async function handleApiRequest(
  options: RouterOptions,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = req.method ?? 'GET';
  const path = safeDecode(url.pathname);
  const query = Object.fromEntries(url.searchParams);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (name !== 'authorization' && value !== undefined) headers[name] = String(value);
  }
  const authorized = carriesToken(req.headers.authorization, options.token);
  options.state.requests.push({ method, path, query, at: Date.now(), headers, authorized });
  const raw = await readBody(req);

  const api = APIS.find((candidate) => url.pathname.startsWith(candidate.prefix));
  const latency = options.latencyMs();
  if (latency > 0) await options.sleep(latency);

  const apiUrl = `${options.webUrl}${api ? api.prefix.slice(0, -1) : ''}`;
  const request: ApiRequest = {
    method,
    segments: url.pathname
      .slice(api?.prefix.length ?? 1)
      .split('/')
      .filter(Boolean)
      .map(safeDecode),
    query,
    body: parseBody(raw),
    state: options.state,
    webUrl: options.webUrl,
    apiUrl,
  };
  send(res, answer(options, api, request, path, authorized));
}

function answer(
  options: RouterOptions,
  api: (typeof APIS)[number] | undefined,
  request: ApiRequest,
  path: string,
  authorized: boolean,
): Reply {
  const failure = options.state.takeFailure(path);
  if (failure) return scriptedFailure(failure, api?.flavor ?? 'github');
  if (!api) return notFound();
  if (!authorized) {
    return api.flavor === 'github'
      ? json(401, {
          message: 'Bad credentials',
          documentation_url: 'https://docs.github.com/rest',
          status: '401',
        })
      : json(401, { message: 'token is required', url: `${options.webUrl}/api/swagger` });
  }
  const found = findRoute(api.routes, request.method, request.segments);
  if (!found) return api.flavor === 'github' ? notFound() : giteaNotFound(request);
  return found.route.handler(request, found.params);
}

function scriptedFailure(failure: ScriptedFailure, flavor: 'github' | 'gitea'): Reply {
  const seconds = failure.retryAfterSeconds;
  switch (failure.status) {
    case 429:
      return json(
        429,
        { message: 'API rate limit exceeded', documentation_url: 'https://docs.github.com/rest' },
        seconds !== undefined ? { 'retry-after': String(seconds) } : undefined,
      );
    case 403:
      return json(
        403,
        {
          message: 'API rate limit exceeded for user ID 1.',
          documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
        },
        {
          'x-ratelimit-limit': '5000',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-used': '5000',
          'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + (seconds ?? 1)),
        },
      );
    case 404:
      return flavor === 'github'
        ? notFound()
        : json(404, { errors: [], message: "The target couldn't be found." });
    default: {
      const messages: Record<number, string> = {
        500: 'Server Error',
        502: 'Bad Gateway',
        503: 'Service Unavailable',
      };
      return json(
        failure.status,
        { message: messages[failure.status] ?? 'Error' },
        seconds !== undefined ? { 'retry-after': String(seconds) } : undefined,
      );
    }
  }
}

function send(res: ServerResponse, reply: Reply): void {
  if (res.destroyed || res.writableEnded) return;
  const headers: Record<string, string> = { ...reply.headers };
  if (reply.body === undefined) {
    res.writeHead(reply.status, { ...headers, 'content-length': '0' }).end();
    return;
  }
  const payload = JSON.stringify(reply.body);
  res
    .writeHead(reply.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(payload)),
      ...headers,
    })
    .end(payload);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(raw: string): Record<string, unknown> {
  if (!raw.trim()) return {};
  try {
    const parsed = JSON.parse(raw) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
