/**
 * What the three adapters promise alike, each driven through its real client (the official SDK; fetch for Gemini) against the fake provider:
 * throttles with their Retry-After, auth failures, timeouts, cancellation that closes the
 * connection, probes, no SDK retries, and the HTTP mapping a domain route gets for free.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSED_PORT } from '../../../test/support/closed-port.js';
import { type FakeLlm, startFakeLlm } from '../../../test/support/fake-llm/index.js';
import { registerConventions } from '../http/conventions.js';
import { ProviderRateLimitError } from '../http/errors.js';
import { ModelCallError, ModelThrottledError } from './errors.js';
import { clientOn, drain, rejection } from './test-helpers.js';
import type { ModelRequest, ProviderKind } from './types.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(async () => {
  await fake.close();
});

const ask: ModelRequest = { messages: [{ role: 'user', content: 'hello' }] };

describe.each<ProviderKind>(['openai', 'anthropic', 'gemini'])('%s adapter failures', (kind) => {
  /** The provider's base URL on a port nothing listens on. */
  const nothingThere = `http://127.0.0.1:${CLOSED_PORT}${kind === 'openai' ? '/v1' : ''}`;

  it('a 429 with Retry-After in seconds is a rate-limit throttle, tried once (SDK retries off)', async () => {
    fake.script({ kind: 'rate_limited', retryAfter: '30' });
    const before = fake.requests.length;
    const error = await rejection(clientOn(fake, kind).complete(ask));
    expect(error).toBeInstanceOf(ProviderRateLimitError);
    expect(error).toBeInstanceOf(ModelThrottledError);
    expect(error).toMatchObject({ kind: 'rate_limited', provider: kind, retryAfterSeconds: 30, status: 429 });
    expect(fake.requests.length - before).toBe(1);
  });

  it('a 429 with Retry-After as an HTTP-date gives the seconds until then', async () => {
    fake.script({ kind: 'rate_limited', retryAfter: new Date(Date.now() + 120_000).toUTCString() });
    const error = (await rejection(clientOn(fake, kind).complete(ask))) as ModelThrottledError;
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(110);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(120);
  });

  it('a 429 with retry-after-ms is read in whole seconds, on a stream too', async () => {
    fake.script({ kind: 'rate_limited', retryAfterMs: '2500', retryAfter: '60' });
    const error = await rejection(drain(clientOn(fake, kind).stream(ask)));
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 3 });
  });

  it('529 overloaded_error and 503 are overloaded throttles', async () => {
    fake.script({ kind: 'overloaded', status: 529 }, { kind: 'overloaded', status: 503, retryAfter: '5' });
    const client = clientOn(fake, kind);
    expect(await rejection(client.complete(ask))).toMatchObject({ kind: 'overloaded', status: 529 });
    const second = await rejection(drain(client.stream(ask)));
    expect(second).toBeInstanceOf(ProviderRateLimitError);
    expect(second).toMatchObject({ kind: 'overloaded', status: 503, retryAfterSeconds: 5 });
  });

  it('a wrong key is an authentication error (401) and the key went out on the wire', async () => {
    const before = fake.requests.length;
    const error = await rejection(clientOn(fake, kind, { apiKey: 'wrong-key' }).complete(ask));
    expect(error).toBeInstanceOf(ModelCallError);
    expect(error).toMatchObject({
      kind: 'authentication',
      status: 401,
      code: 'provider_authentication_failed',
    });
    expect(fake.requests[before]!.apiKey).toBe('wrong-key');
    expect((error as Error).message).not.toContain('wrong-key');
  });

  it('a 400 is a bad request with the provider’s words', async () => {
    fake.script({
      kind: 'error',
      status: 400,
      type: 'invalid_request_error',
      message: 'max_tokens is too large',
    });
    const error = await rejection(clientOn(fake, kind).complete(ask));
    expect(error).toMatchObject({ kind: 'bad_request', status: 400 });
    expect((error as Error).message).toContain('max_tokens is too large');
  });

  it('a provider that never answers times out', async () => {
    fake.script({ kind: 'hang' });
    const error = await rejection(clientOn(fake, kind, { timeoutMs: 300 }).complete(ask));
    expect(error).toMatchObject({ kind: 'timeout', statusCode: 504 });
  });

  it('a stream that goes silent after its first chunks times out, keeping what came', async () => {
    fake.script({ kind: 'reply', text: ['one', 'two', 'three'], hangAfterChunks: 2 });
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of clientOn(fake, kind).stream(ask, { timeoutMs: 300 })) {
          if (event.type === 'text_delta') seen.push(event.text);
        }
      })(),
    );
    expect(seen).toEqual(['one', 'two']);
    expect(error).toMatchObject({ kind: 'timeout' });
  });

  it('aborting mid-stream cancels the call and the server sees the connection close', async () => {
    fake.script({ kind: 'reply', text: ['first', 'second', 'third'], hangAfterChunks: 1 });
    const before = fake.requests.length;
    const controller = new AbortController();
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of clientOn(fake, kind).stream(ask, { signal: controller.signal })) {
          if (event.type === 'text_delta') {
            seen.push(event.text);
            controller.abort();
          }
        }
      })(),
    );
    expect(seen).toEqual(['first']);
    expect(error).toMatchObject({ kind: 'cancelled' });
    await fake.requests[before]!.disconnected;
    expect(fake.requests[before]!.clientClosed).toBe(true);
  });

  it('a caller that stops reading a stream closes the connection', async () => {
    fake.script({ kind: 'reply', text: ['a', 'b', 'c'], hangAfterChunks: 2 });
    const before = fake.requests.length;
    for await (const event of clientOn(fake, kind).stream(ask)) {
      if (event.type === 'text_delta') break;
    }
    await fake.requests[before]!.disconnected;
    expect(fake.requests[before]!.clientClosed).toBe(true);
  });

  it('an already aborted signal cancels before anything is sent', async () => {
    const before = fake.requests.length;
    const error = await rejection(clientOn(fake, kind).complete(ask, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ kind: 'cancelled' });
    expect(fake.requests.length).toBe(before);
  });

  it('a server that is not there is unreachable', async () => {
    const error = await rejection(clientOn(fake, kind, { baseUrl: nothingThere }).complete(ask));
    expect(error).toMatchObject({ kind: 'unreachable', code: 'provider_unreachable' });
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('probes: the models list, then a one-token completion', async () => {
    const client = clientOn(fake, kind);
    expect(await client.probe()).toEqual({ ok: true, mode: 'models', model_count: 2, model_listed: true });
    const before = fake.requests.length;
    expect(await client.probe({ mode: 'completion' })).toEqual({ ok: true, mode: 'completion' });
    const sent = fake.requests[before]!.body as {
      max_tokens?: number;
      generationConfig?: { maxOutputTokens?: number };
    };
    expect(kind === 'gemini' ? sent.generationConfig?.maxOutputTokens : sent.max_tokens).toBe(1);
  });

  it('a failing probe says why instead of throwing: wrong key, rate limit, unreachable', async () => {
    const denied = await clientOn(fake, kind, { apiKey: 'nope' }).probe();
    expect(denied).toMatchObject({
      ok: false,
      mode: 'models',
      error: { kind: 'authentication', status: 401 },
    });
    fake.script({ kind: 'rate_limited', retryAfter: '9' });
    const limited = await clientOn(fake, kind).probe({ mode: 'completion' });
    expect(limited).toMatchObject({
      ok: false,
      mode: 'completion',
      error: { kind: 'rate_limited', status: 429, retry_after_seconds: 9 },
    });
    expect(await clientOn(fake, kind, { baseUrl: nothingThere }).probe()).toMatchObject({
      ok: false,
      error: { kind: 'unreachable' },
    });
  });
});

describe('a throttle inside a domain route', () => {
  it('answers 429 with Retry-After through the HTTP conventions; a timeout answers 504', async () => {
    const app = Fastify();
    registerConventions(app);
    const client = clientOn(fake, 'anthropic', { timeoutMs: 300 });
    app.get('/ask', async () => client.complete(ask));
    try {
      fake.script({ kind: 'rate_limited', retryAfter: '42' });
      const limited = await app.inject({ method: 'GET', url: '/ask' });
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBe('42');
      expect(limited.json().error).toMatchObject({
        code: 'rate_limit_exceeded',
        details: { provider: 'anthropic', retry_after_seconds: 42 },
      });
      fake.script({ kind: 'hang' });
      const slow = await app.inject({ method: 'GET', url: '/ask' });
      expect(slow.statusCode).toBe(504);
      expect(slow.json().error.code).toBe('provider_timeout');
    } finally {
      await app.close();
    }
  });
});
