/**
 * Git smart HTTP for the fake forge: `/git/<owner>/<repo>.git/...` is handed to the real
 * `git http-backend` (spawned directly with a CGI environment, no shell) for a served bare
 * repository, once the request carries the forge token (Basic with the token as password or
 * user, or Bearer). Anything else is 401 with a Basic challenge, or 404 for an unknown repository.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerWithHttpBackend } from '../../../src/platform/git/test-support.js';
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
  answerWithHttpBackend(req, res, {
    root: bare,
    pathInfo: rest,
    query: url.search,
    remoteUser: 'fake-forge-user',
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
