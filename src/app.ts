/**
 * Builds the Fastify application: platform plugins first (conventions, metrics, API docs, auth,
 * probes), then each module's routes. Building does no listening, so tests inject requests directly.
 */
import { randomUUID } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { createModules, type Modules, mountModules } from './modules/registry.js';
import { createSettings, type SettingsModule } from './modules/settings/index.js';
import type { Platform, PlatformStores } from './platform/context.js';
import { registerAuth } from './platform/http/auth/index.js';
import { acceptCorrelationId, registerConventions } from './platform/http/conventions.js';
import { registerGuard } from './platform/http/guard/index.js';
import { trustedProxies } from './platform/http/internal-network.js';
import { registerMetrics } from './platform/http/metrics.js';
import { registerOpenApi } from './platform/http/openapi.js';
import { registerPanelStatic } from './platform/http/panel-static.js';
import { registerProbes } from './platform/http/probes.js';
import { requestLogger } from './platform/http/request-logger.js';
import { serializerCompiler } from './platform/http/serialization.js';
import { validatorCompiler } from './platform/http/validation.js';
import { createScheduler, registerSchedulerMetrics, type Scheduler } from './platform/scheduler/index.js';

export type App = FastifyInstance;

export interface BuildOptions {
  /** pino options or false; defaults to JSON logs at GAFFER_LOG_LEVEL. */
  logger?: boolean | Record<string, unknown>;
  /** The built panel to serve at `/`; default `dist/panel` of this package. */
  panelDir?: string;
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

export async function buildApp(stores: PlatformStores, options: BuildOptions = {}): Promise<Gaffer> {
  const { config } = stores;
  const app = Fastify({
    logger: options.logger ?? {
      level: config.logLevel,
      redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
    },
    bodyLimit: config.bodyLimitBytes,
    requestIdHeader: false,
    // Per-request lines are logged at debug by the conventions hook; errors are always logged.
    logController: new LogController({ requestIdLogLabel: 'correlation_id', disableRequestLogging: true }),
    childLoggerFactory: requestLogger,
    genReqId: (req) => {
      const incoming = req.headers['x-correlation-id'];
      return typeof incoming === 'string' && acceptCorrelationId(incoming) ? incoming : randomUUID();
    },
    trustProxy: trustedProxies(config.trustedProxies),
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler());
  app.setSerializerCompiler(serializerCompiler());
  // The platform every module (and the scheduler) is handed: the stores and the app's logger.
  const platform: Platform = { ...stores, log: app.log };

  registerConventions(app);
  // The one late logger: the bus is opened with the stores (server.ts), before this app's logger exists.
  platform.bus.useLogger(app.log);
  registerMetrics(app);
  // Before authentication and every route: bans and the WAF answer before any token is checked.
  await registerGuard(app, platform);
  await registerOpenApi(app);
  // Identity headers may name the token's identity by slug or UUID and the roster's team: the roster
  // (the agents module, built below, before any request is served) resolves them.
  let roster: Modules['agents']['service'] | undefined;
  await registerAuth(app, platform, {
    roster: async (idOrSlug) => (roster ? roster.identify(idOrSlug) : null),
  });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  registerProbes(app, platform);
  registerPanelStatic(app, options.panelDir);

  const scheduler = createScheduler({
    db: platform.database.db,
    locks: platform.locks,
    log: platform.log,
    leaseTtlMs: config.loopLeaseSeconds * 1000,
  });
  registerSchedulerMetrics(app.metrics, scheduler);
  app.addHook('onReady', async () => scheduler.start());
  app.addHook('onClose', async () => scheduler.stop());

  const settings = await createSettings({ platform, deps: {} });
  settings.registerRoutes(app);
  const modules = await createModules(platform, { settings, scheduler });
  roster = modules.agents.service;
  // Runs after the authentication hook: a retired agent's proven identity is refused. A callback
  // hook, so that a request with no identity (public routes, probes, the panel's files) makes no promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!request.identity) return done();
    modules.agents.refuseRetired(request.identity).then(() => done(), done);
  });
  // Modules start after the scheduler (its onReady hook is added first) and stop before it.
  mountModules(app, modules);

  return { app, settings, modules, scheduler };
}
