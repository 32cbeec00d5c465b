import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loggerOptions, prettyLogs } from './logging.js';

describe('log format', () => {
  it('auto pretty-prints on a terminal only; json and pretty are what they say', () => {
    expect(prettyLogs('auto', true)).toBe(true);
    expect(prettyLogs('auto', false)).toBe(false);
    expect(prettyLogs('json', true)).toBe(false);
    expect(prettyLogs('pretty', false)).toBe(true);
  });

  it('json leaves pino its JSON lines; pretty turns a line into the level, the message and the fields', async () => {
    expect(
      loggerOptions(
        { logLevel: 'info', logFormat: 'json' },
        Object.assign(new PassThrough(), { isTTY: true }),
      ),
    ).not.toHaveProperty('stream');
    const out = new PassThrough();
    const options = loggerOptions({ logLevel: 'debug', logFormat: 'pretty' }, out);
    expect(options).toMatchObject({ level: 'debug' });
    const stream = options.stream as NodeJS.WritableStream;
    stream.write(
      `${JSON.stringify({ level: 30, time: Date.now(), pid: 1, hostname: 'h', msg: 'Server listening', port: 8420 })}\n`,
    );
    const [chunk] = (await new Promise((resolve) => out.once('data', (c) => resolve([c])))) as [Buffer];
    const line = chunk.toString();
    expect(line).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: Server listening\n\s+port: 8420/);
    expect(line).not.toContain('hostname');
  });
});
