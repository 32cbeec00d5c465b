/** The NOTIFICATION_SENT payload of one recipient, queued to publish after the commit. */
import type { PendingEvents } from '../../platform/bus/index.js';
import type { NotificationRow } from './views.js';

export function queueSent(events: PendingEvents, row: NotificationRow, recipientId: string): void {
  events.add('NOTIFICATION_SENT', {
    notification_id: row.id,
    recipient_id: recipientId,
    type: row.type,
    priority: row.priority,
    subject: row.subject,
    ack_required: row.ackRequired,
  });
}
