/**
 * The system module's outside face: the orchestrator's own state for the CEO (`/api/orchestrator`)
 * and provider rate-limit parking (`/api/system/rate-limits`, RATE_LIMIT_HIT / RATE_LIMIT_LIFTED,
 * the `system.rate-limit-probe` loop; rate-limits/).
 */

import { SYSTEM_ID } from '../../platform/http/auth/index.js';
import { ProviderRateLimitError } from '../../platform/http/errors.js';
import { ModelThrottledError } from '../../platform/llm/index.js';
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { Scheduler } from '../../platform/scheduler/index.js';
import type { AgentsModule } from '../agents/index.js';
import type { NotificationsModule } from '../notifications/index.js';
import type { ProvidersModule } from '../providers/index.js';
import type { RuntimeModule } from '../runtime/index.js';
import { probePass, RATE_LIMIT_PROBE_INTERVAL_MS, RATE_LIMIT_PROBE_LOOP } from './rate-limits/probe.js';
import { registerRateLimitRoutes } from './rate-limits/routes.js';
import { type RateLimitReport, RateLimitService } from './rate-limits/service.js';
import { registerOrchestratorRoutes } from './routes.js';

export type { RateLimitHit, RateLimitLifted, ThrottleKind } from './events.js';
export { RATE_LIMIT_PROBE_LOOP } from './rate-limits/probe.js';
export * as rateLimitRules from './rate-limits/rules.js';
export type { RateLimitAgent, RateLimitReport, RateLimitService } from './rate-limits/service.js';
export { providerRateLimits } from './schema.js';

export interface SystemModule extends ModuleFace {
  rateLimits: RateLimitService;
}

/** What this module is handed besides the platform (settings and scheduler are built first). */
export interface SystemDeps {
  scheduler: Scheduler;
  agents: Pick<AgentsModule, 'service'>;
  providers: Pick<ProvidersModule, 'service'>;
  runtime: Pick<RuntimeModule, 'supervisor'>;
  notifications: Pick<NotificationsModule, 'service'>;
}

export function createSystemModule({ platform, deps }: ModuleInput<SystemDeps>): SystemModule {
  const { bus, clock, config, log } = platform;
  const providers = deps.providers.service;
  const service = new RateLimitService({
    db: platform.database.db,
    bus,
    clock,
    agents: deps.agents.service,
    providers,
    supervisor: deps.runtime.supervisor,
    defaultCli: config.agentRuntime === 'scripted' ? 'scripted' : config.agentProvider,
    log,
  });
  const reportQuietly = (report: RateLimitReport) =>
    service.report(report).catch((error) => log.warn({ err: error }, 'rate-limit parking: a report failed'));
  deps.scheduler.register({
    name: RATE_LIMIT_PROBE_LOOP,
    intervalMs: RATE_LIMIT_PROBE_INTERVAL_MS,
    run: async (signal) => {
      await probePass(
        {
          service,
          now: () => clock.now(),
          configured: async () => new Set((await providers.list()).map((row) => row.name)),
          probe: (provider) => providers.test(provider, 'completion'),
          notifyCeo: (subject, body) =>
            deps.notifications.service
              .send(
                {
                  type: 'alert',
                  priority: 'high',
                  recipients: ['ceo'],
                  subject,
                  body,
                  related_task_id: null,
                },
                { id: SYSTEM_ID, role: 'system' },
              )
              .then(() => undefined),
          log,
        },
        signal,
      );
    },
  });
  const unsubscribes = [
    // Every replica marks its own running agents when a provider is parked or lifted.
    bus.subscribe('RATE_LIMIT_HIT', (event) => service.markLocalWaiting(event.data)),
    bus.subscribe('RATE_LIMIT_LIFTED', (event) => service.markLocalResumed(event.data)),
    deps.runtime.supervisor.onRateLimitSeen(
      (seen) =>
        void reportQuietly({
          kind: seen.kind,
          agent: seen.agent,
          cli: seen.cli,
          retryAfterSeconds: seen.retryAfterSeconds,
        }),
    ),
  ];
  return {
    rateLimits: service,
    registerRoutes(app) {
      registerOrchestratorRoutes(app, deps.scheduler, clock);
      registerRateLimitRoutes(app, service);
      // A domain route whose model call was throttled answers 429 (HTTP conventions) and parks the provider.
      app.addHook('onError', async (_request, _reply, error) => {
        if (!(error instanceof ProviderRateLimitError)) return;
        const kind = error instanceof ModelThrottledError ? error.kind : 'rate_limited';
        await reportQuietly({
          kind,
          provider: error.provider,
          retryAfterSeconds: error.retryAfterSeconds ?? null,
        });
      });
      app.addHook('onClose', async () => {
        for (const unsubscribe of unsubscribes) unsubscribe();
      });
    },
  };
}
