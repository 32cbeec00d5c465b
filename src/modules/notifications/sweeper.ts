/**
 * Runs the notification sweep (re-escalation of unacked ack-required notifications, and
 * auto-resolution when their task ends) as a scheduler loop every
 * GAFFER_NOTIFICATION_SWEEP_INTERVAL_SECONDS, one replica at a time. No pause scope holds it: it only
 * escalates and resolves, like the stale-claim reaper and the budget sweep.
 */
import type { Platform } from '../../platform/context.js';
import type { Scheduler } from '../../platform/scheduler/index.js';
import type { NotificationsService } from './service.js';

export const NOTIFICATION_SWEEP_LOOP = 'notifications.sweep';

export function scheduleNotificationSweep(
  scheduler: Scheduler,
  platform: Platform,
  service: NotificationsService,
): void {
  scheduler.register({
    name: NOTIFICATION_SWEEP_LOOP,
    intervalMs: platform.config.notificationSweepIntervalSeconds * 1000,
    run: async () => {
      await service.sweep();
    },
  });
}
