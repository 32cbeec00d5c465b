import { describe, expect, it } from 'vitest';
import { messageOf } from './message-of.js';

describe('messageOf', () => {
  it("answers an Error's message and any other thrown value as text", () => {
    expect(messageOf(new TypeError('bad input'))).toBe('bad input');
    expect(messageOf('plain string')).toBe('plain string');
    expect(messageOf(42)).toBe('42');
    expect(messageOf(undefined)).toBe('undefined');
  });

  it('cuts the message to the given length', () => {
    expect(messageOf(new Error('x'.repeat(600)), 500)).toHaveLength(500);
    expect(messageOf(new Error('short'), 500)).toBe('short');
  });
});
