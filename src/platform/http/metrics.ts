/**
 * Prometheus metrics: request counts and latency by method, route and status, plus process
 * metrics. Each app has its own registry; other modules add their metrics to `app.metrics`.
 */
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Registry;
  }
}

export function registerMetrics(app: FastifyInstance): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'gaffer_' });
  const duration = new Histogram({
    name: 'gaffer_http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status code (count = requests served).',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  app.decorate('metrics', registry);
  app.addHook('onResponse', (request, reply, done) => {
    duration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: reply.statusCode,
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
