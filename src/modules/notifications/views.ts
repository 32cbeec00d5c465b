/** How a notification row (with one recipient's read and ack) is shown over the API. */
import type { NotificationResolution, notificationRecipients, notifications } from './schema.js';

export type NotificationRow = typeof notifications.$inferSelect;
export type RecipientRow = typeof notificationRecipients.$inferSelect;

export interface NotificationView {
  id: string;
  type: string;
  priority: string;
  subject: string;
  body: string;
  ack_required: boolean;
  sender_id: string;
  sender_role: string;
  related_task_id: string | null;
  sent_at: string;
  expires_at: string | null;
  read_at: string | null;
  acked_at: string | null;
  resolved_at: string | null;
  resolution: NotificationResolution | null;
  escalation_count: number;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toNotificationView(
  row: NotificationRow,
  recipient: Pick<RecipientRow, 'readAt' | 'ackedAt'>,
): NotificationView {
  return {
    id: row.id,
    type: row.type,
    priority: row.priority,
    subject: row.subject,
    body: row.body,
    ack_required: row.ackRequired,
    sender_id: row.senderId,
    sender_role: row.senderRole,
    related_task_id: row.relatedTaskId,
    sent_at: row.sentAt.toISOString(),
    expires_at: iso(row.expiresAt),
    read_at: iso(recipient.readAt),
    acked_at: iso(recipient.ackedAt),
    resolved_at: iso(row.resolvedAt),
    resolution: row.resolution,
    escalation_count: row.escalationCount,
  };
}
