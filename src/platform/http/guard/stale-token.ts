/**
 * The stale internal token rule (spec, Authentication rule 7): a request carrying a well-formed but
 * stale or invalid HMAC token never earns a ban. An agent that outlived a secret rotation, or whose
 * expiring token ran out, keeps knocking with it; because bans override the internal whitelist, a
 * ban earned that way would lock every agent on the host out. So:
 * - the ban counter is fed by WAF hits only (bans.ts), never by an authentication failure (401);
 * - the WAF never reads request headers, so the token itself cannot look like a payload;
 * - the 401 behaviour rule only logs, and tags failures that carried a well-formed agent token as
 *   `stale_agent_token`, so an operator can tell a confused agent from a credential prober.
 */
import type { FastifyRequest } from 'fastify';

/** Static form: 64 hex digits. Expiring form: `<base64url payload>.<64 hex digits>`. */
const STATIC_TOKEN = /^[0-9a-f]{64}$/i;
const EXPIRING_TOKEN = /^[A-Za-z0-9_-]+\.[0-9a-f]{64}$/i;

export function isWellFormedAgentToken(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const token = value.trim();
  return STATIC_TOKEN.test(token) || EXPIRING_TOKEN.test(token);
}

export type AuthFailureKind = 'stale_agent_token' | 'bad_credentials';

/** How a 401 is labelled in suspicious-activity records. */
export function authFailureKind(request: FastifyRequest): AuthFailureKind {
  return isWellFormedAgentToken(request.headers['x-agent-token']) ? 'stale_agent_token' : 'bad_credentials';
}
