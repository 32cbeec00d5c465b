/**
 * Test support for the auth tests: a small Fastify app with the real conventions, API docs and auth
 * on an in-memory PGlite, plus two guarded probe routes. It needs none of the other modules, so the
 * auth tests do not depend on them.
 */
import type { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { openTestDatabase } from '../../../../test/support/stores.js';
import { type Config, configWith } from '../../../config.js';
import { type Clock, systemClock } from '../../clock.js';
import type { Platform } from '../../context.js';
import { silentLogger } from '../../logger.js';
import { registerConventions } from '../conventions.js';
import { registerOpenApi } from '../openapi.js';
import { validatorCompiler } from '../validation.js';
import { CEO_IDENTITY } from './identity.js';
import { registerAuth } from './index.js';
import { requireIdentity, requireRole } from './require-role.js';
import { staticToken } from './tokens.js';

export const TEST_SECRET = 'auth-test-secret-7f3a9c1e5b2d8f4a6c0e9b7d5f3a1c8e';

export interface AuthTestApp {
  app: FastifyInstance;
  platform: Platform;
  /** Static CEO token, no identity headers needed. */
  ceoHeaders: Record<string, string>;
  headersFor(id: string, role: string, team?: string): Record<string, string>;
  close(): Promise<void>;
}

/** `GET /api/test/ceo` (CEO only) and `GET /api/test/anyone` (any identity) echo the caller. */
export async function startAuthTestApp(
  options: { config?: Partial<Config>; clock?: Clock; logStream?: Writable } = {},
): Promise<AuthTestApp> {
  const database = await openTestDatabase();
  const platform: Platform = {
    config: configWith({ logLevel: 'silent', ...options.config }),
    database,
    // The auth code touches none of these; a call would fail loudly.
    cache: undefined as never,
    locks: undefined as never,
    bus: undefined as never,
    clock: options.clock ?? systemClock,
    secret: TEST_SECRET,
    log: silentLogger,
  };
  const app = Fastify({
    logger: options.logStream ? { level: 'trace', stream: options.logStream } : false,
    routerOptions: { ignoreTrailingSlash: true },
  });
  app.setValidatorCompiler(validatorCompiler());
  registerConventions(app);
  await registerOpenApi(app);
  await registerAuth(app, platform);
  const echo = { tags: ['test'], summary: 'Echo the caller' };
  app.get(
    '/api/test/ceo',
    { preValidation: requireRole('ceo'), schema: echo },
    async (request) => request.identity,
  );
  app.get(
    '/api/test/anyone',
    { preValidation: requireIdentity, schema: echo },
    async (request) => request.identity,
  );
  await app.ready();

  const headersFor = (id: string, role: string, team = '') => ({
    'x-agent-id': id,
    'x-agent-role': role,
    ...(team ? { 'x-agent-team': team } : {}),
    'x-agent-token': staticToken(TEST_SECRET, { id, role, team }),
  });
  return {
    app,
    platform,
    ceoHeaders: { 'x-agent-token': staticToken(TEST_SECRET, CEO_IDENTITY) },
    headersFor,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
