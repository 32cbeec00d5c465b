/**
 * Authentication and authorization: token and session identity on every /api request, role guards,
 * the panel session routes and the sign-in page.
 */
import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../context.js';
import { registerAuthentication } from './authenticate.js';
import { registerPanelPages } from './login-page.js';
import { registerSessionRoutes } from './session-routes.js';

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

export async function registerAuth(app: FastifyInstance, platform: Platform): Promise<void> {
  await app.register(cookie);
  registerAuthentication(app, platform);
  registerSessionRoutes(app, platform);
  registerPanelPages(app);
}
