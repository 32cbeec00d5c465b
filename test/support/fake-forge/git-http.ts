/**
 * Git smart HTTP for the fake forge: `/git/<owner>/<repo>.git/...` is handed to the real
 * `git http-backend` (spawned directly with a CGI environment, no shell) for a served bare
 * repository, once the request carries the forge token (Basic with the token as password or
 * user, or Bearer). Anything else is 401 with a Basic challenge, or 404 for an unknown repository.
 */
import { spawn } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeForgeState } from './state.js';

const GIT_PATH = /^\/git\/([^/]+)\/([^/]+?)\.git(\/.*)?$/;

/** True when the request was a git request (answered here), false when it is not ours. */
export function serveGitRequest(
  state: FakeForgeState,
  token: string,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const match = GIT_PATH.exec(url.pathname);
  if (!match) return false;
  const [, owner, repo, rest = '/'] = match;
  const bare = state.servedPath(decodeURIComponent(owner!), decodeURIComponent(repo!));
  if (!bare) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Repository not found\n');
    return true;
  }
  if (!carriesToken(req.headers.authorization, token)) {
    req.resume();
    res
      .writeHead(401, { 'www-authenticate': 'Basic realm="fake-forge"', 'content-type': 'text/plain' })
      .end('Authentication failed\n');
    return true;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const input = Buffer.concat(chunks);
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: bare,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_PROJECT_ROOT: bare,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: rest,
        QUERY_STRING: url.search.replace(/^\?/, ''),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        CONTENT_LENGTH: String(input.length),
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_USER: 'fake-forge-user',
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    const out: Buffer[] = [];
    cgi.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    cgi.stderr.resume();
    cgi.stdin.on('error', () => {});
    cgi.stdin.end(input);
    cgi.on('error', () => res.writeHead(500).end());
    cgi.on('close', () => writeCgiResponse(Buffer.concat(out), res));
  });
  return true;
}

/** Basic auth whose password (or user) is the token, or `Bearer <token>` / `token <token>`. */
export function carriesToken(authorization: string | undefined, token: string): boolean {
  if (!authorization) return false;
  const [scheme = '', value = ''] = authorization.trim().split(/\s+/, 2);
  const kind = scheme.toLowerCase();
  if (kind === 'bearer' || kind === 'token') return value === token;
  if (kind !== 'basic') return false;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const user = colon < 0 ? decoded : decoded.slice(0, colon);
  const password = colon < 0 ? '' : decoded.slice(colon + 1);
  return password === token || (user === token && (password === '' || password === 'x-oauth-basic'));
}

function writeCgiResponse(raw: Buffer, res: ServerResponse): void {
  let split = raw.indexOf('\r\n\r\n');
  let gap = 4;
  if (split < 0) {
    split = raw.indexOf('\n\n');
    gap = 2;
  }
  const head = split < 0 ? '' : raw.subarray(0, split).toString('utf8');
  const headers: Record<string, string> = {};
  let status = 200;
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200;
    else headers[name] = value;
  }
  res.writeHead(status, headers).end(split < 0 ? raw : raw.subarray(split + gap));
}
