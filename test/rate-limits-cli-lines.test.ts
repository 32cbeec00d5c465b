/**
 * The agent-CLI output parser of the rate-limit parking: which lines of Claude Code, Codex and plain
 * CLIs report a provider rate limit or overload, the wait they hint at, and the lines that only talk
 * about rate limits (tool output, the model's own text) and must not park anything.
 */
import { describe, expect, it } from 'vitest';
import { parseCliRateLimit, scanCliRateLimit } from '../src/modules/runtime/index.js';

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const parse = (line: string | object) =>
  parseCliRateLimit(typeof line === 'string' ? line : JSON.stringify(line), NOW);

describe('Claude Code stream-json', () => {
  it('reads an error result with the API 429', () => {
    expect(
      parse({
        type: 'result',
        subtype: 'success',
        is_error: true,
        result:
          'API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}',
      }),
    ).toEqual({ kind: 'rate_limited', retryAfterSeconds: null });
  });

  it('reads the synthesised assistant message of an overload', () => {
    expect(
      parse({
        type: 'assistant',
        error: 'overloaded',
        message: { content: [{ type: 'text', text: 'API Error: 529 {"type":"overloaded_error"}' }] },
      }),
    ).toEqual({ kind: 'overloaded', retryAfterSeconds: null });
  });

  it('reads the usage-limit message with its reset time as epoch seconds', () => {
    const reset = Math.floor(NOW / 1000) + 3600;
    expect(
      parse({
        type: 'result',
        is_error: true,
        subtype: 'error',
        result: `Claude AI usage limit reached|${reset}`,
      }),
    ).toEqual({ kind: 'rate_limited', retryAfterSeconds: 3600 });
  });

  it('reads a retry notice with its Retry-After field', () => {
    expect(
      parse({
        type: 'system',
        subtype: 'api_retry',
        error_status: 429,
        error: 'rate_limit',
        retry_after: 42,
      }),
    ).toEqual({ kind: 'rate_limited', retryAfterSeconds: 42 });
  });

  it('ignores tool results and the model text that mention rate limits', () => {
    expect(
      parse({
        type: 'user',
        message: {
          content: [{ type: 'tool_result', content: 'HTTP 429 Too Many Requests: rate limit exceeded' }],
        },
      }),
    ).toBeNull();
    expect(
      parse({
        type: 'assistant',
        message: { content: [{ type: 'text', text: 'I will add a 429 rate limit.' }] },
      }),
    ).toBeNull();
    expect(
      parse({ type: 'result', is_error: false, result: 'Implemented the 429 rate limiter.' }),
    ).toBeNull();
  });
});

describe('Codex JSON events', () => {
  it('reads an error event with its try-again hint', () => {
    expect(
      parse({
        type: 'error',
        message: 'Rate limit reached for gpt-5 on tokens per min. Please try again in 1m30s.',
      }),
    ).toEqual({ kind: 'rate_limited', retryAfterSeconds: 90 });
  });

  it('reads the older msg envelope and turn.failed', () => {
    expect(
      parse({
        id: '0',
        msg: { type: 'error', message: 'exceeded retry limit, last status: 429 Too Many Requests' },
      }),
    ).toEqual({ kind: 'rate_limited', retryAfterSeconds: null });
    expect(
      parse({
        type: 'turn.failed',
        error: { message: "You've hit your usage limit. Try again in 2 hours 5 minutes." },
      }),
    ).toEqual({ kind: 'rate_limited', retryAfterSeconds: 7500 });
  });

  it('ignores other failures and ordinary events', () => {
    expect(parse({ type: 'error', message: 'sandbox denied write to /etc/passwd' })).toBeNull();
    expect(
      parse({ type: 'item.completed', item: { type: 'command_execution', aggregated_output: '429' } }),
    ).toBeNull();
  });
});

describe('plain text', () => {
  it('reads a 429 with a Retry-After', () => {
    expect(parse('Error: 429 Too Many Requests (Retry-After: 30)')).toEqual({
      kind: 'rate_limited',
      retryAfterSeconds: 30,
    });
    expect(parse('rate limit exceeded, retry after 12 seconds')).toEqual({
      kind: 'rate_limited',
      retryAfterSeconds: 12,
    });
  });

  it('reads an overload', () => {
    expect(parse('APIError: status 529 overloaded_error: Overloaded')).toEqual({
      kind: 'overloaded',
      retryAfterSeconds: null,
    });
  });

  it('ignores lines that only mention rate limits or the number 429', () => {
    expect(parse('Added a rate limiter to the login route')).toBeNull();
    expect(parse('processed 429 files')).toBeNull();
    expect(parse('')).toBeNull();
    expect(parse(`error 429 ${'x'.repeat(5000)}`)).toBeNull();
  });

  it('finds the one line of a chunk that reports it', () => {
    expect(
      scanCliRateLimit('working…\nError: 429 Too Many Requests, retry-after-ms: 1500\ndone\n', NOW),
    ).toEqual({
      kind: 'rate_limited',
      retryAfterSeconds: 2,
    });
    expect(scanCliRateLimit('line 1\nline 2\n', NOW)).toBeNull();
  });
});
