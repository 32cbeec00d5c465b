/**
 * GET /health through Gaffer's full stack (conventions, auth hook, metrics, docs plugin, embedded
 * stores) against a bare Fastify server, each in its own process, loaded in turn from this one.
 * Target: full/bare requests-per-second ratio of at least 0.7.
 */
import { load, report, startTarget } from './support.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = 50;

async function measure(kind: 'bare' | 'full') {
  const target = await startTarget('./http-server.ts', [kind]);
  try {
    const url = `http://127.0.0.1:${target.port}/health`;
    await load(url, { seconds: 2, connections }); // warm-up
    return await load(url, { seconds, connections });
  } finally {
    await target.stop();
  }
}

const bare = await measure('bare');
const full = await measure('full');
const ratio = Math.round((full.requestsPerSecond / bare.requestsPerSecond) * 100) / 100;
report('http', { bare, full, ratio }, { description: 'full/bare >= 0.7', met: ratio >= 0.7 });
