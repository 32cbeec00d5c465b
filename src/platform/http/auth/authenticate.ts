/**
 * Resolves the caller of every /api request. A token (X-Agent-Token) or a panel session cookie
 * proves the identity; in secure mode one of them is required and the role is what it proves,
 * never what a header claims. Identity headers sent with a token must agree with it (by UUID or
 * slug, with the roster's team: header-agreement.ts). With secure mode off, identity headers are
 * trusted, but a token that is presented must still verify.
 */
import { fastifyCookie } from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Platform } from '../../context.js';
import { AppError } from '../errors.js';
import { type ClaimedIdentity, type RosterLookup, verifyAgainstRoster } from './header-agreement.js';
import { CEO_IDENTITY, type Identity, isRole } from './identity.js';
import { findSession, SESSION_COOKIE } from './sessions.js';
import { verifyToken } from './tokens.js';

export type { ClaimedIdentity } from './header-agreement.js';

export function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function registerAuthentication(
  app: FastifyInstance,
  platform: Platform,
  roster: RosterLookup | undefined,
): void {
  app.decorateRequest('identity', null);
  // A callback hook: the public and non-API requests (most of the cheap ones) pass without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!isApiRequest(request) || request.routeOptions.config?.public) return done();
    authenticate(request, platform, roster).then((identity) => {
      request.identity = identity;
      done();
    }, done);
  });
}

/** The panel session's id from the request's Cookie header, if it carries one. */
export function sessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  return header ? fastifyCookie.parse(header)[SESSION_COOKIE] : undefined;
}

/**
 * Decided on the matched route pattern, not the raw URL: the router decodes percent-escapes, so
 * `/%61pi/x` reaches the `/api/x` handler while its raw URL does not start with `/api/`. A path no
 * route matches needs no identity: it is a plain 404 for everyone (the routes are public in /docs).
 */
function isApiRequest(request: FastifyRequest): boolean {
  const path = request.routeOptions.url;
  return path !== undefined && (path === '/api' || path.startsWith('/api/'));
}

/** The identity headers, with the role checked against the known roles (400 otherwise). */
export function claimedIdentity(request: FastifyRequest): ClaimedIdentity {
  const claimed = {
    id: headerValue(request, 'x-agent-id'),
    role: headerValue(request, 'x-agent-role')?.toLowerCase(),
    team: headerValue(request, 'x-agent-team'),
  };
  if (claimed.role !== undefined && !isRole(claimed.role)) {
    throw new AppError(400, 'invalid_identity', `X-Agent-Role "${claimed.role}" is not a role`);
  }
  return claimed;
}

/**
 * The identity a token proves, or a 401. An expiring token names its own subject (any claimed
 * header must agree with it). A static token with no X-Agent-ID is the panel/integrator form: it
 * must be the CEO's, and a claimed role or team must still match. When the headers do not match
 * the token as sent, the roster (when given) gets a second look: they may name the same identity
 * by its other name (slug or UUID) and the roster's team.
 */
export async function identityFromToken(
  token: string,
  claimed: ClaimedIdentity,
  platform: Platform,
  roster?: RosterLookup,
): Promise<Identity> {
  const now = platform.clock.now();
  const subject = claimed.id || token.includes('.') ? claimed : { ...CEO_IDENTITY, ...definedOnly(claimed) };
  let verdict = verifyToken(platform.secret, token, subject, now);
  if (!verdict.ok && verdict.reason !== 'expired' && roster) {
    verdict = await verifyAgainstRoster(platform.secret, token, claimed, now, roster);
  }
  if (!verdict.ok) {
    if (verdict.reason === 'expired') {
      throw new AppError(401, 'token_expired', 'X-Agent-Token has expired; ask for a fresh one');
    }
    throw new AppError(
      401,
      'invalid_token',
      'X-Agent-Token does not match the identity it is presented with',
    );
  }
  const { id, role, team } = verdict.subject;
  if (!isRole(role)) throw new AppError(401, 'invalid_token', 'X-Agent-Token names an unknown role');
  return { id, role, team, via: 'token', ...(verdict.expiresAt ? { expiresAt: verdict.expiresAt } : {}) };
}

async function authenticate(
  request: FastifyRequest,
  platform: Platform,
  roster: RosterLookup | undefined,
): Promise<Identity | null> {
  const { config, clock } = platform;
  const claimed = claimedIdentity(request);

  const token = headerValue(request, 'x-agent-token');
  if (token) return identityFromToken(token, claimed, platform, roster);

  const cookie = sessionCookie(request);
  if (cookie) {
    const session = await findSession(platform.database.db, cookie, clock.now());
    if (session) return session;
    if (config.secureMode)
      throw new AppError(401, 'session_expired', 'the panel session has expired; sign in again');
  }

  if (config.secureMode) {
    throw new AppError(
      401,
      'missing_token',
      'send X-Agent-Token (or sign in to the panel); secure mode is on',
    );
  }
  if (claimed.id && claimed.role && isRole(claimed.role)) {
    return { id: claimed.id, role: claimed.role, team: claimed.team ?? '', via: 'header' };
  }
  return null;
}

/** Keeps the role/team a bare-token caller claimed, so a mismatch with the CEO subject is caught. */
function definedOnly(claimed: ClaimedIdentity) {
  return {
    ...(claimed.role ? { role: claimed.role } : {}),
    ...(claimed.team !== undefined ? { team: claimed.team } : {}),
  };
}
