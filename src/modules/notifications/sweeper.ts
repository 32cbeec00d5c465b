/**
 * Drives the notification sweep (re-escalation of unacked ack-required notifications, and
 * auto-resolution when their task ends) every GAFFER_NOTIFICATION_SWEEP_INTERVAL_SECONDS while the
 * app runs. One replica at a time:
 * each pass holds a short lease. A failing pass is logged and the next one tries again.
 * The engine scheduler of the maintenance-pause issue will take this over; the sweep is never held
 * by a pause either way, since it only escalates and resolves.
 */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { NotificationsService } from './service.js';

const LEASE_NAME = 'notifications-sweep';

export function scheduleNotificationSweep(
  app: FastifyInstance,
  platform: Platform,
  service: NotificationsService,
): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const intervalMs = platform.config.notificationSweepIntervalSeconds * 1000;

  const pass = async () => {
    const lease = await platform.locks.acquire(LEASE_NAME, Math.max(intervalMs, 30_000));
    if (!lease) return; // another replica is sweeping
    try {
      const report = await service.sweep();
      app.log.debug({ report }, 'notification sweep');
    } finally {
      await platform.locks.release(lease);
    }
  };

  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      running ??= pass()
        .catch((error: unknown) => app.log.error({ err: error }, 'notification sweep failed'))
        .finally(() => {
          running = undefined;
        });
    }, intervalMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
