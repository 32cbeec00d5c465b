/**
 * Benchmark target, run as its own process: `full` is Gaffer's whole stack on a fresh embedded data
 * directory; `bare` is a plain Fastify server answering the same /health body. Prints the port.
 * BENCH_CPU_PROFILE=<dir> writes the CPU profile of either target there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { configWith } from '../src/config.js';
import { startServer } from '../src/server.js';
import { startCpuProfile } from './support.js';

const kind = process.argv[2];
if (kind === 'bare') {
  const app = Fastify();
  app.get('/health', async () => ({
    status: 'ok',
    version: '0.0.0',
    uptime_seconds: Math.round(process.uptime()),
    agent_sandbox: { mode: 'on', ready: true, reason: null },
    warnings: [],
  }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const profile = await startCpuProfile(process.env.BENCH_CPU_PROFILE, 'http-bare');
  process.on('SIGTERM', () => void profile?.().finally(() => process.exit(0)));
  const address = app.server.address();
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-'));
  const server = await startServer(configWith({ dataDir, port: 0, logLevel: 'error' }));
  const profile = await startCpuProfile(process.env.BENCH_CPU_PROFILE, 'http-full');
  process.on('SIGTERM', () => {
    void Promise.all([profile?.(), server.close()]).finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
  console.log(JSON.stringify({ port: Number(new URL(server.url).port) }));
}
