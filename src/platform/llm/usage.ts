/**
 * Token usage normalised to one meaning (pure): `input_tokens` is the uncached part of the prompt
 * on every wire. OpenAI counts cached (and cache-written) tokens inside `prompt_tokens`; Anthropic
 * counts them apart from `input_tokens`.
 */
import type { ModelUsage, UsageListener } from './types.js';

export const ZERO_USAGE: ModelUsage = Object.freeze({
  input_tokens: 0,
  output_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
});

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;

/** OpenAI Chat Completions `usage` (prompt_tokens includes prompt_tokens_details.cached_tokens). */
export function usageFromOpenAi(
  usage:
    | {
        prompt_tokens?: number | null;
        completion_tokens?: number | null;
        prompt_tokens_details?: { cached_tokens?: number | null; cache_write_tokens?: number | null } | null;
      }
    | null
    | undefined,
): ModelUsage {
  if (!usage) return { ...ZERO_USAGE };
  const cacheRead = count(usage.prompt_tokens_details?.cached_tokens);
  const cacheWrite = count(usage.prompt_tokens_details?.cache_write_tokens);
  return {
    input_tokens: Math.max(0, count(usage.prompt_tokens) - cacheRead - cacheWrite),
    output_tokens: count(usage.completion_tokens),
    cache_read_tokens: cacheRead,
    cache_write_tokens: cacheWrite,
  };
}

export interface AnthropicUsageLike {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/** Anthropic Messages `usage` (input_tokens excludes cache reads and writes). */
export function usageFromAnthropic(usage: AnthropicUsageLike | null | undefined): ModelUsage {
  if (!usage) return { ...ZERO_USAGE };
  return {
    input_tokens: count(usage.input_tokens),
    output_tokens: count(usage.output_tokens),
    cache_read_tokens: count(usage.cache_read_input_tokens),
    cache_write_tokens: count(usage.cache_creation_input_tokens),
  };
}

/**
 * Anthropic streams usage twice: `message_start` (input and cache counts) and `message_delta`
 * (cumulative output, and sometimes updated input counts). A field the later one carries wins.
 */
export function mergeAnthropicUsage(
  base: AnthropicUsageLike | null | undefined,
  later: AnthropicUsageLike | null | undefined,
): AnthropicUsageLike {
  const merged: AnthropicUsageLike = { ...(base ?? {}) };
  for (const key of [
    'input_tokens',
    'output_tokens',
    'cache_read_input_tokens',
    'cache_creation_input_tokens',
  ] as const) {
    const value = later?.[key];
    if (typeof value === 'number') merged[key] = value;
  }
  return merged;
}

export function addUsage(a: ModelUsage, b: ModelUsage): ModelUsage {
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    cache_read_tokens: a.cache_read_tokens + b.cache_read_tokens,
    cache_write_tokens: a.cache_write_tokens + b.cache_write_tokens,
  };
}

/** Tells `listener` (if any) a finished call's usage; a listener that throws does not fail the call. */
export function reportUsage(
  listener: UsageListener | undefined,
  provider: string,
  model: string,
  usage: ModelUsage,
): void {
  if (!listener) return;
  try {
    listener({ provider, model, usage: { ...usage } });
  } catch {
    // The call succeeded; what a listener does with its usage is its own business.
  }
}
