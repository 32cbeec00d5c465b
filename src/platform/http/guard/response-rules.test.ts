import { describe, expect, it } from 'vitest';
import { BUILT_IN_RULES, GuardRuleError, loadResponseRules, responseMatches } from './response-rules.js';

const rule = (fields: Record<string, unknown>) =>
  JSON.stringify([{ threshold: 1, window_seconds: 60, ...fields }]);

describe('response-pattern rules', () => {
  it('has the spec’s 401 rule: 20 in 300 seconds, log only', () => {
    expect(BUILT_IN_RULES.find((r) => r.name === 'status-401')).toMatchObject({
      status: 401,
      threshold: 20,
      windowSeconds: 300,
    });
  });

  it('keeps the built-in body rule inactive, and says so, while body scanning is off', () => {
    const off = loadResponseRules('', false);
    expect(off.inactive.map((r) => r.name)).toEqual(['leaked-secret']);
    expect(off.active.map((r) => r.name)).toEqual(['status-401', 'status-404']);
    expect(loadResponseRules('', true).active.map((r) => r.name)).toContain('leaked-secret');
  });

  it('refuses a configured body rule while body scanning is off instead of dropping it', () => {
    const configured = rule({ name: 'token-in-body', body_pattern: 'tok_[a-z]+' });
    expect(() => loadResponseRules(configured, false)).toThrow(GuardRuleError);
    expect(() => loadResponseRules(configured, false)).toThrow(/GAFFER_GUARD_SCAN_RESPONSE_BODY is off/);
    expect(loadResponseRules(configured, true).active.map((r) => r.name)).toContain('token-in-body');
  });

  it.each([
    ['not JSON', '{', /not JSON/],
    ['not an array', '{}', /JSON array/],
    ['a bad pattern', rule({ name: 'bad', body_pattern: '(' }), /not a valid regular expression/],
    ['no status and no pattern', rule({ name: 'empty' }), /needs `status`/],
    ['a bad status', rule({ name: 'bad', status: 99 }), /HTTP status/],
    ['an unknown field', rule({ name: 'x', status: 500, action: 'ban' }), /unknown field/],
    ['a bad name', rule({ name: 'Bad Name', status: 500 }), /slug/],
    ['a clash with a built-in rule', rule({ name: 'status-401', status: 401 }), /same name/],
    ['no window', JSON.stringify([{ name: 'x', status: 500, threshold: 1 }]), /window_seconds/],
  ])('refuses %s', (_case, configured, message) => {
    expect(() => loadResponseRules(configured, true)).toThrow(message);
  });

  it('matches a status rule on its status and a body rule on its body', () => {
    const [status401] = BUILT_IN_RULES;
    expect(responseMatches(status401!, 401, undefined)).toBe(true);
    expect(responseMatches(status401!, 403, undefined)).toBe(false);
    const leaked = BUILT_IN_RULES.find((r) => r.name === 'leaked-secret')!;
    expect(responseMatches(leaked, 200, `{"token":"ghp_${'a'.repeat(36)}"}`)).toBe(true);
    expect(responseMatches(leaked, 200, '{"status":"ok"}')).toBe(false);
    expect(responseMatches(leaked, 200, undefined)).toBe(false);
  });
});
