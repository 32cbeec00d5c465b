import { describe, expect, it } from 'vitest';
import { problemOf } from './problem';

describe('problemOf', () => {
  it('reads the standard error body with remediate and field details', () => {
    const body = {
      error: {
        code: 'validation_failed',
        message: 'the request is invalid',
        remediate: 'Use the full UUID.',
        details: [{ field: 'body.reason', message: 'is required' }, 'junk'],
      },
      correlation_id: 'c1',
    };
    expect(problemOf(body)).toEqual({
      code: 'validation_failed',
      message: 'the request is invalid',
      remediate: 'Use the full UUID.',
      fields: [{ field: 'body.reason', message: 'is required' }],
    });
  });

  it('turns a network failure into its message, and anything else into a generic one', () => {
    expect(problemOf(new TypeError('Failed to fetch'))).toMatchObject({
      code: 'network_error',
      message: 'Failed to fetch',
    });
    expect(problemOf(undefined)).toMatchObject({ code: 'error', message: 'the request failed' });
  });
});
