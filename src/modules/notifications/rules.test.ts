import { describe, expect, it } from 'vitest';
import {
  ackDeadline,
  backoffAfter,
  type EscalationState,
  isAckRequired,
  isClosedTaskStatus,
  MAX_BACKOFF_MS,
  NOTIFICATION_TYPES,
  nextEscalationAfter,
  sweepDecision,
} from './rules.js';

const policy = { ackTtlHours: 48, baseSeconds: 3600, maxReescalations: 5 };
const sent = new Date('2026-01-01T00:00:00Z');
const state = (overrides: Partial<EscalationState> = {}): EscalationState => ({
  ackRequired: true,
  resolvedAt: null,
  acked: false,
  relatedTaskStatus: null,
  nextEscalationAt: new Date('2026-01-03T00:00:00Z'),
  escalationCount: 0,
  ...overrides,
});

describe('notification rules', () => {
  it('requires an ack for exactly priority_change, blocker_escalation, approval and alert', () => {
    expect(NOTIFICATION_TYPES.filter(isAckRequired)).toEqual([
      'priority_change',
      'blocker_escalation',
      'approval',
      'alert',
    ]);
  });

  it('sets the ack deadline at sent + TTL, none without ack or with TTL 0', () => {
    expect(ackDeadline(true, sent, policy)?.toISOString()).toBe('2026-01-03T00:00:00.000Z');
    expect(ackDeadline(false, sent, policy)).toBeNull();
    expect(ackDeadline(true, sent, { ...policy, ackTtlHours: 0 })).toBeNull();
  });

  it('backs off base·2^(k−1), capped at 24 h', () => {
    expect([1, 2, 3, 4, 5, 6].map((k) => backoffAfter(k, policy) / 3_600_000)).toEqual([1, 2, 4, 8, 16, 24]);
    expect(backoffAfter(60, policy)).toBe(MAX_BACKOFF_MS);
  });

  it('schedules the next re-escalation until the maximum is reached', () => {
    expect(nextEscalationAfter(1, sent, policy)?.toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(nextEscalationAfter(5, sent, policy)).toBeNull();
  });

  it('knows completed and cancelled tasks are closed', () => {
    expect(['completed', 'cancelled', 'pending', null].map(isClosedTaskStatus)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('decides per notification: resolve first, escalate when due, otherwise nothing', () => {
    const due = new Date('2026-01-03T00:00:00Z');
    const early = new Date('2026-01-02T23:59:59Z');
    expect(sweepDecision(state(), early, policy)).toEqual({ action: 'none' });
    expect(sweepDecision(state(), due, policy)).toEqual({ action: 'escalate', attempt: 1 });
    expect(sweepDecision(state({ escalationCount: 2 }), due, policy)).toEqual({
      action: 'escalate',
      attempt: 3,
    });
    expect(sweepDecision(state({ escalationCount: 5 }), due, policy)).toEqual({ action: 'none' });
    expect(sweepDecision(state({ relatedTaskStatus: 'completed' }), early, policy)).toEqual({
      action: 'resolve',
      resolution: 'task_closed',
    });
    expect(sweepDecision(state({ acked: true }), due, policy)).toEqual({
      action: 'resolve',
      resolution: 'acked',
    });
    expect(sweepDecision(state({ ackRequired: false }), due, policy)).toEqual({ action: 'none' });
    expect(sweepDecision(state({ resolvedAt: sent }), due, policy)).toEqual({ action: 'none' });
    expect(sweepDecision(state({ nextEscalationAt: null }), due, policy)).toEqual({ action: 'none' });
  });
});
