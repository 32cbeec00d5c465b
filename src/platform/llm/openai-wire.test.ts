import { describe, expect, it } from 'vitest';
import {
  maxTokensField,
  parseArguments,
  stopReasonOf,
  stopReasonWithTools,
  toChatMessages,
  toChatParams,
} from './openai-wire.js';

describe('OpenAI wire mapping', () => {
  it('uses max_completion_tokens for api.openai.com only', () => {
    expect(maxTokensField('https://api.openai.com/v1')).toBe('max_completion_tokens');
    expect(maxTokensField('http://127.0.0.1:11434/v1')).toBe('max_tokens');
    expect(maxTokensField('https://openrouter.ai/api/v1')).toBe('max_tokens');
    expect(toChatParams({ messages: [] }, 'gpt', 'max_completion_tokens')).toMatchObject({
      max_completion_tokens: 1024,
    });
  });

  it('puts tool results before the text of the same user turn, errors marked', () => {
    expect(
      toChatMessages({
        system: 'sys',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'c1', content: 'boom', is_error: true },
              { type: 'tool_result', tool_use_id: 'c2', content: 'ok' },
              { type: 'text', text: 'and now?' },
            ],
          },
          { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
        ],
      }),
    ).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'tool', tool_call_id: 'c1', content: 'Error: boom' },
      { role: 'tool', tool_call_id: 'c2', content: 'ok' },
      { role: 'user', content: 'and now?' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });

  it('maps finish reasons, a tool-calling reply that says stop being tool_use', () => {
    expect(stopReasonOf('stop')).toBe('end_turn');
    expect(stopReasonOf('length')).toBe('max_tokens');
    expect(stopReasonOf('tool_calls')).toBe('tool_use');
    expect(stopReasonOf('content_filter')).toBe('refusal');
    expect(stopReasonOf(null)).toBe('other');
    expect(stopReasonWithTools('end_turn', 1)).toBe('tool_use');
    expect(stopReasonWithTools('max_tokens', 1)).toBe('max_tokens');
    expect(stopReasonWithTools('end_turn', 0)).toBe('end_turn');
  });

  it('parses tool arguments, keeping a non-JSON string as sent', () => {
    expect(parseArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseArguments('')).toEqual({});
    expect(parseArguments('{"a":')).toBe('{"a":');
  });
});
