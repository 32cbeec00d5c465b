/**
 * Rate-limit parking wired to the rest of Gaffer: the service, the `system.rate-limit-probe` loop
 * (which tells the CEO when a provider is lifted or stays parked), every replica marking its own
 * running agents when a provider is parked or lifted, and the runtime's rate-limit lines reported.
 * `reportThrottled` parks the provider of a domain route's throttled model call; `stop` drops the
 * subscriptions (at app close).
 */
import type { Platform } from '../../../platform/context.js';
import { SYSTEM_ID } from '../../../platform/http/auth/index.js';
import { ProviderRateLimitError } from '../../../platform/http/errors.js';
import { ModelThrottledError } from '../../../platform/llm/index.js';
import type { SystemDeps } from '../deps.js';
import { probePass, RATE_LIMIT_PROBE_INTERVAL_MS, RATE_LIMIT_PROBE_LOOP } from './probe.js';
import { type RateLimitReport, RateLimitService } from './service.js';

export interface RateLimitParking {
  service: RateLimitService;
  /** Parks the provider when `error` is a throttled model call; anything else is ignored. Never rejects. */
  reportThrottled(error: unknown): Promise<void>;
  stop(): void;
}

export function wireRateLimitParking(platform: Platform, deps: SystemDeps): RateLimitParking {
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
    service,
    async reportThrottled(error) {
      if (!(error instanceof ProviderRateLimitError)) return;
      const kind = error instanceof ModelThrottledError ? error.kind : 'rate_limited';
      await reportQuietly({
        kind,
        provider: error.provider,
        retryAfterSeconds: error.retryAfterSeconds ?? null,
      });
    },
    stop() {
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}
