import { describe, expect, it } from 'vitest';
import { addUsage, mergeAnthropicUsage, usageFromAnthropic, usageFromOpenAi } from './usage.js';

describe('usage normalisation', () => {
  it('takes cached and cache-written tokens out of OpenAI prompt_tokens', () => {
    expect(
      usageFromOpenAi({
        prompt_tokens: 1000,
        completion_tokens: 50,
        prompt_tokens_details: { cached_tokens: 700, cache_write_tokens: 200 },
      }),
    ).toEqual({ input_tokens: 100, output_tokens: 50, cache_read_tokens: 700, cache_write_tokens: 200 });
  });

  it('reads an OpenAI usage without details, and none at all, as zeros where missing', () => {
    expect(usageFromOpenAi({ prompt_tokens: 12, completion_tokens: 3 })).toEqual({
      input_tokens: 12,
      output_tokens: 3,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
    });
    expect(usageFromOpenAi(null)).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
    });
  });

  it('keeps Anthropic input apart from cache reads and writes, nulls as zeros', () => {
    expect(
      usageFromAnthropic({
        input_tokens: 40,
        output_tokens: 9,
        cache_read_input_tokens: 300,
        cache_creation_input_tokens: null,
      }),
    ).toEqual({ input_tokens: 40, output_tokens: 9, cache_read_tokens: 300, cache_write_tokens: 0 });
  });

  it("merges Anthropic's message_start and message_delta usage, the later count winning", () => {
    const start = {
      input_tokens: 25,
      output_tokens: 1,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 5,
    };
    const delta = { output_tokens: 42, input_tokens: null };
    expect(usageFromAnthropic(mergeAnthropicUsage(start, delta))).toEqual({
      input_tokens: 25,
      output_tokens: 42,
      cache_read_tokens: 100,
      cache_write_tokens: 5,
    });
  });

  it('adds usages field by field', () => {
    const one = { input_tokens: 1, output_tokens: 2, cache_read_tokens: 3, cache_write_tokens: 4 };
    expect(addUsage(one, one)).toEqual({
      input_tokens: 2,
      output_tokens: 4,
      cache_read_tokens: 6,
      cache_write_tokens: 8,
    });
  });
});
