/** What the pitches module is handed besides the platform. */
import type { AgentsModule } from '../agents/index.js';
import type { NotificationsModule } from '../notifications/index.js';
import type { ProductsModule } from '../products/index.js';
import type { ProjectsModule } from '../projects/index.js';
import type { FeatureFlags } from '../settings/index.js';
import type { TasksModule } from '../tasks/index.js';

export interface PitchesDeps {
  agents: Pick<AgentsModule, 'service'>;
  projects: Pick<ProjectsModule, 'service'>;
  products: Pick<ProductsModule, 'service'>;
  tasks: Pick<TasksModule, 'service'>;
  flags: Pick<FeatureFlags, 'isEnabled'>;
  notifications: Pick<NotificationsModule, 'service'>;
}
