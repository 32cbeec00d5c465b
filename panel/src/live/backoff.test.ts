import { describe, expect, it } from 'vitest';
import { connectionState, DEFAULT_BACKOFF, POLL_AFTER_FAILURES, reconnectDelay } from './backoff';

describe('reconnectDelay', () => {
  it('doubles from one second and is capped at thirty', () => {
    const full = (attempt: number) => reconnectDelay(attempt, DEFAULT_BACKOFF, 1);
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(full)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('spreads each delay over half to all of it', () => {
    expect(reconnectDelay(3, DEFAULT_BACKOFF, 0)).toBe(4_000);
    expect(reconnectDelay(3, DEFAULT_BACKOFF, 0.5)).toBe(6_000);
    expect(reconnectDelay(30, DEFAULT_BACKOFF, 0)).toBe(15_000);
    // Out-of-range randomness and negative attempts stay inside the bounds.
    expect(reconnectDelay(-2, DEFAULT_BACKOFF, 7)).toBe(1_000);
  });

  it('follows other options', () => {
    expect(reconnectDelay(2, { baseMs: 500, maxMs: 1_500, factor: 3 }, 1)).toBe(1_500);
    expect(reconnectDelay(1, { baseMs: 500, maxMs: 10_000, factor: 3 }, 1)).toBe(1_500);
  });
});

describe('connectionState', () => {
  it('is live while open, reconnecting after a drop, polling once retries keep failing', () => {
    expect(connectionState(true, 0)).toBe('live');
    expect(connectionState(true, 9)).toBe('live');
    expect(connectionState(false, 0)).toBe('reconnecting');
    expect(connectionState(false, POLL_AFTER_FAILURES - 1)).toBe('reconnecting');
    expect(connectionState(false, POLL_AFTER_FAILURES)).toBe('polling');
    expect(connectionState(false, 50)).toBe('polling');
  });
});
