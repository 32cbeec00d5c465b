/**
 * The gateway door of one sandboxed run: the only way from the run's network to Gaffer. It listens
 * on a unix socket bound into the sandbox (the relay inside serves it as `GAFFER_GATEWAY_URL`) and
 * forwards the agent gateway — paths under `/api/v1/` — to the server, as the run's own agent: the
 * identity headers and token are the door's, whatever the request carried (so the token need not
 * be inside the sandbox at all). Anything else — the panel, `/api/*`, `/ws/*`, `/metrics`,
 * `/_guard/status`, `/docs` — is a 404 that never reaches the server, and no request header but
 * the few a JSON call needs passes (no cookie, no upgrade, no forwarding headers).
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type Door, doorOf } from './door-server.js';

/** The only paths a run may call. */
export const GATEWAY_PREFIX = '/api/v1/';

export interface GatewayDoorOptions {
  /** Where the server's gateway is (the run's GAFFER_GATEWAY_URL outside the sandbox). */
  gatewayUrl: string;
  /** The run's identity: `x-agent-id`, `x-agent-role`, `x-agent-team`, `x-agent-token`. */
  identity: Readonly<Record<string, string>>;
}

/** Request headers passed on; the identity replaces any of its own a request carried. */
const PASSED = new Set(['content-type', 'content-length', 'accept', 'x-correlation-id', 'user-agent']);

function notFound(response: ServerResponse, path: string): void {
  response.writeHead(404, { 'content-type': 'application/json' }).end(
    `${JSON.stringify({
      error: {
        code: 'not_found',
        message: `${path} is not reachable from an agent run: only the agent gateway (${GATEWAY_PREFIX}…) is`,
      },
    })}\n`,
  );
}

/** The path a request names once resolved (`/api/v1/../metrics` is `/metrics`), with its query. */
function resolvedPath(raw: string | undefined): { path: string; pathAndQuery: string } | null {
  if (!raw?.startsWith('/')) return null;
  try {
    const url = new URL(raw, 'http://door.invalid');
    return { path: url.pathname, pathAndQuery: `${url.pathname}${url.search}` };
  } catch {
    return null;
  }
}

export function createGatewayDoor(options: GatewayDoorOptions): Door {
  const base = new URL(options.gatewayUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest;

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const target = resolvedPath(request.url);
    if (!target?.path.startsWith(GATEWAY_PREFIX)) {
      request.resume();
      notFound(response, target?.path ?? String(request.url));
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined && PASSED.has(name)) headers[name] = value;
    }
    Object.assign(headers, options.identity);
    const upstream = send(
      {
        protocol: base.protocol,
        hostname: base.hostname.replace(/^\[|\]$/g, ''),
        port: base.port || undefined,
        method: request.method,
        path: `${basePath}${target.pathAndQuery}`,
        headers,
      },
      (answer) => {
        const kept: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && name !== 'connection' && name !== 'transfer-encoding')
            kept[name] = value;
        }
        response.writeHead(answer.statusCode ?? 502, kept);
        answer.pipe(response);
      },
    );
    upstream.once('error', (error: NodeJS.ErrnoException) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'application/json' });
      response.end(
        `${JSON.stringify({ error: { code: 'gateway_unreachable', message: `the Gaffer gateway could not be reached: ${error.code ?? error.message}` } })}\n`,
      );
    });
    request.pipe(upstream);
  });
  // A gateway verb may take minutes: the server's own wall clock bounds it, not the door.
  const { close } = doorOf(server);
  return { server, close };
}
