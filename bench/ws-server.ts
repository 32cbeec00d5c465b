/**
 * Benchmark target for ws-fanout, run as its own process: Gaffer's whole stack on a fresh embedded
 * data directory. Prints `{"port"}`, then obeys one command per stdin line, answering with one JSON
 * line: `rss` (RSS and heap+external, after GCs when exposed), `count` (open sockets), `publish` (one RATE_LIMIT_HIT whose
 * `provider` carries the publish time in ms since the epoch, sub-millisecond precision).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { configWith } from '../src/config.js';
import { startServer } from '../src/server.js';
import { settledMemory } from './support.js';

const dataDir = mkdtempSync(join(tmpdir(), 'gaffer-bench-ws-'));
const server = await startServer(
  configWith({ dataDir, port: 0, logLevel: 'warn', wsIdleTimeoutSeconds: 3600 }),
);
const now = () => performance.timeOrigin + performance.now();
const answer = (data: object) => console.log(JSON.stringify(data));
answer({ port: server.port });

for await (const line of createInterface({ input: process.stdin })) {
  const command = line.trim();
  if (command === 'rss') {
    answer(await settledMemory());
  } else if (command === 'count') {
    answer(server.modules.streams.service.counts());
  } else if (command === 'publish') {
    await server.platform.bus.publish('RATE_LIMIT_HIT', {
      provider: String(now()),
      kind: 'rate_limited',
      affected_agents: [],
      hit_at: new Date().toISOString(),
      resume_at: new Date().toISOString(),
      retry_after_seconds: null,
      probe_failures: 0,
    });
    answer({ published: true });
  } else if (command === 'exit') {
    break;
  }
}
await server.close();
process.exit(0);
