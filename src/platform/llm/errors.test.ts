import { describe, expect, it } from 'vitest';
import { ProviderRateLimitError } from '../http/errors.js';
import {
  classifyHttpFailure,
  isModelError,
  ModelCallError,
  ModelThrottledError,
  modelErrorFor,
} from './errors.js';

const NOW = Date.parse('2026-11-25T09:00:00Z');

describe('classifyHttpFailure', () => {
  it.each([
    [429, undefined, 'rate_limited'],
    [529, 'overloaded_error', 'overloaded'],
    [503, undefined, 'overloaded'],
    [401, 'authentication_error', 'authentication'],
    [403, 'permission_error', 'authentication'],
    [400, 'invalid_request_error', 'bad_request'],
    [404, 'not_found_error', 'bad_request'],
    [422, undefined, 'bad_request'],
    [408, undefined, 'timeout'],
    [500, 'api_error', 'provider_error'],
    [502, undefined, 'provider_error'],
    [undefined, 'overloaded_error', 'overloaded'],
    [undefined, 'rate_limit_error', 'rate_limited'],
    [undefined, 'server_error', 'provider_error'],
  ] as const)('%s %s is %s', (status, type, kind) => {
    expect(classifyHttpFailure(status, type)).toBe(kind);
  });
});

describe('modelErrorFor', () => {
  it('makes a 429 a ProviderRateLimitError with the advised wait', () => {
    const error = modelErrorFor(
      'openai',
      { kind: 'http', status: 429, headers: { 'retry-after': '17' }, message: 'slow down' },
      NOW,
    );
    expect(error).toBeInstanceOf(ProviderRateLimitError);
    expect(error).toBeInstanceOf(ModelThrottledError);
    expect(error).toMatchObject({
      kind: 'rate_limited',
      provider: 'openai',
      retryAfterSeconds: 17,
      status: 429,
    });
    expect(error.message).toContain('slow down');
  });

  it('makes a 529 overloaded_error a throttle without a wait when none is advised', () => {
    const error = modelErrorFor(
      'claude',
      { kind: 'http', status: 529, errorType: 'overloaded_error', message: 'Overloaded' },
      NOW,
    );
    expect(error).toMatchObject({ kind: 'overloaded', retryAfterSeconds: undefined });
    expect(error).toBeInstanceOf(ProviderRateLimitError);
  });

  it('maps the rest to ModelCallError with an HTTP status the conventions answer with', () => {
    const auth = modelErrorFor('x', { kind: 'http', status: 401, message: 'bad key' }, NOW);
    expect(auth).toBeInstanceOf(ModelCallError);
    expect(auth).toMatchObject({
      kind: 'authentication',
      statusCode: 502,
      code: 'provider_authentication_failed',
    });
    expect(modelErrorFor('x', { kind: 'timeout' }, NOW)).toMatchObject({ kind: 'timeout', statusCode: 504 });
    expect(modelErrorFor('x', { kind: 'cancelled' }, NOW)).toMatchObject({ kind: 'cancelled' });
    const down = modelErrorFor('x', { kind: 'connection', message: 'ECONNREFUSED' }, NOW);
    expect(down).toMatchObject({ kind: 'unreachable', code: 'provider_unreachable', retryable: true });
    expect(isModelError(down)).toBe(true);
    expect(isModelError(new Error('other'))).toBe(false);
  });
});
