import { describe, expect, it } from 'vitest';
import { parseCliAuthFailure, scanCliAuthFailure } from './cli-auth-failures.js';

describe('parseCliAuthFailure', () => {
  it('reads a refused key from each CLI as it prints it', () => {
    // Claude Code 2.1.x retrying a 401.
    expect(
      parseCliAuthFailure(
        '{"type":"system","subtype":"api_retry","attempt":1,"max_retries":10,"retry_delay_ms":560,"error_status":401,"error":"authentication_failed","session_id":"s"}',
      ),
    ).toBe('authentication_failed 401');
    // Codex 0.171 reconnecting after a 401.
    expect(
      parseCliAuthFailure(
        '{"type":"error","message":"Reconnecting... 1/5 (unexpected status 401 Unauthorized: Incorrect API key provided., url: http://127.0.0.1:1/v1/responses)"}',
      ),
    ).toBe(
      'Reconnecting... 1/5 (unexpected status 401 Unauthorized: Incorrect API key provided., url: http://127.0.0.1:1/v1/responses)',
    );
    // The Gemini CLI 0.61 ending on a 401.
    expect(
      parseCliAuthFailure(
        JSON.stringify({
          type: 'result',
          status: 'error',
          error: {
            type: 'unknown',
            message:
              '[API Error: {"error":{"code":401,"message":"Incorrect API key provided.","status":"UNAUTHENTICATED"}}]',
          },
        }),
      ),
    ).toBe(
      'unknown: [API Error: {"error":{"code":401,"message":"Incorrect API key provided.","status":"UNAUTHENTICATED"}}]',
    );
    // A plain stderr line.
    expect(parseCliAuthFailure('Error: 401 Unauthorized: invalid api key')).toBe(
      'Error: 401 Unauthorized: invalid api key',
    );
  });

  it('ignores tool output, the model’s own text, rate limits and other errors', () => {
    expect(
      parseCliAuthFailure(
        '{"type":"user","message":{"content":[{"type":"tool_result","content":"HTTP 401 Unauthorized"}]}}',
      ),
    ).toBeNull();
    expect(
      parseCliAuthFailure(
        '{"type":"assistant","message":{"content":[{"type":"text","text":"401 means unauthorized"}]}}',
      ),
    ).toBeNull();
    expect(
      parseCliAuthFailure('{"type":"system","subtype":"api_retry","error_status":429,"error":"rate_limit"}'),
    ).toBeNull();
    expect(parseCliAuthFailure('The login page answers 401 to a stranger.')).toBeNull();
    expect(parseCliAuthFailure('{"type":"error","message":"connection reset"}')).toBeNull();
  });

  it('keeps the cause short and finds it in a chunk of lines', () => {
    const long = `Error: 401 Unauthorized: ${'x'.repeat(1000)}`;
    expect(parseCliAuthFailure(long)).toHaveLength(300);
    expect(
      scanCliAuthFailure('starting\n{"type":"error","message":"unexpected status 401 Unauthorized"}\n'),
    ).toBe('unexpected status 401 Unauthorized');
    expect(scanCliAuthFailure('all fine\n')).toBeNull();
  });
});
