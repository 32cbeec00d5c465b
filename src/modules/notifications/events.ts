/** The events the notifications module raises (declared on the platform bus's event map). */

export interface NotificationSent {
  notification_id: string;
  recipient_id: string;
  type: string;
  priority: string;
  subject: string;
  ack_required: boolean;
}

export interface NotificationAcked {
  notification_id: string;
  recipient_id: string;
}

declare module '../../platform/bus/types.js' {
  interface EventMap {
    /** A notification was sent to an agent (/ws/notifications/{recipient_id}). */
    NOTIFICATION_SENT: NotificationSent;
    /** A notification was acknowledged by its recipient (/ws/notifications/{recipient_id}). */
    NOTIFICATION_ACKED: NotificationAcked;
  }
}
