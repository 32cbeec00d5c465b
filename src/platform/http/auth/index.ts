/**
 * Authentication and authorization: token and session identity on every /api request, role guards,
 * the panel session routes and the sign-in page.
 */
import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../context.js';
import { registerAuthentication } from './authenticate.js';
import type { RosterLookup } from './header-agreement.js';
import { registerPanelPages } from './login-page.js';
import { registerSessionRoutes } from './session-routes.js';

export type { RosterIdentity, RosterLookup } from './header-agreement.js';
export {
  CEO_ID,
  CEO_IDENTITY,
  type Identity,
  isRole,
  ROLES,
  type Role,
  SYSTEM_ID,
  TEAMS,
  type Team,
} from './identity.js';
export { baseUrl, LOGIN_TOKEN_TTL_SECONDS, loginUrl } from './login-page.js';
export { requireIdentity, requireRole } from './require-role.js';
export { loadOrCreateSecret, SecretFileError } from './secret.js';
export { SESSION_COOKIE } from './sessions.js';
export { expiringToken, staticToken, verifyToken } from './tokens.js';

export interface AuthOptions {
  /**
   * The roster, for identity headers that name the token's identity by its other name (slug or
   * UUID) or the roster's team. Without it, headers must match the token exactly.
   */
  roster?: RosterLookup;
}

export async function registerAuth(
  app: FastifyInstance,
  platform: Platform,
  options: AuthOptions = {},
): Promise<void> {
  registerAuthentication(app, platform, options.roster);
  // The cookie plugin's two hooks run only where cookies are written (sign-in and sign-out), not on
  // every request; authentication reads the session cookie from the request's header itself.
  await app.register(async (scope) => {
    await scope.register(cookie);
    registerSessionRoutes(scope, platform, options.roster);
  });
  registerPanelPages(app);
}
