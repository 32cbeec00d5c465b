/** Notifications: typed, prioritised, ack-required ones re-escalated; published live and relayed to chat. */
import type { Platform } from '../../platform/context.js';

export class NotificationsService {
  constructor(readonly platform: Platform) {}
}
