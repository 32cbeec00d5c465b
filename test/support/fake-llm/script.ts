/** What a test scripts the fake provider to answer, one reply per model request, in order. */

/** Token counts in Gaffer's terms; each wire renders them its own way. */
export interface FakeUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
}

export interface FakeToolUse {
  id?: string;
  name: string;
  input: Record<string, unknown>;
}

export type FakeReply =
  | {
      kind: 'reply';
      /** The text, streamed one element per chunk (a string is one chunk). */
      text?: string | string[];
      toolUses?: FakeToolUse[];
      usage?: Partial<FakeUsage>;
      /** openai finish_reason / anthropic stop_reason; defaults follow from the reply. */
      stopReason?: string;
      /** Wait before each streamed chunk. */
      chunkDelayMs?: number;
      /** Stream: after this many text chunks, stop writing and keep the connection open. */
      hangAfterChunks?: number;
      /** Stream: after this many text chunks, send an error event (overloaded) and end. */
      failAfterChunks?: number;
    }
  | {
      kind: 'rate_limited';
      /** The raw Retry-After value: delta-seconds or an HTTP-date. */
      retryAfter?: string;
      /** The raw retry-after-ms value. */
      retryAfterMs?: string;
    }
  /** Anthropic 529 overloaded_error by default, 503 on the OpenAI wire; `status` overrides. */
  | { kind: 'overloaded'; status?: number; retryAfter?: string }
  | { kind: 'error'; status: number; type?: string; message?: string }
  /** Read the request and never answer. */
  | { kind: 'hang' };

export const DEFAULT_TEXT = ['Hello', ' from', ' the', ' fake', ' provider.'];

export function textChunks(reply: Extract<FakeReply, { kind: 'reply' }>): string[] {
  if (reply.text === undefined) return reply.toolUses?.length ? [] : DEFAULT_TEXT;
  return typeof reply.text === 'string' ? [reply.text] : reply.text;
}

export function usageOf(reply: Extract<FakeReply, { kind: 'reply' }>): FakeUsage {
  return {
    input_tokens: 12,
    output_tokens: Math.max(1, textChunks(reply).length + (reply.toolUses?.length ?? 0) * 5),
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    ...reply.usage,
  };
}
