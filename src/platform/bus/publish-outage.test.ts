/**
 * Publishing while Redis is unreachable (a real ioredis client, nothing listening): the event is
 * dropped and `publish` resolves — the write that raised it has committed — and the outage is
 * logged once, not once per event.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { openRedisCache } from '../cache/redis.js';
import { EventBus } from './event-bus.js';

describe('the event bus while Redis is unreachable', () => {
  it('drops publications without failing them, and warns once', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise((resolve) => server.close(resolve));
    const cache = await openRedisCache({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 300 });
    try {
      const bus = new EventBus({ cache });
      const warnings: string[] = [];
      bus.useLogger({ warn: (_data, message) => warnings.push(message), info() {} });
      for (let i = 0; i < 3; i++) {
        const event = await bus.publish('TASK_CHANGED', { task_id: `t${i}` } as never);
        expect(event.type).toBe('TASK_CHANGED');
      }
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/event bus.*dropped.*unreachable/);
    } finally {
      await cache.close();
    }
  });
});
