import { describe, expect, it } from 'vitest';
import { parseSetting, shapeOf, textOf } from './setting-text';

describe('value settings as text', () => {
  it('picks an editor from the value, or the default when unset', () => {
    expect(shapeOf('CEO', 'CEO')).toBe('text');
    expect(shapeOf(null, null)).toBe('number');
    expect(shapeOf(30, 30)).toBe('number');
    expect(shapeOf({ 'gpt-4o': { input: 2.5 } }, {})).toBe('json');
  });

  it('round-trips values and treats an empty field as no value', () => {
    expect(textOf(null, 'number')).toBe('');
    expect(parseSetting('', 'number', null)).toEqual({ ok: true, value: null });
    expect(parseSetting(' 250.5 ', 'number', null)).toEqual({ ok: true, value: 250.5 });
    expect(parseSetting('', 'text', 'CEO')).toEqual({ ok: true, value: 'CEO' });
    expect(parseSetting(textOf({ a: 1 }, 'json'), 'json', {})).toEqual({ ok: true, value: { a: 1 } });
  });

  it('says what is wrong before sending', () => {
    expect(parseSetting('lots', 'number', null)).toEqual({ ok: false, problem: 'must be a number' });
    expect(parseSetting('{nope', 'json', {})).toEqual({ ok: false, problem: 'must be valid JSON' });
  });
});
