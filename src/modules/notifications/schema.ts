import { boolean, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { agents } from '../agents/schema.js';
import { tasks } from '../tasks/schema.js';

/** Why a notification stopped being chased. */
export type NotificationResolution = 'acked' | 'task_closed';

/**
 * One row per notification. For ack-required ones the row also carries the re-escalation state:
 * `next_escalation_at` (first the ack deadline `expires_at`, then the backoff), the number of
 * re-escalations so far (the compare-and-set key of a sweep's claim), and the resolution once it
 * needs no more chasing (acked, or its related task closed).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    priority: text('priority').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    ackRequired: boolean('ack_required').notNull(),
    /** Identity id of the sender (agent UUID, or the CEO / system fixed id). */
    senderId: text('sender_id').notNull(),
    senderRole: text('sender_role').notNull(),
    relatedTaskId: uuid('related_task_id').references(() => tasks.id, { onDelete: 'set null' }),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    /** The ack deadline (sent + ack TTL); null when no ack is required or the TTL is 0. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    nextEscalationAt: timestamp('next_escalation_at', { withTimezone: true }),
    escalationCount: integer('escalation_count').notNull().default(0),
    /** The agent the last re-escalation went to. */
    escalatedTo: uuid('escalated_to'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** `acked` or `task_closed`. */
    resolution: text('resolution').$type<NotificationResolution>(),
  },
  (t) => [
    index('notifications_next_escalation_idx').on(t.nextEscalationAt),
    index('notifications_related_task_idx').on(t.relatedTaskId),
  ],
);

/** Who a notification went to, and each recipient's own read and ack. */
export const notificationRecipients = pgTable(
  'notification_recipients',
  {
    notificationId: uuid('notification_id')
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    recipientId: uuid('recipient_id')
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    /** 0 for an original recipient, k for the one added by the k-th re-escalation. */
    escalationLevel: integer('escalation_level').notNull().default(0),
    readAt: timestamp('read_at', { withTimezone: true }),
    ackedAt: timestamp('acked_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.notificationId, t.recipientId] }),
    index('notification_recipients_recipient_idx').on(t.recipientId, t.readAt),
  ],
);
