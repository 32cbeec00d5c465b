import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeLlm, startFakeLlm } from '../../../test/support/fake-llm/index.js';
import { clientOn, drain } from './test-helpers.js';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(async () => {
  await fake.close();
});

const weather = {
  name: 'get_weather',
  description: 'The weather in a city',
  input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('openai adapter (Chat Completions wire)', () => {
  it('completes: sends the key, the system prompt and max_tokens; returns text, stop reason and usage', async () => {
    fake.script({
      kind: 'reply',
      text: ['The answer', ' is 42.'],
      usage: { input_tokens: 20, output_tokens: 7, cache_read_tokens: 300 },
    });
    const before = fake.requests.length;
    const reply = await clientOn(fake, 'openai').complete({
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'What is the answer?' }],
      maxTokens: 64,
    });
    expect(reply).toEqual({
      text: 'The answer is 42.',
      toolCalls: [],
      stopReason: 'end_turn',
      usage: { input_tokens: 20, output_tokens: 7, cache_read_tokens: 300, cache_write_tokens: 0 },
      model: 'fake-small',
    });
    const sent = fake.requests[before]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer test-key');
    expect(sent.body).toMatchObject({
      model: 'fake-small',
      max_tokens: 64,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'What is the answer?' },
      ],
    });
    expect(sent.body.stream).not.toBe(true);
  });

  it('streams text deltas in order, then one stop with the usage chunk (include_usage asked for)', async () => {
    fake.script({
      kind: 'reply',
      text: ['Once', ' upon', ' a', ' time'],
      usage: { input_tokens: 5, output_tokens: 4, cache_read_tokens: 64, cache_write_tokens: 16 },
    });
    const before = fake.requests.length;
    const events = await drain(
      clientOn(fake, 'openai').stream({ messages: [{ role: 'user', content: 'Tell a story' }] }),
    );
    expect(events).toEqual([
      { type: 'text_delta', text: 'Once' },
      { type: 'text_delta', text: ' upon' },
      { type: 'text_delta', text: ' a' },
      { type: 'text_delta', text: ' time' },
      {
        type: 'stop',
        stopReason: 'end_turn',
        usage: { input_tokens: 5, output_tokens: 4, cache_read_tokens: 64, cache_write_tokens: 16 },
        model: 'fake-small',
      },
    ]);
    expect(fake.requests[before]!.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('surfaces tool calls, streamed and whole, and sends tools and tool results in the wire shape', async () => {
    fake.script(
      { kind: 'reply', toolUses: [{ id: 'call_a', name: 'get_weather', input: { city: 'Oslo' } }] },
      { kind: 'reply', toolUses: [{ id: 'call_b', name: 'get_weather', input: { city: 'Rome' } }] },
    );
    const client = clientOn(fake, 'openai');
    const before = fake.requests.length;
    const events = await drain(
      client.stream({ messages: [{ role: 'user', content: 'Weather?' }], tools: [weather] }),
    );
    expect(events.filter((e) => e.type !== 'stop')).toEqual([
      { type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Oslo' } },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'stop', stopReason: 'tool_use' });

    const reply = await client.complete({
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Oslo' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_a', content: 'sunny' }] },
      ],
      tools: [weather],
    });
    expect(reply.toolCalls).toEqual([{ id: 'call_b', name: 'get_weather', input: { city: 'Rome' } }]);
    expect(reply.stopReason).toBe('tool_use');
    const sent = fake.requests[before + 1]!.body;
    expect(sent.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'The weather in a city',
          parameters: weather.input_schema,
        },
      },
    ]);
    expect(sent.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'sunny' },
    ]);
  });

  it('works without a key for a local server that asks for none', async () => {
    const open = await startFakeLlm({ apiKey: 'no-key' });
    try {
      const reply = await clientOn(open, 'openai', { apiKey: undefined }).complete({
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(reply.text).toBe('Hello from the fake provider.');
    } finally {
      await open.close();
    }
  });

  it('fails a stream that breaks off with an error chunk, keeping the deltas already given', async () => {
    fake.script({ kind: 'reply', text: ['a', 'b', 'c'], failAfterChunks: 1 });
    const seen: string[] = [];
    let failure: unknown;
    try {
      for await (const event of clientOn(fake, 'openai').stream({
        messages: [{ role: 'user', content: 'x' }],
      })) {
        if (event.type === 'text_delta') seen.push(event.text);
      }
    } catch (error) {
      failure = error;
    }
    expect(seen).toEqual(['a']);
    expect(failure).toMatchObject({ kind: 'provider_error' });
  });
});
