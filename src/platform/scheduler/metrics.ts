/** Prometheus view of the scheduler: when each loop last succeeded, and its failure counts. */
import { Gauge, type Registry } from 'prom-client';
import type { LoopStatus, Scheduler } from './types.js';

export function registerSchedulerMetrics(registry: Registry, scheduler: Scheduler): void {
  const gauge = (name: string, help: string, value: (loop: LoopStatus) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['loop'] as const,
      registers: [registry],
      async collect() {
        for (const loop of await scheduler.status()) this.set({ loop: loop.name }, value(loop));
      },
    });
  gauge(
    'gaffer_scheduler_last_success_timestamp_seconds',
    'Unix time of the last successful pass of each scheduler loop (any replica); 0 = never.',
    (loop) => (loop.lastSuccessAt ? loop.lastSuccessAt.getTime() / 1000 : 0),
  );
  gauge(
    'gaffer_scheduler_failures',
    'Failed or aborted passes of each scheduler loop since it was first run (any replica).',
    (loop) => loop.failures,
  );
}
