/**
 * The request guard's cost: `GET /health` and an authenticated `GET /api/kanban` through the whole
 * stack with the guard on and off (plus a bare Fastify /health for scale), each target in its own
 * process, all three up at once and loaded in interleaved rounds from this one, so that both sides
 * of each ratio see the same machine load; each figure is the median of its rounds. The load is an
 * outside client forwarded by a loopback proxy (X-Forwarded-For), so bans, the WAF, the rate limits
 * and the behaviour rules all run. BENCH_ROUNDS and BENCH_SECONDS adjust a run.
 * Target: guard-on / guard-off requests-per-second ratio of at least 0.85 on both routes.
 */
import { CEO_IDENTITY } from '../src/platform/http/auth/identity.js';
import { staticToken } from '../src/platform/http/auth/tokens.js';
import { interleave, ratio, report, startTarget } from './support.js';

const GUARD_BENCH_SECRET = 'bench-secret-guard-0123456789abcdef0123456789';
const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = 50;
const outside = { 'x-forwarded-for': '203.0.113.10' };
const ceo = { ...outside, 'x-agent-token': staticToken(GUARD_BENCH_SECRET, CEO_IDENTITY) };

const targets = await Promise.all(
  (['bare', 'off', 'on'] as const).map((kind) =>
    startTarget('./guard-server.ts', [kind, GUARD_BENCH_SECRET]),
  ),
);
const [bare, off, on] = targets.map((target) => `http://127.0.0.1:${target.port}`) as [
  string,
  string,
  string,
];
try {
  const health = await interleave(
    [
      { name: 'bare', url: `${bare}/health`, headers: outside },
      { name: 'off', url: `${off}/health`, headers: outside },
      { name: 'on', url: `${on}/health`, headers: outside },
    ],
    { rounds, seconds, connections },
  );
  const kanban = await interleave(
    [
      { name: 'off', url: `${off}/api/kanban`, headers: ceo },
      { name: 'on', url: `${on}/api/kanban`, headers: ceo },
    ],
    { rounds, seconds, connections },
  );
  const rps = (side: { requestsPerSecond: number }) => side.requestsPerSecond;
  const ratios = [
    ratio(
      'GET /health guard on/off',
      rps(health.on!) / rps(health.off!),
      'the same server, guard off',
      '>=',
      0.85,
    ),
    ratio(
      'GET /api/kanban guard on/off',
      rps(kanban.on!) / rps(kanban.off!),
      'the same server, guard off',
      '>=',
      0.85,
    ),
  ];
  const clean = [health.off!, health.on!, kanban.off!, kanban.on!].every(
    (side) => side.errors === 0 && rps(side) > 0,
  );
  report(
    'guard',
    {
      rounds,
      seconds,
      connections,
      health: {
        bare: health.bare,
        off: health.off,
        on: health.on,
        on_vs_bare: Math.round((rps(health.on!) / rps(health.bare!)) * 100) / 100,
      },
      kanban: { off: kanban.off, on: kanban.on },
    },
    { description: 'guard on/off >= 0.85 on GET /health and GET /api/kanban, no errors', met: clean, ratios },
  );
} finally {
  await Promise.all(targets.map((target) => target.stop()));
}
