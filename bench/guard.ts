/**
 * The request guard's cost: `GET /health` and an authenticated `GET /api/kanban` through the whole
 * stack with the guard on and off, each target in its own process, loaded in turn from this one in
 * one run (plus a bare Fastify /health for scale). The load is an outside client forwarded by a
 * loopback proxy (X-Forwarded-For), so bans, the WAF, the rate limits and the behaviour rules all
 * run. Target: guard-on / guard-off requests-per-second ratio of at least 0.85 on both routes.
 */
import autocannon from 'autocannon';
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { type LoadResult, report, startTarget } from './support.js';

const GUARD_BENCH_SECRET = 'bench-secret-guard-0123456789abcdef0123456789';
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = 50;
const outside = { 'x-forwarded-for': '203.0.113.10' };
const ceo = { ...outside, 'x-agent-token': staticToken(GUARD_BENCH_SECRET, CEO_IDENTITY) };

async function load(url: string, headers: Record<string, string>, duration: number): Promise<LoadResult> {
  const result = await autocannon({ url, headers, duration, connections, pipelining: 1 });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

async function measure(kind: 'bare' | 'on' | 'off', path: string, headers: Record<string, string>) {
  const target = await startTarget('./guard-server.ts', [kind, GUARD_BENCH_SECRET]);
  try {
    const url = `http://127.0.0.1:${target.port}${path}`;
    await load(url, headers, 2); // warm-up
    return await load(url, headers, seconds);
  } finally {
    await target.stop();
  }
}

const ratio = (on: LoadResult, off: LoadResult) =>
  Math.round((on.requestsPerSecond / off.requestsPerSecond) * 100) / 100;

const bare = await measure('bare', '/health', outside);
const healthOff = await measure('off', '/health', outside);
const healthOn = await measure('on', '/health', outside);
const kanbanOff = await measure('off', '/api/kanban', ceo);
const kanbanOn = await measure('on', '/api/kanban', ceo);
const healthRatio = ratio(healthOn, healthOff);
const kanbanRatio = ratio(kanbanOn, kanbanOff);
report(
  'guard',
  {
    bare,
    health: { off: healthOff, on: healthOn, ratio: healthRatio, on_vs_bare: ratio(healthOn, bare) },
    kanban: { off: kanbanOff, on: kanbanOn, ratio: kanbanRatio },
  },
  {
    description: 'guard on/off >= 0.85 on GET /health and GET /api/kanban',
    met:
      healthRatio >= 0.85 &&
      kanbanRatio >= 0.85 &&
      [healthOff, healthOn, kanbanOff, kanbanOn].every(
        (run) => run.errors === 0 && run.requestsPerSecond > 0,
      ),
  },
);
