/** What the dashboard reads of the other modules (their outside faces). */
import type { AgentsModule } from '../agents/index.js';
import type { DispatchModule } from '../dispatch/index.js';
import type { RuntimeModule } from '../runtime/index.js';
import type { TasksModule } from '../tasks/index.js';
import type { RunWindow } from '../usage/index.js';

export interface DashboardDeps {
  tasks: Pick<TasksModule, 'service' | 'metrics'>;
  agents: Pick<AgentsModule, 'service'>;
  dispatch: Pick<DispatchModule, 'stalledTasks'>;
  runtime: Pick<RuntimeModule, 'endedTaskRuns'>;
  /** What each run cost (the usage ledger's named read). */
  runSpend(runs: readonly RunWindow[]): Promise<Map<string, number>>;
}
