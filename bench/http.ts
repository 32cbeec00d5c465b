/**
 * GET /health through Gaffer's full stack (conventions, the guard, auth hook, metrics, docs plugin,
 * embedded stores) against a bare Fastify server answering the same body, each in its own process,
 * both up at once and loaded in interleaved rounds from this one (median of the rounds).
 * BENCH_ROUNDS and BENCH_SECONDS adjust a run. Target: full/bare requests per second ≥ 0.8.
 */
import { interleave, ratio, report, startTarget } from './support.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);

const targets = await Promise.all([
  startTarget('./http-server.ts', ['bare']),
  startTarget('./http-server.ts', ['full']),
]);
try {
  const [bare, full] = targets.map((target) => `http://127.0.0.1:${target.port}/health`) as [string, string];
  const runs = await interleave(
    [
      { name: 'bare', url: bare },
      { name: 'full', url: full },
    ],
    { rounds, seconds, connections: 50 },
  );
  const value = runs.full!.requestsPerSecond / runs.bare!.requestsPerSecond;
  report(
    'http',
    { rounds, seconds, bare: runs.bare, full: runs.full },
    {
      description: 'GET /health full stack/bare Fastify >= 0.8, no errors',
      met: runs.full!.errors === 0,
      ratios: [ratio('GET /health full stack/bare Fastify', value, 'bare Fastify, same body', '>=', 0.8)],
    },
  );
} finally {
  await Promise.all(targets.map((target) => target.stop()));
}
