/** What the cockpit reads of the other modules (their outside faces) and the settings store. */
import type { CompanyGoalsModule } from '../company-goals/index.js';
import type { DispatchModule } from '../dispatch/index.js';
import type { SettingsModule } from '../settings/index.js';
import type { TasksModule } from '../tasks/index.js';
import type { UsageModule } from '../usage/index.js';

export interface CockpitDeps {
  companyGoals: Pick<CompanyGoalsModule, 'service'>;
  tasks: Pick<TasksModule, 'metrics'>;
  dispatch: Pick<DispatchModule, 'stalledTasks'>;
  usage: Pick<UsageModule, 'service'>;
  settings: Pick<SettingsModule, 'service'>;
}
