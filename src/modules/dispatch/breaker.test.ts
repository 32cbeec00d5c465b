/** The respawn breaker's verdict, pure. */
import { describe, expect, it } from 'vitest';
import { type BreakerRow, breakerVerdict, madeProgress } from './breaker.js';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const row = (spawns: number, fields: Partial<BreakerRow> = {}): BreakerRow => ({
  spawns,
  seen: { lastEventId: 10, lastHeartbeatAt: at(1) },
  stalledAt: null,
  ...fields,
});
const same = { lastEventId: 10, lastHeartbeatAt: at(1) };

describe('madeProgress', () => {
  it('counts a newer audit row, never a heartbeat (every respawned agent beats)', () => {
    expect(madeProgress(same, same)).toBe(false);
    expect(madeProgress(same, { ...same, lastEventId: 11 })).toBe(true);
    expect(madeProgress(same, { ...same, lastHeartbeatAt: at(2) })).toBe(false);
    expect(
      madeProgress({ lastEventId: null, lastHeartbeatAt: null }, { lastEventId: 1, lastHeartbeatAt: null }),
    ).toBe(true);
  });
});

describe('breakerVerdict', () => {
  it('counts spawns without progress and trips at the limit', () => {
    expect(breakerVerdict(null, same, 3)).toEqual({ action: 'spawn', spawns: 1, unstall: false });
    expect(breakerVerdict(row(1), same, 3)).toEqual({ action: 'spawn', spawns: 2, unstall: false });
    expect(breakerVerdict(row(2), same, 3)).toEqual({ action: 'spawn', spawns: 3, unstall: false });
    expect(breakerVerdict(row(3), same, 3)).toEqual({ action: 'trip', spawns: 3 });
  });

  it('starts counting again after progress, and un-stalls a stalled task that progressed', () => {
    expect(breakerVerdict(row(3), { ...same, lastEventId: 12 }, 3)).toEqual({
      action: 'spawn',
      spawns: 1,
      unstall: false,
    });
    const stalled = row(3, { stalledAt: at(5) });
    expect(breakerVerdict(stalled, same, 3)).toEqual({ action: 'stalled' });
    expect(breakerVerdict(stalled, { ...same, lastHeartbeatAt: at(6) }, 3)).toEqual({ action: 'stalled' });
    expect(breakerVerdict(stalled, { ...same, lastEventId: 13 }, 3)).toEqual({
      action: 'spawn',
      spawns: 1,
      unstall: true,
    });
  });
});
