import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlm, startFakeLlm } from '../../../test/support/fake-llm/index.js';
import { ProviderRateLimitError } from '../http/errors.js';
import { clientOn, drain, rejection } from './test-helpers.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(async () => {
  await fake.close();
});

const search = {
  name: 'search_docs',
  input_schema: { type: 'object', properties: { query: { type: 'string' } } },
};

describe('gemini adapter (the Gemini API)', () => {
  it('completes: the key in x-goog-api-key, the system prompt as systemInstruction, usage with the cached part apart', async () => {
    fake.script({
      kind: 'reply',
      text: ['Bonjour', ' le monde'],
      usage: { input_tokens: 30, output_tokens: 6, cache_read_tokens: 1200 },
    });
    const before = fake.requests.length;
    const reply = await clientOn(fake, 'gemini').complete({
      system: 'Answer in French.',
      messages: [{ role: 'user', content: 'Hello world' }],
      maxTokens: 50,
      stopSequences: ['END'],
    });
    expect(reply).toEqual({
      text: 'Bonjour le monde',
      toolCalls: [],
      stopReason: 'end_turn',
      usage: { input_tokens: 30, output_tokens: 6, cache_read_tokens: 1200, cache_write_tokens: 0 },
      model: 'fake-small',
    });
    const sent = fake.requests[before]!;
    expect(sent.path).toBe('/v1beta/models/fake-small:generateContent');
    expect(sent.apiKey).toBe('test-key');
    expect(sent.body).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'Hello world' }] }],
      systemInstruction: { parts: [{ text: 'Answer in French.' }] },
      generationConfig: { maxOutputTokens: 50, stopSequences: ['END'] },
    });
  });

  it('streams text chunks in order on the call’s own model and ends with the last chunk’s usage', async () => {
    fake.script({
      kind: 'reply',
      text: ['One', ', two', ', three'],
      usage: { input_tokens: 9, output_tokens: 3 },
    });
    const before = fake.requests.length;
    const events = await drain(
      clientOn(fake, 'gemini').stream({
        messages: [{ role: 'user', content: 'Count' }],
        model: 'fake-large',
      }),
    );
    expect(fake.requests[before]!.path).toBe('/v1beta/models/fake-large:streamGenerateContent');
    expect(events).toEqual([
      { type: 'text_delta', text: 'One' },
      { type: 'text_delta', text: ', two' },
      { type: 'text_delta', text: ', three' },
      {
        type: 'stop',
        stopReason: 'end_turn',
        usage: { input_tokens: 9, output_tokens: 3, cache_read_tokens: 0, cache_write_tokens: 0 },
        model: 'fake-large',
      },
    ]);
  });

  it('surfaces function calls as tool uses and answers them with functionResponse parts named after the call', async () => {
    fake.script(
      { kind: 'reply', text: 'Let me look.', toolUses: [{ name: 'search_docs', input: { query: 'retry' } }] },
      { kind: 'reply', toolUses: [{ name: 'search_docs', input: { query: 'usage' } }] },
    );
    const client = clientOn(fake, 'gemini');
    const events = await drain(
      client.stream({ messages: [{ role: 'user', content: 'Find it' }], tools: [search] }),
    );
    expect(events.filter((e) => e.type !== 'stop')).toEqual([
      { type: 'text_delta', text: 'Let me look.' },
      { type: 'tool_use', id: 'call_1', name: 'search_docs', input: { query: 'retry' } },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'stop', stopReason: 'tool_use' });

    const before = fake.requests.length;
    const reply = await client.complete({
      messages: [
        { role: 'user', content: 'Find it' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'call_1', name: 'search_docs', input: { query: 'retry' } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'nothing', is_error: true }],
        },
      ],
      tools: [search],
    });
    expect(reply).toMatchObject({
      toolCalls: [{ id: 'call_1', name: 'search_docs', input: { query: 'usage' } }],
      stopReason: 'tool_use',
    });
    const sent = fake.requests[before]!.body;
    expect(sent.tools).toEqual([
      { functionDeclarations: [{ name: 'search_docs', parametersJsonSchema: search.input_schema }] },
    ]);
    expect(sent.contents).toEqual([
      { role: 'user', parts: [{ text: 'Find it' }] },
      {
        role: 'model',
        parts: [{ functionCall: { id: 'call_1', name: 'search_docs', args: { query: 'retry' } } }],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'call_1', name: 'search_docs', response: { error: 'nothing' } } }],
      },
    ]);
  });

  it('turns an error chunk in the middle of a stream into an overloaded throttle, keeping what came', async () => {
    fake.script({ kind: 'reply', text: ['a', 'b', 'c'], failAfterChunks: 2 });
    const seen: string[] = [];
    const failure = await rejection(
      (async () => {
        for await (const event of clientOn(fake, 'gemini').stream({
          messages: [{ role: 'user', content: 'x' }],
        })) {
          if (event.type === 'text_delta') seen.push(event.text);
        }
      })(),
    );
    expect(seen).toEqual(['a', 'b']);
    expect(failure).toBeInstanceOf(ProviderRateLimitError);
    expect(failure).toMatchObject({ kind: 'overloaded', provider: 'gemini' });
  });

  it('a safety stop is a refusal; a model the provider does not list is said so by the probe', async () => {
    fake.script({ kind: 'reply', text: '', stopReason: 'SAFETY' });
    const reply = await clientOn(fake, 'gemini').complete({ messages: [{ role: 'user', content: 'x' }] });
    expect(reply.stopReason).toBe('refusal');
    expect(await clientOn(fake, 'gemini', { model: 'gemini-9-ultra' }).probe()).toEqual({
      ok: true,
      mode: 'models',
      model_count: 2,
      model_listed: false,
    });
  });
});
