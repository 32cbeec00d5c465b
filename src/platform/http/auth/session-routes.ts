/**
 * Panel sign-in: `POST /api/auth/session` exchanges the CEO token for an HttpOnly, SameSite=Strict
 * session cookie, `GET` tells who the caller is, `DELETE` signs out. The panel is for the CEO only,
 * and the browser never holds the HMAC secret.
 */
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../../../config.js';
import type { Platform } from '../../context.js';
import { errorResponse } from '../error-schema.js';
import { AppError } from '../errors.js';
import { claimedIdentity, headerValue, identityFromToken, sessionCookie } from './authenticate.js';
import type { RosterLookup } from './header-agreement.js';
import type { Identity } from './identity.js';
import { requireIdentity } from './require-role.js';
import { NoContent, SessionCreated, SessionInfo, TokenHeader } from './route-schemas.js';
import { createSession, deleteExpiredSessions, deleteSession, SESSION_COOKIE } from './sessions.js';

const TAGS = ['auth'];

export function sessionCookieOptions(config: Pick<Config, 'publicUrl'>): CookieSerializeOptions {
  return {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: config.publicUrl?.startsWith('https:') ?? false,
  };
}

const identityBody = ({ id, role, team }: Identity) => ({ id, role, team });

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');

export function registerSessionRoutes(
  app: FastifyInstance,
  platform: Platform,
  roster: RosterLookup | undefined,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { config, clock } = platform;
  const db = () => platform.database.db;

  api.post(
    '/api/auth/session',
    {
      // The global hook is skipped: this route checks the token itself and also refuses non-CEOs.
      config: { public: true },
      schema: {
        tags: TAGS,
        summary: 'Sign in to the panel with the CEO token',
        description:
          'Send the CEO token in X-Agent-Token (the static one, or the expiring one from the login link). ' +
          'Sets the `gaffer_session` cookie; other roles get 403.',
        headers: TokenHeader,
        response: {
          200: SessionCreated,
          400: errorResponse('`invalid_identity`: an X-Agent-Role header that names no role.'),
          401: errorResponse('`missing_token`, `invalid_token` or `token_expired`.'),
          403: errorResponse('`forbidden`: the token is valid but not the CEO’s.'),
        },
      },
    },
    async (request, reply) => {
      const token = headerValue(request, 'x-agent-token');
      if (!token) throw new AppError(401, 'missing_token', 'send the CEO token in X-Agent-Token to sign in');
      const identity = await identityFromToken(token, claimedIdentity(request), platform, roster);
      if (identity.role !== 'ceo') {
        throw new AppError(403, 'forbidden', 'only the CEO may sign in to the panel');
      }

      const now = clock.now();
      await deleteExpiredSessions(db(), now);
      const previous = sessionCookie(request);
      if (previous) await deleteSession(db(), previous);
      const expiresAt = new Date(now.getTime() + config.sessionTtlSeconds * 1000);
      const sessionId = await createSession(db(), identity, expiresAt);

      reply.setCookie(SESSION_COOKIE, sessionId, {
        ...sessionCookieOptions(config),
        maxAge: config.sessionTtlSeconds,
      });
      noStore(reply);
      return { identity: identityBody(identity), expires_at: expiresAt.toISOString() };
    },
  );

  api.get(
    '/api/auth/session',
    {
      preValidation: requireIdentity,
      schema: {
        tags: TAGS,
        summary: 'Who the caller is',
        description: 'Answers for a session cookie or an X-Agent-Token; 401 for anyone else.',
        response: {
          200: SessionInfo,
          400: errorResponse('`invalid_identity`: an X-Agent-Role header that names no role.'),
          401: errorResponse('No credential, or one that is invalid or expired.'),
        },
      },
    },
    async (request, reply) => {
      const identity = request.identity!;
      noStore(reply);
      return {
        identity: identityBody(identity),
        via: identity.via,
        ...(identity.expiresAt ? { expires_at: identity.expiresAt.toISOString() } : {}),
      };
    },
  );

  api.delete(
    '/api/auth/session',
    {
      // Signing out must work with an expired cookie or none at all, so no authentication here.
      config: { public: true },
      schema: {
        tags: TAGS,
        summary: 'Sign out of the panel',
        description: 'Deletes the session and clears the cookie. Idempotent: 204 even without a session.',
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const sessionId = sessionCookie(request);
      if (sessionId) await deleteSession(db(), sessionId);
      reply.clearCookie(SESSION_COOKIE, sessionCookieOptions(config));
      noStore(reply);
      return reply.code(204).send(null);
    },
  );
}
