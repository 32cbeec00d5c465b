/**
 * An agent's pending notifications as one SQL expression (a JSON value), for a caller that reads
 * it in the same statement as other things (the gateway's context briefing): the unread and
 * pending-ack counts and the latest unread ones — the same rows and counts as the service's
 * `list(agent, { unreadOnly: true, limit })`.
 */
import { and, count, desc, eq, isNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { notificationRecipients, notifications } from './schema.js';

/** The recipient rows still waiting for this recipient's ack on a notification still being chased. */
export const pendingAck = (): SQL[] => [
  eq(notifications.ackRequired, true),
  isNull(notificationRecipients.ackedAt),
  isNull(notifications.resolvedAt),
];

export interface PendingSummary {
  unread: number;
  pending_ack: number;
  items: {
    id: string;
    type: string;
    priority: string;
    subject: string;
    ack_required: boolean;
    related_task_id: string | null;
    /** As PostgreSQL writes a timestamptz in JSON. */
    sent_at: string;
  }[];
}

/**
 * The pending summary of agent `agentId` as a JSON-valued SQL expression, listing at most `limit`
 * (either may be a placeholder, for a prepared statement).
 */
export function pendingSummarySql(
  db: Db,
  agentId: string | Placeholder,
  limit: number | Placeholder,
): SQL<PendingSummary> {
  const mine = eq(notificationRecipients.recipientId, agentId);
  const unread = and(mine, isNull(notificationRecipients.readAt));
  const n = notifications;
  const latest = db
    .select({
      id: n.id,
      type: n.type,
      priority: n.priority,
      subject: n.subject,
      ackRequired: n.ackRequired,
      relatedTaskId: n.relatedTaskId,
      sentAt: n.sentAt,
    })
    .from(notificationRecipients)
    .innerJoin(n, eq(n.id, notificationRecipients.notificationId))
    .where(unread)
    .orderBy(desc(n.sentAt), desc(n.id))
    .limit(limit);
  const unreadCount = db.select({ n: count() }).from(notificationRecipients).where(unread);
  const pendingCount = db
    .select({ n: count() })
    .from(notificationRecipients)
    .innerJoin(n, eq(n.id, notificationRecipients.notificationId))
    .where(and(mine, ...pendingAck()));
  return sql<PendingSummary>`json_build_object(
    'unread', ${unreadCount}::int,
    'pending_ack', ${pendingCount}::int,
    'items', coalesce((
      select json_agg(json_build_object('id', id, 'type', type, 'priority', priority, 'subject', subject,
        'ack_required', ack_required, 'related_task_id', related_task_id, 'sent_at', sent_at)
        order by sent_at desc, id desc)
      from ${latest} as latest), '[]'::json))`;
}
