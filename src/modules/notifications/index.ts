/** Notifications: typed, prioritised, ack-required ones re-escalated; published live and relayed to chat. */
import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import type { NotificationsDeps } from '../registry.js';
import { NotificationsService } from './service.js';

export { NotificationsService };

export interface NotificationsModule {
  service: NotificationsService;
  registerRoutes(app: FastifyInstance): void;
}

export function createNotificationsModule(platform: Platform, _deps: NotificationsDeps): NotificationsModule {
  return { service: new NotificationsService(platform), registerRoutes() {} };
}
