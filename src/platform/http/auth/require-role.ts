/** Route guard: `preValidation: requireRole('ceo')`. 401 without an identity, 403 for any other role. */
import type { preValidationAsyncHookHandler } from 'fastify';
import { AppError } from '../errors.js';
import type { Role } from './identity.js';

export function requireRole(...roles: Role[]): preValidationAsyncHookHandler {
  const allowed = new Set<string>(roles);
  const who = roles.length === 1 ? `the ${roles[0]}` : roles.join(' or ');
  return async (request) => {
    const identity = request.identity;
    if (!identity) throw new AppError(401, 'unauthenticated', 'identify yourself with X-Agent-Token');
    if (!allowed.has(identity.role)) {
      throw new AppError(
        403,
        'forbidden',
        `only ${who} may call ${request.method} ${request.routeOptions.url}`,
      );
    }
  };
}

/** Any authenticated caller. */
export const requireIdentity: preValidationAsyncHookHandler = async (request) => {
  if (!request.identity) throw new AppError(401, 'unauthenticated', 'identify yourself with X-Agent-Token');
};
