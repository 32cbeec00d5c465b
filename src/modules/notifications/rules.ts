/**
 * The pure rules of notifications: the types and priorities, which types need an ack, the ack
 * deadline and the re-escalation backoff, and what a sweep should do with one notification now.
 */
import { isTerminal, TERMINAL_STATES } from '../lifecycle/index.js';

export const NOTIFICATION_TYPES = [
  'task_assignment',
  'priority_change',
  'blocker_escalation',
  'review_request',
  'documentation_request',
  'approval',
  'alert',
  'broadcast',
  'knowledge_share',
  'mention',
  'a2a_request',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export const NOTIFICATION_PRIORITIES = ['normal', 'high', 'urgent'] as const;
export type NotificationPriority = (typeof NOTIFICATION_PRIORITIES)[number];

/** The roles that may send a notification through the API. */
export const SENDER_ROLES = [
  'cell_pm',
  'main_pm',
  'product_owner',
  'head_marketing',
  'ceo',
  'system',
] as const;

export const NOTIFICATION_LIMITS = {
  subjectMax: 200,
  bodyMax: 10_000,
  recipientsMax: 100,
  listMax: 100,
  listDefault: 50,
} as const;

const ACK_REQUIRED: ReadonlySet<NotificationType> = new Set([
  'priority_change',
  'blocker_escalation',
  'approval',
  'alert',
]);

/** Whether a recipient must formally acknowledge a notification of this type. */
export const isAckRequired = (type: NotificationType): boolean => ACK_REQUIRED.has(type);

/** Task states after which nobody needs to be chased about the task any more: the terminal ones. */
export const CLOSED_TASK_STATUSES = TERMINAL_STATES;
export const isClosedTaskStatus = (status: string | null | undefined): boolean =>
  !!status && isTerminal(status);

const HOUR_MS = 3_600_000;
/** The longest wait between two re-escalations. */
export const MAX_BACKOFF_MS = 24 * HOUR_MS;

export interface EscalationPolicy {
  /** Hours an ack-required notification waits for its ack; 0 = never re-escalated. */
  ackTtlHours: number;
  /** Backoff base in seconds: the wait after the k-th re-escalation is base·2^(k−1), capped at 24 h. */
  baseSeconds: number;
  /** Re-escalations of one notification at most. */
  maxReescalations: number;
}

/** The ack deadline of a notification sent at `sentAt`: null when it needs no ack or the TTL is 0. */
export function ackDeadline(ackRequired: boolean, sentAt: Date, policy: EscalationPolicy): Date | null {
  if (!ackRequired || policy.ackTtlHours <= 0) return null;
  return new Date(sentAt.getTime() + policy.ackTtlHours * HOUR_MS);
}

/** The wait after the `k`-th re-escalation (k ≥ 1): base·2^(k−1) seconds, at most 24 h. */
export function backoffAfter(k: number, policy: Pick<EscalationPolicy, 'baseSeconds'>): number {
  const ms = policy.baseSeconds * 1000 * 2 ** Math.max(0, k - 1);
  return Math.min(ms, MAX_BACKOFF_MS);
}

/**
 * When the next re-escalation falls due once `count` have been made, the last at `at`; null when
 * the maximum is reached (the notification is then left as permanently unacked).
 */
export function nextEscalationAfter(count: number, at: Date, policy: EscalationPolicy): Date | null {
  if (count >= policy.maxReescalations) return null;
  return new Date(at.getTime() + backoffAfter(count, policy));
}

export interface EscalationState {
  ackRequired: boolean;
  resolvedAt: Date | null;
  /** True when some recipient has acked. */
  acked: boolean;
  relatedTaskStatus: string | null;
  nextEscalationAt: Date | null;
  escalationCount: number;
}

export type SweepDecision =
  | { action: 'none' }
  | { action: 'resolve'; resolution: 'acked' | 'task_closed' }
  | { action: 'escalate'; attempt: number };

/** What a sweep at `now` does with one notification. Resolution wins over escalation. */
export function sweepDecision(state: EscalationState, now: Date, policy: EscalationPolicy): SweepDecision {
  if (!state.ackRequired || state.resolvedAt) return { action: 'none' };
  if (state.acked) return { action: 'resolve', resolution: 'acked' };
  if (isClosedTaskStatus(state.relatedTaskStatus)) return { action: 'resolve', resolution: 'task_closed' };
  if (!state.nextEscalationAt || state.nextEscalationAt.getTime() > now.getTime()) return { action: 'none' };
  if (state.escalationCount >= policy.maxReescalations) return { action: 'none' };
  return { action: 'escalate', attempt: state.escalationCount + 1 };
}
