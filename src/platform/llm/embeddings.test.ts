import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlm, startFakeLlm } from '../../../test/support/fake-llm/index.js';
import { ProviderRateLimitError } from '../http/errors.js';
import { createEmbeddingClient } from './embeddings.js';
import { rejection } from './test-helpers.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(async () => {
  await fake.close();
});

const client = (overrides: { apiKey?: string; dimensions?: number; timeoutMs?: number } = {}) =>
  createEmbeddingClient({
    kind: 'openai',
    baseUrl: `${fake.url}/v1`,
    apiKey: 'test-key',
    model: 'fake-embed',
    timeoutMs: 10_000,
    ...overrides,
  });

describe('embedding client (OpenAI-compatible /embeddings)', () => {
  it('embeds texts in input order as float vectors, equal texts alike, and counts the tokens', async () => {
    const before = fake.requests.length;
    const result = await client().embed(['retry after', 'usage ledger', 'retry after']);
    expect(result.vectors).toHaveLength(3);
    expect(result.vectors[0]).toHaveLength(8);
    expect(result.vectors[0]).toEqual(result.vectors[2]);
    expect(result.vectors[0]).not.toEqual(result.vectors[1]);
    expect(result).toMatchObject({ model: 'fake-embed', usage: { input_tokens: 6 } });
    const sent = fake.requests[before]!;
    expect(sent.path).toBe('/v1/embeddings');
    expect(sent.apiKey).toBe('test-key');
    expect(sent.body).toEqual({
      model: 'fake-embed',
      input: ['retry after', 'usage ledger', 'retry after'],
      encoding_format: 'float',
    });
  });

  it('asks for shortened vectors when dimensions are configured', async () => {
    const result = await client({ dimensions: 4 }).embed(['x']);
    expect(result.vectors[0]).toHaveLength(4);
  });

  it('sends nothing for no texts', async () => {
    const before = fake.requests.length;
    expect(await client().embed([])).toEqual({
      vectors: [],
      model: 'fake-embed',
      usage: { input_tokens: 0 },
    });
    expect(fake.requests.length).toBe(before);
  });

  it('fails with the same error family: 429 throttle, 401 authentication, hang timeout', async () => {
    fake.script({ kind: 'rate_limited', retryAfter: '11' });
    const limited = await rejection(client().embed(['a']));
    expect(limited).toBeInstanceOf(ProviderRateLimitError);
    expect(limited).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 11 });
    expect(await rejection(client({ apiKey: 'bad' }).embed(['a']))).toMatchObject({ kind: 'authentication' });
    fake.script({ kind: 'hang' });
    expect(await rejection(client({ timeoutMs: 300 }).embed(['a']))).toMatchObject({ kind: 'timeout' });
  });
});
