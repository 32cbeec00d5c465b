/**
 * The baseline target for ws-fanout, run as its own process like bench/ws-server.ts: a bare
 * `WebSocketServer` from the `ws` package with nothing else, speaking the same stdin protocol
 * (`rss`, `count`, `publish`, `exit`). Each socket gets a `connected` frame first; `publish`
 * serializes the same RATE_LIMIT_HIT frame Gaffer's /ws/system sends, once, and hands it to every
 * open socket.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { WebSocket, WebSocketServer } from 'ws';
import { settledMemory } from './support.js';

const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/ws/system' });
await once(wss, 'listening');
wss.on('connection', (ws) => ws.send(JSON.stringify({ type: 'connected', stream: 'system' })));
const now = () => performance.timeOrigin + performance.now();
const answer = (data: object) => console.log(JSON.stringify(data));
answer({ port: (wss.address() as { port: number }).port });

for await (const line of createInterface({ input: process.stdin })) {
  const command = line.trim();
  if (command === 'rss') {
    answer(await settledMemory());
  } else if (command === 'count') {
    answer({ system: wss.clients.size });
  } else if (command === 'publish') {
    const time = new Date().toISOString();
    const text = JSON.stringify({
      provider: String(now()),
      kind: 'rate_limited',
      affected_agents: [],
      hit_at: time,
      resume_at: time,
      retry_after_seconds: null,
      probe_failures: 0,
      type: 'RATE_LIMIT_HIT',
    });
    for (const ws of wss.clients) if (ws.readyState === WebSocket.OPEN) ws.send(text);
    answer({ published: true });
  } else if (command === 'exit') {
    break;
  }
}
for (const ws of wss.clients) ws.terminate();
wss.close();
process.exit(0);
