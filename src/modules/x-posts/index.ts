/**
 * X posts' outside face: release and feature posts drafted by the head of marketing, scored by the
 * impact bar, held for the CEO, and posted through the X API on approval (/api/x).
 */

import { SYSTEM_ID } from '../../platform/http/auth/index.js';
import { messageOf } from '../../platform/message-of.js';
import type { ModuleFace, ModuleInput } from '../../platform/module.js';
import type { NotificationsModule } from '../notifications/index.js';
import { XCredentialsStore } from './credentials-store.js';
import { registerXPostsRoutes } from './routes.js';
import { XPostsService } from './service.js';

export { IMPACT_RUBRIC, type ImpactScore, impactBar } from './impact-bar.js';
export { XPostsService };

export interface XPostsDeps {
  notifications: Pick<NotificationsModule, 'service'>;
}

export interface XPostsModule extends ModuleFace {
  service: XPostsService;
}

const X_TIMEOUT_MS = 15_000;

export function createXPostsModule({ platform, deps }: ModuleInput<XPostsDeps>): XPostsModule {
  const { db } = platform.database;
  // A notification that cannot be sent (an unknown drafter, a store hiccup) never fails the decision.
  const notify = async (recipient: string, subject: string, body: string) => {
    try {
      await deps.notifications.service.send(
        { type: 'review_request', priority: 'normal', recipients: [recipient], subject, body },
        { id: SYSTEM_ID, role: 'system' },
      );
    } catch (error) {
      platform.log.warn({ recipient, err: messageOf(error) }, 'x-posts: notification not sent');
    }
  };
  const service = new XPostsService(
    db,
    platform.clock,
    new XCredentialsStore(db, platform.clock, platform.secret),
    X_TIMEOUT_MS,
    notify,
  );
  return { service, registerRoutes: (app) => registerXPostsRoutes(app, service) };
}
