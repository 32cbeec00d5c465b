import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { requestLogger } from './request-logger.js';

/** A Fastify app at `level` whose log lines land in `lines`, with a route that logs at each level. */
async function appAt(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line)) };
  const app = Fastify({
    logger: { level, stream },
    childLoggerFactory: requestLogger,
    genReqId: () => 'req-1',
  });
  app.get('/', async (request) => {
    request.log.debug('a debug line');
    request.log.info({ extra: 1 }, 'an info line');
    request.log.child({ step: 'inner' }).warn('a child line');
    return { level: request.log.level };
  });
  await app.ready();
  return { app, lines };
}

describe('the lazy request logger', () => {
  it('writes the lines the level lets through, each bound to the request id', async () => {
    const { app, lines } = await appAt('info');
    const response = await app.inject({ url: '/' });
    expect(response.json()).toEqual({ level: 'info' });
    const mine = lines.filter((line) => typeof line.msg === 'string' && /line$/.test(line.msg));
    expect(mine.map((line) => line.msg)).toEqual(['an info line', 'a child line']);
    expect(mine[0]).toMatchObject({ reqId: 'req-1', extra: 1, level: 30 });
    expect(mine[1]).toMatchObject({ reqId: 'req-1', step: 'inner', level: 40 });
    await app.close();
  });

  it('writes debug lines when the level is debug', async () => {
    const { app, lines } = await appAt('debug');
    await app.inject({ url: '/' });
    expect(lines.find((line) => line.msg === 'a debug line')).toMatchObject({ reqId: 'req-1', level: 20 });
    await app.close();
  });
});
