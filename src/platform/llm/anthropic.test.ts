import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlm, startFakeLlm } from '../../../test/support/fake-llm/index.js';
import { ProviderRateLimitError } from '../http/errors.js';
import { clientOn, drain } from './test-helpers.js';

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

describe('anthropic adapter (Messages wire)', () => {
  it('completes: sends the key, anthropic-version, system and max_tokens; returns text and usage with cache tokens', async () => {
    fake.script({
      kind: 'reply',
      text: ['Bonjour', ' le monde'],
      usage: { input_tokens: 30, output_tokens: 6, cache_read_tokens: 1200, cache_write_tokens: 80 },
    });
    const before = fake.requests.length;
    const reply = await clientOn(fake, 'anthropic').complete({
      system: 'Answer in French.',
      messages: [{ role: 'user', content: 'Hello world' }],
      maxTokens: 50,
    });
    expect(reply).toEqual({
      text: 'Bonjour le monde',
      toolCalls: [],
      stopReason: 'end_turn',
      usage: { input_tokens: 30, output_tokens: 6, cache_read_tokens: 1200, cache_write_tokens: 80 },
      model: 'fake-small',
    });
    const sent = fake.requests[before]!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.apiKey).toBe('test-key');
    expect(sent.headers['anthropic-version']).toBeTruthy();
    expect(sent.body).toMatchObject({
      model: 'fake-small',
      max_tokens: 50,
      system: 'Answer in French.',
      messages: [{ role: 'user', content: 'Hello world' }],
    });
  });

  it('streams text deltas in order and ends with the usage of message_start and message_delta', async () => {
    fake.script({
      kind: 'reply',
      text: ['One', ', two', ', three'],
      usage: { input_tokens: 9, output_tokens: 3, cache_read_tokens: 500, cache_write_tokens: 40 },
    });
    const events = await drain(
      clientOn(fake, 'anthropic').stream({
        messages: [{ role: 'user', content: 'Count' }],
        model: 'fake-large',
      }),
    );
    expect(events).toEqual([
      { type: 'text_delta', text: 'One' },
      { type: 'text_delta', text: ', two' },
      { type: 'text_delta', text: ', three' },
      {
        type: 'stop',
        stopReason: 'end_turn',
        usage: { input_tokens: 9, output_tokens: 3, cache_read_tokens: 500, cache_write_tokens: 40 },
        model: 'fake-large',
      },
    ]);
  });

  it('marks the system prompt cacheable when asked', async () => {
    const before = fake.requests.length;
    await clientOn(fake, 'anthropic').complete({
      system: 'A long briefing.',
      cacheSystemPrompt: true,
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(fake.requests[before]!.body.system).toEqual([
      { type: 'text', text: 'A long briefing.', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('surfaces tool use from streamed input_json_delta pieces and from a whole reply; sends tool results as blocks', async () => {
    fake.script(
      {
        kind: 'reply',
        text: 'Let me look.',
        toolUses: [{ id: 'toolu_1', name: 'search_docs', input: { query: 'retry' } }],
      },
      { kind: 'reply', toolUses: [{ id: 'toolu_2', name: 'search_docs', input: { query: 'usage' } }] },
    );
    const client = clientOn(fake, 'anthropic');
    const events = await drain(
      client.stream({ messages: [{ role: 'user', content: 'Find it' }], tools: [search] }),
    );
    expect(events.filter((e) => e.type !== 'stop')).toEqual([
      { type: 'text_delta', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_1', name: 'search_docs', input: { query: 'retry' } },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'stop', stopReason: 'tool_use' });

    const before = fake.requests.length;
    const reply = await client.complete({
      messages: [
        { role: 'user', content: 'Find it' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'search_docs', input: { query: 'retry' } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'nothing', is_error: true }],
        },
      ],
      tools: [search],
    });
    expect(reply.toolCalls).toEqual([{ id: 'toolu_2', name: 'search_docs', input: { query: 'usage' } }]);
    const sent = fake.requests[before]!.body;
    expect(sent.tools).toEqual([{ name: 'search_docs', input_schema: search.input_schema }]);
    expect(sent.messages).toEqual([
      { role: 'user', content: 'Find it' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'search_docs', input: { query: 'retry' } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'nothing', is_error: true }],
      },
    ]);
  });

  it('turns an overloaded_error event in the middle of a stream into an overloaded throttle', async () => {
    fake.script({ kind: 'reply', text: ['a', 'b', 'c'], failAfterChunks: 2 });
    const seen: string[] = [];
    let failure: unknown;
    try {
      for await (const event of clientOn(fake, 'anthropic').stream({
        messages: [{ role: 'user', content: 'x' }],
      })) {
        if (event.type === 'text_delta') seen.push(event.text);
      }
    } catch (error) {
      failure = error;
    }
    expect(seen).toEqual(['a', 'b']);
    expect(failure).toBeInstanceOf(ProviderRateLimitError);
    expect(failure).toMatchObject({ kind: 'overloaded', provider: 'anthropic' });
  });
});
