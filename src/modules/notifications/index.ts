/** Notifications: typed, prioritised, ack-required ones re-escalated; published live and relayed to chat. */
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { Scheduler } from '../../platform/scheduler/index.js';
import type { AgentsModule } from '../agents/index.js';
import type { ChatRelayModule } from '../chat-relay/index.js';
import type { TasksModule } from '../tasks/index.js';
import { registerNotificationRoutes } from './routes.js';
import { NotificationsService } from './service.js';
import { scheduleNotificationSweep } from './sweeper.js';

export type { NotificationAcked, NotificationSent } from './events.js';
export { type PendingSummary, pendingSummarySql } from './pending-summary.js';
export {
  isAckRequired,
  NOTIFICATION_PRIORITIES,
  NOTIFICATION_TYPES,
  type NotificationPriority,
  type NotificationType,
} from './rules.js';

export type {
  NotificationActor,
  NotificationList,
  NotificationListFilter,
  SendNotificationInput,
  SentNotification,
} from './service.js';
export type { SweepReport } from './sweep.js';
export type { NotificationView } from './views.js';
export { NotificationsService };

export interface NotificationsModule extends ModuleFace {
  service: NotificationsService;
}

/** What this module is handed: the outside faces it uses (settings and scheduler are built first). */
export interface NotificationsDeps {
  agents: AgentsModule;
  tasks: TasksModule;
  chatRelay: ChatRelayModule;
  scheduler: Scheduler;
}

export function createNotificationsModule({
  platform,
  deps,
}: ModuleInput<NotificationsDeps>): NotificationsModule {
  const service = new NotificationsService(platform, {
    agents: deps.agents.service,
    chatRelay: deps.chatRelay.service,
  });
  scheduleNotificationSweep(deps.scheduler, platform, service);
  return {
    service,
    registerRoutes: (app) => registerNotificationRoutes(app, service),
  };
}
