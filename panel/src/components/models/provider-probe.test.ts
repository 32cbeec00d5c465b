import { describe, expect, it } from 'vitest';
import { probeText } from './provider-probe';

describe('probeText', () => {
  it('says how many models a working provider lists, and whether its default model is one', () => {
    expect(probeText({ ok: true, mode: 'models', model_count: 2, model_listed: true }, 'm1')).toEqual({
      tone: 'ok',
      text: 'Connected: 2 models listed, m1 among them.',
    });
    expect(probeText({ ok: true, mode: 'models', model_count: 5, model_listed: false }, 'm9').text).toBe(
      "Connected: 5 models listed, but not m9 (check the default model's name).",
    );
    expect(probeText({ ok: true, mode: 'completion' }, 'm1').text).toBe('Connected: it answers.');
  });

  it('names a refused key and an unreachable host as failures, a 429 as held with its Retry-After', () => {
    const refused = {
      ok: false,
      mode: 'models',
      error: { kind: 'authentication', message: 'bad key', status: 401 },
    } as const;
    expect(probeText(refused, 'm')).toEqual({
      tone: 'failed',
      text: 'The key was refused (HTTP 401): bad key.',
    });
    const limited = {
      ok: false,
      mode: 'models',
      error: { kind: 'rate_limited', message: 'slow down', status: 429, retry_after_seconds: 6.2 },
    } as const;
    expect(probeText(limited, 'm')).toEqual({
      tone: 'held',
      text: 'Rate limited (HTTP 429): slow down. Retry after 7 s.',
    });
    const down = {
      ok: false,
      mode: 'models',
      error: { kind: 'unreachable', message: 'ECONNREFUSED' },
    } as const;
    expect(probeText(down, 'm')).toEqual({
      tone: 'failed',
      text: 'The host cannot be reached: ECONNREFUSED.',
    });
    const odd = { ok: false, mode: 'models', error: { kind: 'teapot', message: 'short and stout' } } as const;
    expect(probeText(odd, 'm').text).toBe('Failed (teapot): short and stout.');
  });
});
