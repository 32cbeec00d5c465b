import { describe, expect, it } from 'vitest';
import { AppError, conflict, notFound, unprocessable } from '../../platform/http/errors.js';
import { toRejection } from './envelope.js';
import { GitRefusal } from './git-port.js';

describe('domain refusals as envelopes', () => {
  it('maps by status, keeping the code as the reason', () => {
    expect(toRejection(new AppError(403, 'not_authorized', 'no'))).toMatchObject({
      error: 'not_authorized',
      reason: 'not_authorized',
    });
    expect(toRejection(notFound('gone'))).toMatchObject({ error: 'not_found' });
    expect(toRejection(conflict('already_claimed', 'taken'))).toMatchObject({
      error: 'invalid_state',
      reason: 'already_claimed',
    });
    expect(toRejection(conflict('subtasks_open', 'open'))).toMatchObject({ error: 'tracing_gap' });
  });

  it('turns a 422 into incomplete_input with the fields, without the body. prefix', () => {
    const rejection = toRejection(
      unprocessable('bad', [{ field: 'body.reason', message: 'needs 10 characters' }]),
    );
    expect(rejection).toMatchObject({
      error: 'incomplete_input',
      missing: ['reason'],
      field_hints: { reason: 'needs 10 characters' },
    });
  });

  it('honours a flavor the error declares, and git refusals', () => {
    const declared = Object.assign(new AppError(409, 'ceo_only', 'no'), { flavor: 'not_authorized' });
    expect(toRejection(declared)).toMatchObject({ error: 'not_authorized', reason: 'ceo_only' });
    expect(toRejection(new GitRefusal('no_commits', 'nothing', 'tracing_gap'))).toMatchObject({
      error: 'tracing_gap',
      missing: ['no_commits'],
    });
  });

  it('leaves real failures alone', () => {
    expect(toRejection(new AppError(503, 'unavailable', 'down'))).toBeUndefined();
    expect(toRejection(new Error('bug'))).toBeUndefined();
  });
});
