/** What the system module is handed besides the platform (the scheduler is built first). */
import type { Scheduler } from '../../platform/scheduler/index.js';
import type { AgentsModule } from '../agents/index.js';
import type { NotificationsModule } from '../notifications/index.js';
import type { ProvidersModule } from '../providers/index.js';
import type { RuntimeModule } from '../runtime/index.js';

export interface SystemDeps {
  scheduler: Scheduler;
  agents: Pick<AgentsModule, 'service'>;
  providers: Pick<ProvidersModule, 'service'>;
  runtime: Pick<RuntimeModule, 'supervisor'>;
  notifications: Pick<NotificationsModule, 'service'>;
}
