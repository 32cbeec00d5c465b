import { describe, expect, it } from 'vitest';
import { stopReasonOf, toMessageParams } from './anthropic-wire.js';

describe('Anthropic wire mapping', () => {
  it('sends the system prompt plain, or as a cacheable block when asked; tools as object schemas', () => {
    const plain = toMessageParams({ system: 's', messages: [{ role: 'user', content: 'q' }] }, 'claude');
    expect(plain).toEqual({
      model: 'claude',
      max_tokens: 1024,
      system: 's',
      messages: [{ role: 'user', content: 'q' }],
    });
    const cached = toMessageParams(
      {
        system: 's',
        cacheSystemPrompt: true,
        messages: [],
        tools: [{ name: 't', input_schema: { properties: {} } }],
        stopSequences: ['END'],
        model: 'other',
        maxTokens: 5,
      },
      'claude',
    );
    expect(cached).toEqual({
      model: 'other',
      max_tokens: 5,
      messages: [],
      system: [{ type: 'text', text: 's', cache_control: { type: 'ephemeral' } }],
      stop_sequences: ['END'],
      tools: [{ name: 't', input_schema: { type: 'object', properties: {} } }],
    });
  });

  it('maps stop reasons', () => {
    expect(stopReasonOf('end_turn')).toBe('end_turn');
    expect(stopReasonOf('tool_use')).toBe('tool_use');
    expect(stopReasonOf('model_context_window_exceeded')).toBe('max_tokens');
    expect(stopReasonOf('pause_turn')).toBe('other');
    expect(stopReasonOf(null)).toBe('other');
  });
});
