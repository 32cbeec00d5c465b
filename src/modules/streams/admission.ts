/**
 * Who may open a stream, decided before the upgrade is accepted (a refused upgrade is an HTTP 4xx
 * response, so the client never sees an open socket). Agents named in the path or the query must
 * exist (UUID or slug); a token, from the `token` query parameter or the Sec-WebSocket-Protocol
 * header, must verify whenever it is presented, and `wsRequireToken` makes one mandatory — or a
 * signed-in panel session instead (the browser sends its cookie with the upgrade; it cannot set a
 * header, and the panel keeps no token in the page).
 */
import type { FastifyRequest } from 'fastify';
import type { Platform } from '../../platform/context.js';
import { sessionCookie } from '../../platform/http/auth/authenticate.js';
import { CEO_IDENTITY } from '../../platform/http/auth/identity.js';
import { findSession } from '../../platform/http/auth/sessions.js';
import { verifyToken } from '../../platform/http/auth/tokens.js';
import { AppError } from '../../platform/http/errors.js';
import type { Agent, AgentsModule } from '../agents/index.js';

/** A subprotocol clients may offer beside the token so the server has a harmless one to echo. */
export const STREAMS_SUBPROTOCOL = 'gaffer';

/** The token offered with the upgrade, if any: query `token` first, else a subprotocol value. */
function presentedToken(request: FastifyRequest, queryToken: string | undefined): string | undefined {
  if (queryToken) return queryToken;
  const header = request.headers['sec-websocket-protocol'];
  if (typeof header !== 'string') return undefined;
  return header
    .split(',')
    .map((value) => value.trim())
    .find((value) => value !== '' && value !== STREAMS_SUBPROTOCOL);
}

/**
 * Admits the caller of an upgrade: the token presented (query `token` or subprotocol) must verify;
 * without one, a server requiring tokens takes a live panel session, whose identity must be the
 * viewer's or the CEO's, as a token's would. Any failure is a 401 before accept.
 */
export async function admitCaller(
  platform: Platform,
  request: FastifyRequest,
  queryToken: string | undefined,
  viewer: Agent | null,
): Promise<void> {
  const token = presentedToken(request, queryToken);
  if (token) return checkToken(platform, token, viewer);
  if (!platform.config.wsRequireToken) return;
  const cookie = sessionCookie(request);
  const session = cookie ? await findSession(platform.database.db, cookie, platform.clock.now()) : null;
  if (!session)
    throw new AppError(
      401,
      'missing_token',
      'this server requires a token on WebSockets (query `token`) or a signed-in panel session',
    );
  if (viewer && ![viewer.id, CEO_IDENTITY.id].includes(session.id))
    throw new AppError(401, 'token_mismatch', "the panel session is not the viewing agent's (nor the CEO's)");
}

/**
 * Checks a presented token. A static one is checked as the viewer's (UUID, role, team), or else as the
 * CEO's bare token, as on REST; an expiring one names its own subject, which on an agent stream must
 * be the viewer or the CEO. Any failure is a 401 before accept.
 */
function checkToken(platform: Platform, token: string, viewer: Agent | null): void {
  const now = platform.clock.now();
  const subjects = [
    ...(viewer ? [{ id: viewer.id, role: viewer.role, team: viewer.team ?? '' }] : []),
    CEO_IDENTITY,
  ];
  if (token.includes('.')) {
    const verdict = verifyToken(platform.secret, token, {}, now);
    if (!verdict.ok && verdict.reason === 'expired')
      throw new AppError(401, 'token_expired', 'the token has expired');
    if (!verdict.ok) throw new AppError(401, 'invalid_token', 'the token does not verify');
    if (viewer && ![viewer.id, viewer.slug, CEO_IDENTITY.id].includes(verdict.subject.id))
      throw new AppError(401, 'token_mismatch', "the token is not the viewing agent's (nor the CEO's)");
    return;
  }
  for (const subject of subjects) {
    if (verifyToken(platform.secret, token, subject, now).ok) return;
  }
  throw new AppError(401, 'invalid_token', 'the token does not verify');
}

/**
 * The active agent `idOrSlug` names, or a 403 (`unknown_agent`, or `agent_retired` for a retired
 * one) — the pre-accept form of close 1008.
 */
export async function knownAgent(agents: AgentsModule, idOrSlug: string, what: string): Promise<Agent> {
  const agent = await agents.service.resolve(idOrSlug);
  if (!agent) throw new AppError(403, 'unknown_agent', `${what} "${idOrSlug}" is not a known agent`);
  if (agent.retiredAt) throw new AppError(403, 'agent_retired', `${what} "${idOrSlug}" is retired`);
  return agent;
}
