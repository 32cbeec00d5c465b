/**
 * Root-level probes: /health (liveness), /ready (database and cache, each with a timeout; 503 and a
 * degraded payload when either is down), and the internal-only /metrics, which answers 404 to anyone
 * outside loopback and GAFFER_INTERNAL_NETWORKS. /_guard/status belongs to the guard (guard/status-route.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Platform } from '../context.js';
import { isReadOnlyStore } from '../db/errors.js';
import { agentSandbox, probeRunLimits, runLimitsWarnings, sandboxWarnings } from '../process/index.js';
import { version } from '../version.js';
import { sendError } from './conventions.js';
import { AppError } from './errors.js';
import { internalNetworks, isInternalRequest } from './internal-network.js';
import { StringEnum } from './schema-types.js';

const Check = Type.Object({
  ok: Type.Boolean(),
  latency_ms: Type.Number(),
  /** `unreachable`, `no answer within N ms` or `takes no writes`; never a driver message. */
  error: Type.Optional(
    Type.String({
      description: '`unreachable`, `no answer within N ms`, or `takes no writes` (a read-only store)',
    }),
  ),
});

const ReadyBody = Type.Object({
  status: StringEnum(['ok', 'degraded']),
  checks: Type.Object({
    database: Type.Intersect([Check, Type.Object({ kind: Type.String() })]),
    cache: Type.Intersect([Check, Type.Object({ mode: Type.String() })]),
  }),
});

/**
 * Runs one check within the timeout. The payload is unauthenticated, so a failure says only
 * `unreachable`, `no answer within N ms` or `takes no writes`; the driver's own words go to the log.
 */
async function timedCheck(run: () => Promise<void>, timeoutMs: number, onFailure: (error: unknown) => void) {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = `no answer within ${timeoutMs} ms`;
  try {
    await Promise.race([
      run(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(timedOut)), timeoutMs);
      }),
    ]);
    return { ok: true, latency_ms: round(performance.now() - started) };
  } catch (error) {
    onFailure(error);
    const message =
      error instanceof Error && error.message === timedOut
        ? timedOut
        : isReadOnlyStore(error)
          ? 'takes no writes'
          : 'unreachable';
    return { ok: false, latency_ms: round(performance.now() - started), error: message };
  } finally {
    clearTimeout(timer);
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;

const SandboxBody = Type.Object({
  mode: StringEnum(['on', 'off']),
  ready: Type.Boolean({ description: 'a sandbox can be made here (false while off)' }),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'why none can be made, while on' }),
});

const RunLimitsBody = Type.Object({
  mechanism: StringEnum(['cgroup2', 'cgroup1', 'rlimits'], {
    description:
      'what holds each agent run to its limits: a cgroup (v2 delegated, or v1 as root), or rlimits',
  }),
  ready: Type.Boolean({ description: 'a cgroup holds every run to all its limits' }),
  reason: Type.Union([Type.String(), Type.Null()], {
    description: 'why no cgroup can be made here (only rlimits apply, best effort)',
  }),
});

export function registerProbes(app: FastifyInstance, platform: Platform): void {
  const { config, database, cache } = platform;
  const sandbox = agentSandbox(config);
  const internal = internalNetworks(config.internalNetworks);
  const internalOnly = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isInternalRequest(internal, request)) {
      sendError(request, reply, new AppError(404, 'not_found', `no route ${request.method} ${request.url}`));
      return reply;
    }
  };

  app.get(
    '/health',
    {
      schema: {
        tags: ['probes'],
        summary: 'Liveness: 200 once the app is up',
        description:
          'Also says whether agents run sandboxed and what holds their runs to their limits; `warnings` is not empty while agents run unsandboxed (GAFFER_AGENT_SANDBOX=off, or no sandbox can be made here) or their runs are bounded only by rlimits (no cgroup can be made here).',
        response: {
          200: Type.Object({
            status: Type.Literal('ok'),
            version: Type.String(),
            uptime_seconds: Type.Number(),
            agent_sandbox: SandboxBody,
            run_limits: RunLimitsBody,
            warnings: Type.Array(Type.String()),
          }),
        },
      },
    },
    async () => {
      const [state, limits] = await Promise.all([sandbox.state(), probeRunLimits()]);
      return {
        status: 'ok' as const,
        version,
        uptime_seconds: Math.round(process.uptime()),
        agent_sandbox: { mode: state.mode, ready: state.ready, reason: state.reason },
        run_limits: { mechanism: limits.mechanism, ready: limits.ready, reason: limits.reason },
        warnings: [...sandboxWarnings(state), ...runLimitsWarnings(limits)],
      };
    },
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['probes'],
        summary: 'Readiness: checks the database and the cache store',
        description:
          '200 when both answer within GAFFER_READY_TIMEOUT_MS and the database takes writes; 503 with a degraded ' +
          'payload otherwise (a read-only database — an embedded store moved to PostgreSQL, awaiting its restart — ' +
          'is not ready: route traffic elsewhere).',
        response: { 200: ReadyBody, 503: ReadyBody },
      },
    },
    async (request, reply) => {
      const failed = (check: string) => (error: unknown) =>
        request.log.warn({ err: error, check }, 'readiness check failed');
      const [db, kv] = await Promise.all([
        timedCheck(() => database.ping(), config.readyTimeoutMs, failed('database')),
        timedCheck(() => cache.ping(), config.readyTimeoutMs, failed('cache')),
      ]);
      const healthy = db.ok && kv.ok;
      reply.status(healthy ? 200 : 503);
      return {
        status: healthy ? ('ok' as const) : ('degraded' as const),
        checks: { database: { ...db, kind: database.kind }, cache: { ...kv, mode: cache.mode } },
      };
    },
  );

  app.get(
    '/metrics',
    {
      onRequest: internalOnly,
      schema: {
        tags: ['probes'],
        summary: 'Prometheus metrics (loopback and GAFFER_INTERNAL_NETWORKS only; 404 to anyone else)',
        produces: ['text/plain'],
        response: { 200: Type.String() },
      },
    },
    async (_request, reply) => {
      reply.type(app.metrics.contentType);
      return app.metrics.metrics();
    },
  );
}
