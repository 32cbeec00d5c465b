/** The dependency-update bot (being built: its sweep is not written yet). */
import type { BoardProgram } from '../../board-programs/index.js';
import type { EngineDeps } from '../deps.js';

export function depUpdateProgram(deps: EngineDeps): BoardProgram {
  return {
    key: 'dep_update',
    title: 'Dependency-update bot',
    description: 'Refreshes lockfiles in a throwaway clone and opens an update task when they change.',
    role: 'system',
    trigger: 'interval',
    intervalSeconds: deps.config.depUpdateIntervalSeconds,
    scope: 'project',
    enabled: () => deps.flags.isEnabled('dep_update'),
    sweep: async () => {
      throw new Error('the dependency-update sweep is not built yet');
    },
  };
}
