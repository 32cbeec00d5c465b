import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { authFailureKind, isWellFormedAgentToken } from './stale-token.js';

const hex = 'a'.repeat(64);

describe('well-formed agent tokens', () => {
  it.each([
    [hex, true],
    [` ${hex.toUpperCase()} `, true],
    [`eyJpZCI6ImRldi0xIn0.${hex}`, true],
    ['a'.repeat(63), false],
    [`${hex}0`, false],
    ["' OR 1=1 --", false],
    ['eyJ.bad', false],
    [undefined, false],
  ])('%j is well-formed: %s', (token, expected) => {
    expect(isWellFormedAgentToken(token)).toBe(expected);
  });

  it('labels a refused well-formed token as a stale agent token, anything else as bad credentials', () => {
    const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;
    expect(authFailureKind(request({ 'x-agent-token': hex }))).toBe('stale_agent_token');
    expect(authFailureKind(request({ 'x-agent-token': 'guess' }))).toBe('bad_credentials');
    expect(authFailureKind(request({}))).toBe('bad_credentials');
  });
});
