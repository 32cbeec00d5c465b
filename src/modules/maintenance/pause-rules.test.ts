/** The pause as pure rules: effective state at a time, the expiry a request may ask for, the words that name it. */
import { describe, expect, it } from 'vitest';
import {
  describePause,
  effectivePause,
  interruptsInFlight,
  isPaused,
  type PausedRecord,
  pausedRecord,
  pauseExpiry,
  pauseRow,
} from './pause-rules.js';

const now = new Date('2026-03-01T12:00:00.000Z');
const hours = (h: number) => new Date(now.getTime() + h * 3_600_000);

const record = (over: Partial<PausedRecord> = {}): PausedRecord => ({
  paused: true,
  mode: 'drain',
  paused_by: 'ceo',
  reason: null,
  paused_at: now.toISOString(),
  expires_at: hours(4).toISOString(),
  ...over,
});

describe('effectivePause', () => {
  it('is running for a resumed record', () => {
    expect(effectivePause({ paused: false }, now)).toEqual({ kind: 'running' });
  });

  it('is paused until expires_at, and running from that instant on', () => {
    const paused = record();
    expect(effectivePause(paused, hours(3.99))).toEqual({ kind: 'paused', record: paused });
    expect(effectivePause(paused, hours(4)).kind).toBe('running');
    expect(effectivePause(paused, hours(100)).kind).toBe('running');
  });

  it('interrupts in-flight work only for a kill pause; an unreadable state holds without interrupting', () => {
    expect(interruptsInFlight(effectivePause(record({ mode: 'kill' }), now))).toBe(true);
    expect(interruptsInFlight(effectivePause(record({ mode: 'drain' }), now))).toBe(false);
    const unreadable = { kind: 'unreadable', error: 'db down' } as const;
    expect(isPaused(unreadable)).toBe(true);
    expect(interruptsInFlight(unreadable)).toBe(false);
  });
});

describe('pauseExpiry', () => {
  it('defaults to four hours from now', () => {
    expect(pauseExpiry(now)).toEqual({ ok: true, expiresAt: hours(4) });
  });

  it('accepts any future time up to exactly 336 hours ahead, in any offset', () => {
    expect(pauseExpiry(now, hours(336).toISOString())).toEqual({ ok: true, expiresAt: hours(336) });
    expect(pauseExpiry(now, '2026-03-01T14:00:00+02:00').ok).toBe(false); // that is now, in UTC+2
    expect(pauseExpiry(now, '2026-03-01T15:00:00+02:00')).toEqual({ ok: true, expiresAt: hours(1) });
  });

  it('refuses the past, now itself, more than 336 hours, and garbage — never clamping', () => {
    for (const bad of [hours(-1).toISOString(), now.toISOString(), hours(336.001).toISOString(), 'soon']) {
      expect(pauseExpiry(now, bad).ok).toBe(false);
    }
    expect(pauseExpiry(now, hours(337).toISOString())).toEqual({
      ok: false,
      message: 'must be at most 336 hours (14 days) from now',
    });
  });
});

describe('rows and descriptions', () => {
  it('stores a blank reason as none and times in UTC', () => {
    expect(
      pausedRecord({ mode: 'kill', pausedBy: 'ceo', reason: '   ', pausedAt: now, expiresAt: hours(1) }),
    ).toEqual(record({ mode: 'kill', expires_at: hours(1).toISOString() }));
  });

  it('names the scope, mode, who and until when', () => {
    const row = pauseRow('engines', effectivePause(record({ reason: 'upgrade' }), now), null);
    expect(describePause(row)).toBe(
      'maintenance pause on engines (drain) by ceo until 2026-03-01T16:00:00.000Z ("upgrade")',
    );
  });

  it('shows an unreadable scope as paused, with the time reads started failing', () => {
    const since = hours(-1);
    const row = pauseRow('dispatch', { kind: 'unreadable', error: 'connection refused' }, since);
    expect(row).toMatchObject({ scope: 'dispatch', paused: true, read_degraded_since: since.toISOString() });
    expect(row.reason).toContain('connection refused');
    expect(describePause(row)).toContain('maintenance pause on dispatch');
  });
});
