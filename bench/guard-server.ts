/**
 * Benchmark target for bench/guard.ts, run as its own process: Gaffer's whole stack on a fresh
 * embedded data directory with the request guard `on` or `off`, or (`bare`) a plain Fastify server
 * answering the same /health body. Arguments: the kind, then the auth secret. Prints the port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { configWith } from '../src/config.js';
import { startServer } from '../src/server.js';
import { startCpuProfile } from './support.js';

const [kind, secret] = process.argv.slice(2);
if (kind === 'bare') {
  const app = Fastify();
  app.get('/health', async () => ({
    status: 'ok',
    version: '0.0.0',
    uptime_seconds: Math.round(process.uptime()),
  }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
} else if (kind === 'on' || kind === 'off') {
  const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-guard-'));
  const server = await startServer(
    configWith({
      dataDir,
      port: 0,
      // Quiet: the target's stdout carries its port line (the guard-off warning would come first).
      logLevel: 'error',
      authSecret: secret,
      guardEnabled: kind === 'on',
      // The load comes from outside (forwarded by a loopback proxy) so every rule runs; the limit
      // is set above what the load reaches, so the run measures the checks, not refusals.
      guardRateLimitPerMinute: 1_000_000,
    }),
  );
  const profile = await startCpuProfile(process.env.BENCH_CPU_PROFILE, `guard-${kind}`);
  process.on('SIGTERM', () => {
    void Promise.all([profile?.(), server.close()]).finally(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
  console.log(JSON.stringify({ port: server.port }));
} else {
  console.error('usage: guard-server.ts bare|on|off');
  process.exit(2);
}
