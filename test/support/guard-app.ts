/**
 * Test support for the request-guard suites: the whole app listening on every interface (so a
 * client can come from loopback, through a "reverse proxy" on loopback with X-Forwarded-For, or from
 * a non-loopback address of this machine), with its log lines captured.
 */
import { networkInterfaces } from 'node:os';
import { Writable } from 'node:stream';
import { buildApp, type Gaffer } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { CEO_IDENTITY } from '../../src/platform/http/auth/identity.js';
import { staticToken } from '../../src/platform/http/auth/tokens.js';
import { createTestStores, type TestPlatform, type TestStores } from './stores.js';

export interface GuardTestApp extends Gaffer {
  platform: TestPlatform;
  port: number;
  ceoHeaders: Record<string, string>;
  /** Parsed log records so far. */
  logs(): Record<string, unknown>[];
  /** HTTP over loopback; `from` makes the loopback "proxy" forward for that client address. */
  call(path: string, options?: CallOptions): Promise<Answer>;
  /** HTTP from a non-loopback address of this machine (an untrusted peer), when there is one. */
  callFromPeer(path: string, options?: CallOptions): Promise<Answer>;
  close(): Promise<void>;
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The parsed JSON body (or the text when it is not JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely, like response.json()
  body: any;
}

export interface CallOptions {
  from?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** A non-internal IPv4 address of this machine, or undefined. */
export const peerAddress = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry && entry.family === 'IPv4' && !entry.internal)?.address;

export async function startGuardApp(
  options: { config?: Partial<Config>; stores?: TestStores } = {},
): Promise<GuardTestApp> {
  const ownsStores = !options.stores;
  const stores = options.stores ?? (await createTestStores());
  const platform = await stores.platform({ config: options.config });
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const gaffer = await buildApp(platform, { logger: { level: 'info', stream } });
  await gaffer.app.listen({ host: '0.0.0.0', port: 0 });
  const address = gaffer.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const request =
    (host: string) =>
    async (path: string, call: CallOptions = {}): Promise<Answer> => {
      const response = await fetch(`http://${host}:${port}${path}`, {
        method: call.method ?? 'GET',
        headers: {
          ...(call.from ? { 'x-forwarded-for': call.from } : {}),
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...call.headers,
        },
        ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      return { status: response.status, headers: response.headers, body };
    };
  return {
    ...gaffer,
    platform,
    port,
    ceoHeaders: { 'x-agent-token': staticToken(platform.secret, CEO_IDENTITY) },
    logs: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    call: request('127.0.0.1'),
    callFromPeer: request(peerAddress ?? '127.0.0.1'),
    async close() {
      await gaffer.app.close();
      await platform.close();
      if (ownsStores) await stores.dispose();
    },
  };
}

/** Waits (boundedly) until `check` holds: for effects that land after the response, like log lines. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never happened: ${what}`);
}

/** Log records the guard wrote for one rule and client address. */
export function guardRecords(app: GuardTestApp, rule: string, clientIp?: string) {
  return app.logs().filter((record) => {
    const guard = record.guard as { rule?: string; client_ip?: string } | undefined;
    return guard?.rule === rule && (clientIp === undefined || guard.client_ip === clientIp);
  });
}
