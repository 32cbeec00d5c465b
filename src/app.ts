/**
 * Builds the Fastify application: platform plugins first (conventions, metrics, API docs, auth,
 * probes), then each module's routes. Building does no listening, so tests inject requests directly.
 */
import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { createModules, type Modules, registerModuleRoutes } from './modules/registry.js';
import { createSettings, type SettingsModule } from './modules/settings/index.js';
import type { Platform } from './platform/context.js';
import { registerAuth } from './platform/http/auth/index.js';
import { acceptCorrelationId, registerConventions } from './platform/http/conventions.js';
import { registerGuard } from './platform/http/guard/index.js';
import { registerMetrics } from './platform/http/metrics.js';
import { registerOpenApi } from './platform/http/openapi.js';
import { registerProbes } from './platform/http/probes.js';
import { validatorCompiler } from './platform/http/validation.js';
import { createScheduler, registerSchedulerMetrics, type Scheduler } from './platform/scheduler/index.js';

export type App = FastifyInstance;

export interface BuildOptions {
  /** pino options or false; defaults to JSON logs at GAFFER_LOG_LEVEL. */
  logger?: boolean | Record<string, unknown>;
}

export interface Gaffer {
  app: App;
  settings: SettingsModule;
  modules: Modules;
  /** Background loops; started when the app is ready, stopped (in-flight passes aborted) on close. */
  scheduler: Scheduler;
}

/** Log fields that must never reach a log line. */
export const REDACTED_LOG_PATHS = [
  'req.headers["x-agent-token"]',
  'req.headers.cookie',
  'req.headers.authorization',
  'headers["x-agent-token"]',
  'headers.cookie',
  '*.token',
  '*.secret',
  '*.git_token',
  '*.bot_token',
];

export async function buildApp(platform: Platform, options: BuildOptions = {}): Promise<Gaffer> {
  const { config } = platform;
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
    },
    bodyLimit: config.bodyLimitBytes,
    requestIdHeader: false,
    // Per-request lines are logged at debug by the conventions hook; errors are always logged.
    logController: new LogController({ requestIdLogLabel: 'correlation_id', disableRequestLogging: true }),
    genReqId: (req) => {
      const incoming = req.headers['x-correlation-id'];
      return typeof incoming === 'string' && acceptCorrelationId(incoming) ? incoming : randomUUID();
    },
    trustProxy: config.trustedProxies,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler());

  registerConventions(app);
  registerMetrics(app);
  // Before authentication and every route: bans and the WAF answer before any token is checked.
  await registerGuard(app, platform);
  await registerOpenApi(app);
  await registerAuth(app, platform);
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  registerProbes(app, platform);

  const scheduler = createScheduler({ db: platform.database.db, locks: platform.locks, log: app.log });
  registerSchedulerMetrics(app.metrics, scheduler);
  app.addHook('onReady', async () => scheduler.start());
  app.addHook('onClose', async () => scheduler.stop());

  const settings = await createSettings(platform);
  settings.registerRoutes(app);
  const modules = await createModules(platform, { settings, scheduler });
  // Runs after the authentication hook: a retired agent's proven identity is refused.
  app.addHook('onRequest', async (request) => {
    if (request.identity) await modules.agents.refuseRetired(request.identity);
  });
  registerModuleRoutes(app, modules);

  return { app, settings, modules, scheduler };
}
